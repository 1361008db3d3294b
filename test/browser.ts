import fs from "node:fs";
import { type Browser, chromium } from "playwright-core";

// Debian's Chromium driven by playwright-core; nothing is downloaded. Suites that need it skip,
// saying why, where it is not installed.

export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
export const chromiumMissing = !fs.existsSync(CHROMIUM_PATH);
if (chromiumMissing) console.warn(`[browser] skipped: ${CHROMIUM_PATH} not found (apt-get install chromium)`);

export function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM_PATH,
    args: [
      "--headless",
      "--no-sandbox",
      "--disable-gpu",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
      "--no-first-run",
    ],
  });
}
