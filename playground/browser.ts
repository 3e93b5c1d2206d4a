/**
 * Debian's Chromium, driven by playwright-core (which downloads no browser). `.ci/run` installs the
 * `chromium` package when /usr/bin/chromium is missing. The flags keep a headless Chromium quiet on
 * a closed network: no background requests, updates, sync or QUIC; a fresh profile each time.
 */
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { chromium, type BrowserContext } from "playwright-core";

export const CHROMIUM = "/usr/bin/chromium";
const FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"];

export async function launchChromium(): Promise<{ context: BrowserContext; close(): Promise<void> }> {
  if (!existsSync(CHROMIUM)) throw new Error(`Debian's Chromium is not at ${CHROMIUM}: install it with apt-get install -y chromium (.ci/run does)`);
  const profile = mkdtempSync(join(tmpdir(), "flowspec-chromium-"));
  // A persistent context is how playwright takes a --user-data-dir of our choosing.
  const context = await chromium.launchPersistentContext(profile, { executablePath: CHROMIUM, headless: true, args: FLAGS, viewport: { width: 1400, height: 900 } });
  return {
    context,
    async close() {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}
