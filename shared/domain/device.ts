/**
 * A session's device as Immich names it from a request (its `getUserAgentDetails`:
 * docs/immich-compatibility.md, "Sessions and their devices"): the browser, else the kind of device,
 * else the mobile app's `deviceModel` header, as its type; the system, else the app's `deviceType`
 * header, as its OS. Immich reads the User-Agent with ua-parser-js 2.x (AGPL); this reads it with
 * ua-parser-js 1.x (MIT) and gives the few names 2.x changed their 2.x spelling, so a session reads
 * as it would in Immich ("Chrome" on "Linux", "Mobile Safari" on "iOS", "Mobile Chrome" on "Android").
 */
import type { SessionAgent, SessionRecord } from '../model/session.ts';

export interface DeviceNames {
  deviceType: string;
  deviceOS: string;
}

interface Parsed {
  browser: { name?: string | undefined };
  os: { name?: string | undefined };
  device: { type?: string | undefined };
}
type Parse = (userAgent: string) => Parsed;

// 2.x says "Mobile Chrome" for Chrome on a phone's or tablet's page that says Mobile, and on iOS;
// "Mobile Firefox" for Firefox on Android phones and tablets, and on iOS.
const mobileChrome = /\b(?:crios|crmo)\/|\bchrome\/[\w.]+ mobile\b/i;
const mobileFirefox = /\bfxios\/|\b(?:mobile|tablet);.*\bfirefox\//i;

const browserOf = (name: string | undefined, userAgent: string): string | undefined => {
  if (name === 'Chrome' && mobileChrome.test(userAgent)) return 'Mobile Chrome';
  if (name === 'Firefox' && mobileFirefox.test(userAgent)) return 'Mobile Firefox';
  return name;
};

// 2.x names a Chromecast's system by what it runs on; 1.x says "Chromecast" (or "Android").
const chromecastOf = (userAgent: string): string | undefined => {
  if (!/\bcrkey\//i.test(userAgent)) return undefined;
  if (/\bandroid [\d.]+.*\bcrkey\//i.test(userAgent)) return 'Chromecast Android';
  if (/\bfuchsia\b.*\bcrkey\//i.test(userAgent)) return 'Chromecast Fuchsia';
  if (/\bcrkey\/[\d.]+.*\bdevicetype\/smartspeaker/i.test(userAgent)) return 'Chromecast SmartSpeaker';
  if (/\blinux\b.*\bcrkey\//i.test(userAgent)) return 'Chromecast Linux';
  return 'Chromecast';
};

const systemNames: Record<string, string> = { 'Mac OS': 'macOS', 'Chromium OS': 'Chrome OS' };

const osOf = (name: string | undefined, userAgent: string): string | undefined =>
  chromecastOf(userAgent) ?? (name ? (systemNames[name] ?? name) : name);

/** The names Immich gives the device of a request with these headers. */
const nameDevice = (parse: Parse, agent: SessionAgent): DeviceNames => {
  const parsed = parse(agent.userAgent);
  return {
    deviceType: browserOf(parsed.browser.name, agent.userAgent) || parsed.device.type || agent.deviceModel || '',
    deviceOS: osOf(parsed.os.name, agent.userAgent) || agent.deviceType || '',
  };
};

/**
 * Names devices with the parser loaded on first use: only the functions that list sessions carry
 * it (20 KB of patterns, about 2 ms to evaluate: docs/benchmarks.md), and it is evaluated when a
 * list is first asked for, not at their cold start.
 */
export const deviceNamer = async (): Promise<(agent: SessionAgent) => DeviceNames> => {
  const { UAParser } = await import('ua-parser-js');
  return (agent) => nameDevice(UAParser, agent);
};

/** A session with its device's names: from its agent when it has one, else as it was named. */
export const named = <S extends Pick<SessionRecord, 'deviceType' | 'deviceOS' | 'agent'>>(
  session: S,
  name: (agent: SessionAgent) => DeviceNames,
): S => (session.agent ? { ...session, ...name(session.agent) } : session);
