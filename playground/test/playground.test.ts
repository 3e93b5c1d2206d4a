import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import type { Server } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { deflateRawSync } from "node:zlib";
import type { BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { validateCreateRunCommand } from "@flowspec/agent-service";
import { parseSourceDocument } from "@flowspec/runtime";
import { FlowBuilder } from "@flowspec/stepflow";
import { repoRoot } from "../../test/support.js";
import { launchChromium } from "../browser.js";
import { buildPlayground, CONTENT_SECURITY_POLICY, EXAMPLES, type PlaygroundBuild } from "../build.js";
import { serveStatic } from "../serve.js";

// The built page in Debian's Chromium: one build, one server and one browser for the whole file.
// Every page records the CSP violations, page errors and console errors it meets; each test ends
// by asserting there were none.
vi.setConfig({ testTimeout: 120_000 });

let built: PlaygroundBuild;
let server: Server;
let url: string;
let browser: { context: BrowserContext; close(): Promise<void> };
const work = mkdtempSync(join(tmpdir(), "flowspec-playground-"));

beforeAll(async () => {
  built = await buildPlayground(join(work, "site"));
  ({ server, url } = await serveStatic(built.outdir));
  browser = await launchChromium();
  await browser.context.addInitScript(() => {
    const seen: unknown[] = ((window as unknown as { __violations: unknown[] }).__violations = []);
    document.addEventListener("securitypolicyviolation", (e) => seen.push({ directive: e.violatedDirective, blocked: e.blockedURI, sample: e.sample }));
  });
}, 180_000);

afterAll(async () => {
  await browser?.close();
  server?.close();
  rmSync(work, { recursive: true, force: true });
});

const problems = new WeakMap<Page, string[]>();

/** A new tab on `address` (the playground by default), its document checked once. */
async function open(address = url): Promise<Page> {
  const page = await browser.context.newPage();
  const seen: string[] = [];
  problems.set(page, seen);
  page.on("pageerror", (error) => seen.push(`page error: ${error.message}`));
  page.on("console", (message) => message.type() === "error" && seen.push(`console error: ${message.text()}`));
  await page.goto(address);
  await page.waitForFunction(() => document.body.dataset.checked !== undefined);
  return page;
}

/** Asserts that the page met no CSP violation, page error or console error, then closes it. */
async function done(page: Page): Promise<void> {
  expect(await page.evaluate(() => (window as unknown as { __violations: unknown[] }).__violations)).toEqual([]);
  expect(problems.get(page)).toEqual([]);
  await page.close();
}

/** Does `action`, then waits for the page to have checked the text again. */
async function after(page: Page, action: () => Promise<unknown>): Promise<void> {
  const before = await page.evaluate(() => document.body.dataset.checked);
  await action();
  await page.waitForFunction((previous) => document.body.dataset.checked !== previous, before);
}

const edit = (page: Page, text: string) => after(page, () => page.fill("#text", text));
const choose = (page: Page, menu: string, value: string) => after(page, () => page.selectOption(menu, value));
const diagnostics = (page: Page) => page.$$eval("#diagnostics li", (items) => items.map((item) => item.textContent!.trim()));
const nodes = async (page: Page) => (await page.$$eval("#picture svg g.node", (groups) => groups.map((g) => g.getAttribute("data-id")!))).sort();
const example = (file: string) => readFileSync(join(repoRoot, "examples/documents", file), "utf8");

/** The 1-based line and column where `token` starts in `text`. */
function position(text: string, token: string): string {
  const before = text.slice(0, text.indexOf(token)).split("\n");
  return `${before.length}:${before.at(-1)!.length + 1}`;
}

describe("the built page", () => {
  it("sets a strict Content-Security-Policy by a meta tag, and has no inline script or style", () => {
    const html = readFileSync(join(built.outdir, "index.html"), "utf8");
    expect(html).toContain(`<meta http-equiv="Content-Security-Policy" content="${CONTENT_SECURITY_POLICY}" />`);
    expect(CONTENT_SECURITY_POLICY).toMatch(/^default-src 'self';/);
    expect(CONTENT_SECURITY_POLICY).not.toMatch(/unsafe-eval|unsafe-inline|wasm-unsafe-eval|\*/);
    expect(html).not.toMatch(/<script(?![^>]*\bsrc=)|<style|\bstyle=|\bon\w+=/);
  });

  it("loads at most 300 KB of JavaScript (gzip) before it works", () => {
    console.log(`playground initial JavaScript: ${(built.initialJsGzipBytes / 1024).toFixed(1)} KiB gzip`);
    expect(built.initialJsGzipBytes, `${built.initialJsGzipBytes} bytes gzip`).toBeLessThanOrEqual(300 * 1024);
  });
});

describe("the examples, broken and fixed", () => {
  const cases = [
    {
      file: "summarise.flow.yaml",
      kind: "stepflow:Flow (strict, detected)",
      nodes: ["input", "output", "step:count", "step:prompt", "step:store"],
      broken: (text: string) => text.replace("{ step: prompt }, path: $.messages }", "{ step: promt }, path: $.messages }"),
      token: "promt",
      rule: "error undefined-step",
    },
    {
      file: "notes.agents.json",
      kind: "agents-json:AgentsJson (strict, detected)",
      nodes: ["flow0:action:create", "flow0:action:read", "flow0:input", "flow0:output"],
      broken: (text: string) => text.replace('"target": { "actionId": "read", "fieldPath": "parameters.id" }', '"target": { "actionId": "reed", "fieldPath": "parameters.id" }'),
      token: '"reed"',
      rule: "error link-action-defined",
    },
    {
      file: "weather-report.tree.json",
      kind: "apflow:TaskTreeNode (strict, detected)",
      nodes: ["task:3f2b8c1e-5a7d-4e9f-8b6c-1d2e3f4a5b6c", "task:9c8b7a6d-5e4f-4a3b-9c2d-1e0f9a8b7c6d", "task:a1b2c3d4-e5f6-4a7b-8c9d-0e1f2a3b4c5d", "task:b2c3d4e5-f6a7-4b8c-9d0e-1f2a3b4c5d6e"],
      broken: (text: string) => text.replace('"status": "pending",\n        "priority": 0', '"status": "paused",\n        "priority": 0'),
      token: '"paused"',
      rule: "error schema",
    },
    {
      file: "support-question.run.json",
      kind: "agent-service:CreateRunCommand (strict, detected)",
      nodes: [],
      broken: (text: string) => text.replace('"mode": "agent"', '"mode": "tool"'),
      token: '"tool"',
      rule: "error schema",
    },
  ];

  it.each(cases)("$file: loads from the menu, shows the mistake at its line, goes there on a click, and clears when fixed", async ({ file, kind, nodes: expected, broken, token, rule }) => {
    const page = await open();
    await choose(page, "#example", String(EXAMPLES.findIndex((e) => e.file === file)));
    const text = example(file);
    expect(await page.inputValue("#text")).toBe(text);
    expect(await page.textContent("#status")).toBe(`${kind}: 0 error(s), 0 warning(s)`);
    expect(await diagnostics(page)).toEqual([]);
    expect(await nodes(page)).toEqual(expected);

    const wrong = broken(text);
    expect(wrong).not.toBe(text);
    await edit(page, wrong);
    const at = position(wrong, token);
    const shown = await diagnostics(page);
    const found = shown.findIndex((d) => d.startsWith(`${at} ${rule} `));
    expect(found, shown.join("\n")).toBeGreaterThanOrEqual(0);
    expect(await page.textContent("#status")).toMatch(/: [1-9]\d* error\(s\)/);
    const [line, column] = at.split(":").map(Number) as [number, number];
    expect(await page.textContent(`#gutter div:nth-child(${line})`)).toBe(String(line));
    expect(await page.getAttribute(`#gutter div:nth-child(${line})`, "class")).toBe("error");

    await page.click(`#diagnostics li:nth-child(${found + 1}) button`);
    const caret = await page.evaluate(() => (document.activeElement as HTMLTextAreaElement).selectionStart);
    expect(caret).toBe(wrong.split("\n").slice(0, line - 1).join("\n").length + (line > 1 ? 1 : 0) + column - 1);

    await edit(page, text);
    expect(await diagnostics(page)).toEqual([]);
    expect(await nodes(page)).toEqual(expected);
    await done(page);
  });

  it("draws a reference to a step that does not exist as a missing node, and a click on a node goes to it in the text", async () => {
    const page = await open();
    const text = example("summarise.flow.yaml");
    await edit(page, text.replace("{ step: prompt }, path: $.messages }", "{ step: promt }, path: $.messages }"));
    expect(await page.getAttribute('#picture g.node[data-id="step:promt"]', "data-tone")).toBe("missing");
    await page.click('#picture g.node[data-id="step:store"]');
    expect(await page.evaluate(() => (document.activeElement as HTMLTextAreaElement).selectionStart)).toBe(text.indexOf("- id: store") + 2);
    await done(page);
  });
});

describe("conversions", () => {
  it("turns the flow into a FlowBuilder program that, run in Node with tsx, builds the same flow", async () => {
    const page = await open();
    await choose(page, "#example", "0");
    expect(await page.inputValue("#conversion")).toBe("builder");
    const code = (await page.textContent("#output"))!;
    expect(code).toContain("export default flow.build();");
    const dir = mkdtempSync(join(work, "program-"));
    writeFileSync(join(dir, "package.json"), JSON.stringify({ type: "module" }));
    writeFileSync(join(dir, "flow.ts"), code);
    writeFileSync(join(dir, "print.mjs"), 'console.log(JSON.stringify((await import("./flow.ts")).default));\n');
    const run = spawnSync(process.execPath, ["--import", "tsx", join(dir, "print.mjs")], { cwd: repoRoot, encoding: "utf8", env: { ...process.env, TSX_TSCONFIG_PATH: join(repoRoot, "tsconfig.json") } });
    expect(run.status, run.stderr).toBe(0);
    const original = parseSourceDocument(await page.inputValue("#text"), { format: "yaml" }).value;
    expect(JSON.parse(run.stdout)).toEqual(JSON.parse(JSON.stringify(FlowBuilder.load(original).build())));
    await done(page);
  });

  it("says why a flow cannot be converted", async () => {
    const page = await open();
    await edit(page, `${example("summarise.flow.yaml")}owner: me\n`);
    expect(await page.textContent("#output")).toContain('/owner: key "owner": the fluent API has no place for keys the runtime ignores');
    await done(page);
  });

  it("exports agents.json flows as LLM tools in each format", async () => {
    const page = await open();
    await choose(page, "#example", "1");
    const formats = await page.$$eval("#conversion option", (options) => options.map((o) => (o as HTMLOptionElement).value));
    expect(formats).toEqual(["tools-openai-chat", "tools-openai-responses", "tools-anthropic", "tools-json"]);
    const shapes: Record<string, (tool: Record<string, any>) => unknown> = {
      "tools-openai-chat": (t) => t.function.parameters.type,
      "tools-openai-responses": (t) => t.parameters.type,
      "tools-anthropic": (t) => t.input_schema.type,
      "tools-json": (t) => t.function.parameters.parameters[0].name,
    };
    const expected: Record<string, unknown> = { "tools-openai-chat": "object", "tools-openai-responses": "object", "tools-anthropic": "object", "tools-json": "format" };
    for (const format of formats) {
      await page.selectOption("#conversion", format);
      const tools = JSON.parse((await page.textContent("#output"))!) as Record<string, any>[];
      expect(tools).toHaveLength(1);
      expect(shapes[format]!(tools[0]!), format).toBe(expected[format]);
    }
    await done(page);
  });

  it("upgrades an older create-run body, which then checks clean as the document", async () => {
    const page = await open();
    await choose(page, "#example", "4");
    expect((await diagnostics(page)).length).toBeGreaterThan(0);
    expect(await page.inputValue("#conversion")).toBe("upgrade");
    const upgraded = JSON.parse((await page.textContent("#output"))!);
    expect(validateCreateRunCommand(upgraded).ok).toBe(true);
    await after(page, () => page.click("#use-output"));
    expect(JSON.parse(await page.inputValue("#text"))).toEqual(upgraded);
    expect(await diagnostics(page)).toEqual([]);
    await done(page);
  });
});

describe("shared links", () => {
  it("carries the document, the chosen kind and variant in the fragment, and opens them in a new tab", async () => {
    const page = await open();
    await choose(page, "#example", "2");
    const text = example("weather-report.tree.json").replace('"name": "report"', '"name": "weekly report"');
    await edit(page, text);
    await choose(page, "#kind", "apflow:TaskTreeNode");
    await choose(page, "#variant", "wire");
    await page.click("#share");
    const link = await page.inputValue("#share-url");
    expect(link).toMatch(new RegExp(`^${url}#doc=[A-Za-z0-9_-]+&kind=apflow%3ATaskTreeNode&variant=wire$`));
    await done(page);

    const shared = await open(link);
    expect(await shared.inputValue("#text")).toBe(text);
    expect(await shared.inputValue("#kind")).toBe("apflow:TaskTreeNode");
    expect(await shared.textContent("#status")).toBe("apflow:TaskTreeNode (wire): 0 error(s), 0 warning(s)");
    expect(await shared.textContent("#picture")).toContain("weekly report");
    await done(shared);
  });

  it.each([
    ["not base64url", "#doc=%%%", "the link's document is not base64url"],
    ["not deflated", "#doc=aGVsbG8", "the link's document does not inflate"],
    ["a document that inflates past 4 MiB", `#doc=${deflateRawSync(Buffer.alloc(5 * 1024 * 1024, 0x20)).toString("base64url")}`, "the link's document is over 4194304 bytes"],
  ])("refuses a link with %s, saying so", async (_name, fragment, message) => {
    const page = await open(url + fragment);
    expect(await page.textContent("#status")).toContain(`Cannot open the shared link: ${message}`);
    expect(await page.inputValue("#text")).toBe("");
    await done(page);
  });
});

describe("offline and strict", () => {
  it("makes no request once loaded: every example, conversion and link works offline", async () => {
    const page = await open();
    await page.waitForLoadState("networkidle");
    const requests: string[] = [];
    page.on("request", (request) => requests.push(request.url()));
    await browser.context.setOffline(true);
    try {
      for (let i = 0; i < EXAMPLES.length; i++) {
        await choose(page, "#example", String(i));
        for (const option of await page.$$eval("#conversion option", (options) => options.map((o) => (o as HTMLOptionElement).value))) await page.selectOption("#conversion", option);
      }
      await page.click("#share");
      await page.click("#diagnostics li:first-child button");
      expect(await page.textContent("#output")).not.toBe("");
    } finally {
      await browser.context.setOffline(false);
    }
    expect(requests).toEqual([]);
    await done(page);
  });

  it("would see a CSP violation: an inline script added to the page is blocked and reported", async () => {
    const page = await open();
    await page.evaluate(() => document.body.append(Object.assign(document.createElement("script"), { textContent: "window.ran = true" })));
    await page.waitForFunction(() => (window as unknown as { __violations: unknown[] }).__violations.length > 0);
    expect(await page.evaluate(() => (window as unknown as { ran?: boolean }).ran)).toBeUndefined();
    expect(await page.evaluate(() => (window as unknown as { __violations: { directive: string }[] }).__violations.map((v) => v.directive))).toEqual(["script-src-elem"]);
    await page.close();
  });
});
