/**
 * `npm run playground:screenshots`: builds the page, opens one example of each spec in Debian's
 * Chromium and writes a PNG of the view to playground/docs/, as the README shows them.
 */
import { mkdirSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { launchChromium } from "./browser.js";
import { buildPlayground, EXAMPLES } from "./build.js";
import { serveStatic } from "./serve.js";

const docs = join(dirname(fileURLToPath(import.meta.url)), "docs");
const SHOTS = [
  { png: "stepflow.png", file: "summarise.flow.yaml" },
  { png: "agents-json.png", file: "notes.agents.json" },
  { png: "apflow.png", file: "weather-report.tree.json" },
  // The older body: its schema errors, and the conversion that upgrades it.
  { png: "agent-service.png", file: "older-generation.run.json" },
];

const { outdir } = await buildPlayground();
const { url, server } = await serveStatic(outdir);
const { context, close } = await launchChromium();
try {
  mkdirSync(docs, { recursive: true });
  for (const { png, file } of SHOTS) {
    const page = await context.newPage();
    await page.goto(url);
    await page.waitForFunction(() => document.body.dataset.checked !== undefined);
    const before = await page.evaluate(() => document.body.dataset.checked);
    await page.selectOption("#example", String(EXAMPLES.findIndex((e) => e.file === file)));
    await page.waitForFunction((previous) => document.body.dataset.checked !== previous, before);
    await page.screenshot({ path: join(docs, png) });
    await page.close();
    console.log(`wrote playground/docs/${png}`);
  }
} finally {
  await close();
  server.close();
}
