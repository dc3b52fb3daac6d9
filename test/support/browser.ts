import { existsSync } from 'node:fs';
import { chromium } from 'playwright-core';
import type { Browser } from 'playwright-core';

/** Debian's Chromium, the one `.ci/run` installs. */
export const CHROMIUM = '/usr/bin/chromium';

/** Fails at once, naming the package, when Debian's Chromium is not installed. */
export const requireChromium = (): void => {
  if (!existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} is missing: apt-get install -y chromium (.ci/run does)`);
};

/**
 * Headless Debian Chromium as the browser tests drive it: no sandbox (root in CI), and none of its
 * background connections, which this machine's closed network refuses.
 */
export const launchChromium = (): Promise<Browser> =>
  chromium.launch({
    executablePath: CHROMIUM,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
  });
