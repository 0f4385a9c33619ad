import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium, type BrowserContext, type BrowserContextOptions } from 'playwright-core';

/** Debian's chromium; never a downloaded browser. */
export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
export const browserSkip: string | false = process.env.CHROMIUM_CDP_URL || fs.existsSync(CHROMIUM) ? false : `Chromium not found at ${CHROMIUM}; install Debian's chromium or set CHROMIUM_PATH`;
export const CHROMIUM_ARGS = ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run'];

/**
 * A fresh browser context. With CHROMIUM_CDP_URL (set by .ci/run, which starts one Chromium for the
 * whole run) it is a new context in that shared browser, isolated like a separate profile; otherwise
 * this file launches its own headless Chromium. Closing the context ends either.
 */
export async function openBrowser(opts: Pick<BrowserContextOptions, 'viewport' | 'permissions'> = {}): Promise<BrowserContext> {
  const shared = process.env.CHROMIUM_CDP_URL;
  if (shared) {
    const browser = await chromium.connectOverCDP(shared);
    const ctx = await browser.newContext({ viewport: { width: 1280, height: 720 }, ...opts });
    // Disconnects from the shared browser (which keeps running) so the test process can exit.
    ctx.on('close', () => void browser.close());
    return ctx;
  }
  const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'sw-chromium-'));
  return chromium.launchPersistentContext(profile, { executablePath: CHROMIUM, headless: true, args: CHROMIUM_ARGS, ...opts });
}
