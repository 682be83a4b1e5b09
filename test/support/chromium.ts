import { existsSync } from 'node:fs';
import { type Browser, chromium } from 'playwright-core';

/** Debian's Chromium (`apt-get install chromium`; .ci/run installs it), or CHROMIUM_PATH. */
export const chromiumPath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/**
 * Headless Chromium through playwright-core (browser downloads are not possible here), with the
 * flags a sandboxed, offline machine needs: no background connections, no GPU, as root.
 */
export const launchChromium = (): Promise<Browser> => {
  if (!existsSync(chromiumPath))
    throw new Error(`No Chromium at ${chromiumPath}: install Debian's (apt-get install chromium) or set CHROMIUM_PATH`);
  return chromium.launch({
    executablePath: chromiumPath,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
};
