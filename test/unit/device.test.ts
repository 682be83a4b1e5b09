import { describe, expect, it } from 'vitest';
import { deviceNamer } from '#shared/domain/device.ts';
import { appVersionOf } from '#shared/model/session.ts';

/**
 * A session's device named as Immich v3.1 names it from the same request (its getUserAgentDetails
 * with ua-parser-js 2.0.10; the names measured for docs/immich-compatibility.md, "Sessions and
 * their devices"), here with ua-parser-js 1.x and 2.x's spellings.
 */
const cases: [string, string, { deviceModel?: string; deviceType?: string }, string, string][] = [
  [
    'Chrome on Linux',
    'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/138.0.0.0 Safari/537.36',
    {},
    'Chrome',
    'Linux',
  ],
  [
    'Chrome on Windows',
    'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/138.0.0.0 Safari/537.36',
    {},
    'Chrome',
    'Windows',
  ],
  [
    'Chrome on macOS',
    'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/138.0.0.0 Safari/537.36',
    {},
    'Chrome',
    'macOS',
  ],
  [
    'Edge on Windows',
    'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/138.0.0.0 Safari/537.36 Edg/138.0.0.0',
    {},
    'Edge',
    'Windows',
  ],
  ['Firefox on Windows', 'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:140.0) Gecko/20100101 Firefox/140.0', {}, 'Firefox', 'Windows'],
  ['Firefox on Linux', 'Mozilla/5.0 (X11; Linux x86_64; rv:140.0) Gecko/20100101 Firefox/140.0', {}, 'Firefox', 'Linux'],
  ['Firefox on Ubuntu', 'Mozilla/5.0 (X11; Ubuntu; Linux x86_64; rv:140.0) Gecko/20100101 Firefox/140.0', {}, 'Firefox', 'Ubuntu'],
  ['Firefox on macOS', 'Mozilla/5.0 (Macintosh; Intel Mac OS X 10.15; rv:140.0) Gecko/20100101 Firefox/140.0', {}, 'Firefox', 'macOS'],
  [
    'Safari on macOS',
    'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.5 Safari/605.1.15',
    {},
    'Safari',
    'macOS',
  ],
  [
    'Safari on an iPhone',
    'Mozilla/5.0 (iPhone; CPU iPhone OS 18_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.5 Mobile/15E148 Safari/604.1',
    {},
    'Mobile Safari',
    'iOS',
  ],
  [
    'Safari on an iPad',
    'Mozilla/5.0 (iPad; CPU OS 18_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.5 Mobile/15E148 Safari/604.1',
    {},
    'Mobile Safari',
    'iOS',
  ],
  [
    'Chrome on an iPhone',
    'Mozilla/5.0 (iPhone; CPU iPhone OS 18_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) CriOS/138.0.7204.119 Mobile/15E148 Safari/604.1',
    {},
    'Mobile Chrome',
    'iOS',
  ],
  [
    'Chrome on Android',
    'Mozilla/5.0 (Linux; Android 10; K) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/138.0.0.0 Mobile Safari/537.36',
    {},
    'Mobile Chrome',
    'Android',
  ],
  [
    'Chrome on an Android tablet',
    'Mozilla/5.0 (Linux; Android 13; SM-T870) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/138.0.0.0 Safari/537.36',
    {},
    'Chrome',
    'Android',
  ],
  ['Firefox on Android', 'Mozilla/5.0 (Android 14; Mobile; rv:140.0) Gecko/140.0 Firefox/140.0', {}, 'Mobile Firefox', 'Android'],
  [
    'Firefox on an iPhone',
    'Mozilla/5.0 (iPhone; CPU iPhone OS 18_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) FxiOS/140.0 Mobile/15E148 Safari/605.1.15',
    {},
    'Mobile Firefox',
    'iOS',
  ],
  [
    'Samsung Internet',
    'Mozilla/5.0 (Linux; Android 14; SAMSUNG SM-S918B) AppleWebKit/537.36 (KHTML, like Gecko) SamsungBrowser/28.0 Chrome/130.0.0.0 Mobile Safari/537.36',
    {},
    'Samsung Internet',
    'Android',
  ],
  [
    'Opera on Windows',
    'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/138.0.0.0 Safari/537.36 OPR/120.0.0.0',
    {},
    'Opera',
    'Windows',
  ],
  [
    'Chromium on Linux',
    'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chromium/138.0.0.0 Chrome/138.0.0.0 Safari/537.36',
    {},
    'Chromium',
    'Linux',
  ],
  [
    'ChromeOS',
    'Mozilla/5.0 (X11; CrOS x86_64 14541.0.0) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/138.0.0.0 Safari/537.36',
    {},
    'Chrome',
    'Chrome OS',
  ],
  [
    'a Chromecast receiver',
    'Mozilla/5.0 (X11; Linux armv7l) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/114.0.0.0 Safari/537.36 CrKey/1.56.500000',
    {},
    'Chrome',
    'Chromecast Linux',
  ],
  // The 3.x apps name only themselves; their login form's request adds the device's headers.
  ['the Android app, signing in', 'immich-android/3.1.0', { deviceModel: 'Pixel 8', deviceType: 'Android' }, 'Pixel 8', 'android'],
  ['the Android app, later', 'immich-android/3.1.0', {}, '', 'android'],
  ['the iOS app, signing in', 'immich-ios/3.1.0', { deviceModel: 'iPhone16,2', deviceType: 'iOS' }, 'iPhone16,2', 'iOS'],
  ['the iOS app, later', 'immich-ios/3.1.0', {}, '', ''],
  ['the Android app before 2.x', 'Immich_Android_1.132.3', {}, '', 'Android'],
  ['an Android widget before the app ran', 'Dalvik/2.1.0 (Linux; U; Android 14; Pixel 8 Build/AP2A.240805.005)', {}, 'mobile', 'Android'],
  ['an iOS widget', 'ImmichWidget/1 CFNetwork/1568.100.1 Darwin/24.0.0', {}, '', 'iOS'],
  ['the CLI (Node’s fetch)', 'node', {}, '', ''],
  ['curl', 'curl/8.5.0', {}, '', ''],
  ['no User-Agent', '', {}, '', ''],
];

describe('a session’s device, named as Immich names it', () => {
  it.each(cases)('%s', async (_who, userAgent, headers, deviceType, deviceOS) => {
    const name = await deviceNamer();
    expect(name({ userAgent, deviceModel: headers.deviceModel ?? '', deviceType: headers.deviceType ?? '' })).toEqual({
      deviceType,
      deviceOS,
    });
  });

  it('reads the apps’ version from their User-Agent, the older form too, and none from anything else', () => {
    expect(appVersionOf('immich-android/3.1.0')).toBe('3.1.0');
    expect(appVersionOf('immich-ios/3.2.0')).toBe('3.2.0');
    expect(appVersionOf('Immich_iOS_1.132.3')).toBe('1.132.3');
    expect(appVersionOf('Mozilla/5.0 (X11; Linux x86_64) immich-android/3.1.0')).toBeNull();
    expect(appVersionOf('node')).toBeNull();
  });
});
