import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli } from "@flowspec/cli";
import { corpusDir } from "../../../test/support.js";

const corpus = corpusDir("agents-json");

async function cli(...argv: string[]) {
  let stdout = "";
  let stderr = "";
  const io = { stdout: { write: (t: string) => (stdout += t) }, stderr: { write: (t: string) => (stderr += t) }, cwd: corpus, env: {} };
  const code = await runCli(argv, io);
  return { code, stdout, stderr };
}

let server: Server;
let url = "";
const seen: string[] = [];
beforeAll(async () => {
  server = createServer((req, res) => {
    seen.push(`${req.method} ${req.url} ${req.headers.authorization ?? ""}`);
    if (req.url?.startsWith("/v1/gifs/search")) {
      res.writeHead(200, { "content-type": "application/json" });
      res.end(JSON.stringify({ data: [{ id: "g1" }] }));
    } else {
      res.writeHead(404, { "content-type": "application/json" });
      res.end(JSON.stringify({ message: "not here" }));
    }
  });
  await new Promise<void>((done) => server.listen(0, "127.0.0.1", done));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((done) => server.close(() => done())));

describe("flowspec agents-json lint", () => {
  it("prints findings with file:line:column and exits 0 without errors", async () => {
    const { code, stdout } = await cli("agents-json", "lint", "agents_json__slack__agents.json");
    expect(code).toBe(0);
    expect(stdout).toMatch(/^agents_json__slack__agents\.json:\d+:\d+ warning id-snake-case: flow id "chat_postMessage" is not snake_case \(\/flows\/\d+\/id\)$/m);
    expect(stdout).toMatch(/ok agents_json__slack__agents\.json: 0 error\(s\), 4 warning\(s\), 0 info/);
  });

  it("exits 1 on error findings and prints JSON with --format json", async () => {
    const { code, stdout } = await cli("agents-json", "lint", "agents_json__stripe__agents.json", "--format", "json");
    expect(code).toBe(1);
    const report = JSON.parse(stdout) as { ok: boolean; findings: { code: string; line: number }[] };
    expect(report.ok).toBe(false);
    expect(report.findings.some((f) => f.code === "action-id-shadows-flow" && f.line > 0)).toBe(true);
  });

  it("runs the src rules with --openapi and uses strict severities with --mode strict", async () => {
    const { code, stdout } = await cli("agents-json", "lint", "agents_json__resend__agents.json", "--openapi", "resend=agents_json__resend__openapi.yaml");
    expect(code).toBe(1);
    expect(stdout).toMatch(/error action-body-declared/);
    const strict = await cli("agents-json", "lint", "agents_json__giphy__agents.json", "--mode", "strict");
    expect(strict.code).toBe(1);
    expect(strict.stdout).toMatch(/error additional-properties-key/);
  });

  it("exits 2 for unreadable files, other formats and bad options", async () => {
    expect((await cli("agents-json", "lint", "missing.json")).stderr).toMatch(/missing\.json: cannot read: ENOENT/);
    expect((await cli("agents-json", "lint", "missing.json")).code).toBe(2);
    const other = await cli("agents-json", "lint", "_provenance.json");
    expect(other.code).toBe(2);
    expect(other.stderr).toMatch(/NotAgentsJsonError: _provenance\.json is not an agents\.json document/);
    expect((await cli("agents-json", "lint", "agents_json__slack__agents.json", "--mode", "lenient")).code).toBe(2);
    expect((await cli("agents-json", "lint", "agents_json__slack__agents.json", "--openapi", "nofile")).code).toBe(2);
  });
});

describe("flowspec agents-json --openapi", () => {
  // The file is named on the command line: unreadable is a usage error (exit 2), as for FILE,
  // not a lint finding or a failed flow (exit 1); a mistyped source id is not silently ignored.
  it.each([
    { name: "lint, an unreadable file", argv: ["lint", "agents_json__giphy__agents.json", "--openapi", "giphy=nope.yaml"], message: '--openapi "giphy=nope.yaml": cannot read: ENOENT' },
    { name: "run, an unreadable file", argv: ["run", "agents_json__giphy__agents.json", "search_gifs_flow", "--input", "{}", "--openapi", "giphy=nope.yaml"], message: '--openapi "giphy=nope.yaml": cannot read: ENOENT' },
    { name: "lint, a folder", argv: ["lint", "agents_json__giphy__agents.json", "--openapi", "giphy=."], message: '--openapi "giphy=.": cannot read: EISDIR' },
    { name: "lint, an unknown source id", argv: ["lint", "agents_json__giphy__agents.json", "--openapi", "gipy=agents_json__giphy__openapi.yaml"], message: '--openapi: no source "gipy" in agents_json__giphy__agents.json (sources: giphy)' },
  ])("exits 2 for $name", async ({ argv, message }) => {
    const { code, stdout, stderr } = await cli("agents-json", ...argv);
    expect({ code, stdout, stderr }).toEqual({ code: 2, stdout: "", stderr: `flowspec: ${message}\n` });
  });
});

describe("flowspec agents-json run", () => {
  it("runs a flow against --server with --param and prints the result", async () => {
    const { code, stdout } = await cli(
      "agents-json", "run", "agents_json__giphy__agents.json", "search_gifs_flow",
      "--input", '{"parameters":{"q":"cats"}}',
      "--openapi", "giphy=agents_json__giphy__openapi.yaml",
      "--server", `giphy=${url}/v1`,
      "--param", "giphy.api_key=KEY",
    );
    expect(code).toBe(0);
    expect(JSON.parse(stdout)).toEqual({ success: { data: [{ id: "g1" }] } });
    expect(seen.at(-1)).toBe("GET /v1/gifs/search?q=cats&api_key=KEY ");
  });

  it("prints the redacted trace to stderr with --trace", async () => {
    const { code, stderr } = await cli(
      "agents-json", "run", "agents_json__giphy__agents.json", "search_gifs_flow",
      "--input", '{"parameters":{"q":"cats"}}',
      "--openapi", "giphy=agents_json__giphy__openapi.yaml",
      "--server", `giphy=${url}/v1`,
      "--param", "giphy.api_key=SECRETKEY",
      "--trace",
    );
    expect(code).toBe(0);
    const trace = JSON.parse(stderr) as { actionId: string; request: { url: string } }[];
    expect(trace.map((s) => s.actionId)).toEqual(["search_gifs"]);
    expect(trace[0]!.request.url).toBe(`${url}/v1/gifs/search?q=cats&api_key=***`);
    expect(stderr).not.toContain("SECRETKEY");
  });

  it("sends --auth bearer credentials and exits 1 on an HTTP error", async () => {
    const { code, stderr } = await cli(
      "agents-json", "run", "agents_json__resend__agents.json", "resend_post_audiences_contacts_by_audience_id_flow",
      "--input", '{"parameters":{"audience_id":"a1"},"requestBody":{"email":"ada@example.com"}}',
      "--openapi", "resend=agents_json__resend__openapi.yaml",
      "--server", `resend=${url}`,
      "--auth", "resend=bearer:re_123",
    );
    expect(code).toBe(1);
    expect(stderr).toMatch(/HttpError: action "add_contact_action" \(operation "resend_post_audiences_contacts_by_audience_id", POST .*\/audiences\/a1\/contacts\) failed with HTTP 404/);
    expect(seen.at(-1)).toBe("POST /audiences/a1/contacts Bearer re_123");
  });

  it("exits 2 on usage errors", async () => {
    expect((await cli("agents-json", "run", "agents_json__giphy__agents.json", "search_gifs_flow", "--input", "{oops")).code).toBe(2);
    expect((await cli("agents-json", "run", "agents_json__giphy__agents.json", "search_gifs_flow", "--input", "{}", "--auth", "giphy=token")).code).toBe(2);
    expect((await cli("agents-json", "run", "agents_json__giphy__agents.json", "search_gifs_flow")).code).toBe(2);
  });

  it("never echoes a secret when --auth or --param is malformed", async () => {
    const auth = await cli("agents-json", "run", "agents_json__giphy__agents.json", "search_gifs_flow", "--input", "{}", "--auth", "bearer:sk_live_SECRET");
    expect(auth.code).toBe(2);
    expect(auth.stderr).toMatch(/--auth .*must be SOURCE_ID=bearer:TOKEN/);
    expect(auth.stderr).not.toContain("SECRET");
    const param = await cli("agents-json", "run", "agents_json__giphy__agents.json", "search_gifs_flow", "--input", "{}", "--param", "giphy.api_key:SECRET");
    expect(param.code).toBe(2);
    expect(param.stderr).toMatch(/--param .*must be SOURCE_ID\.NAME=VALUE/);
    expect(param.stderr).not.toContain("SECRET");
  });

  it("refuses a --server that is not a URL with exit 2, no stack trace", async () => {
    const { code, stderr } = await cli(
      "agents-json", "run", "agents_json__giphy__agents.json", "search_gifs_flow",
      "--input", '{"parameters":{"q":"cats"}}',
      "--openapi", "giphy=agents_json__giphy__openapi.yaml",
      "--server", "giphy=localhost-8080",
      "--param", "giphy.api_key=KEY",
    );
    expect(code).toBe(2);
    expect(stderr).toContain('--server "giphy=localhost-8080": not an absolute URL');
  });

  it("refuses a source id that the document does not have (a typo is not silently ignored)", async () => {
    for (const flag of [["--openapi", "gipy=agents_json__giphy__openapi.yaml"], ["--server", `gipy=${url}`], ["--auth", "gipy=bearer:t"], ["--param", "gipy.api_key=K"]]) {
      const { code, stderr } = await cli("agents-json", "run", "agents_json__giphy__agents.json", "search_gifs_flow", "--input", "{}", ...flag);
      expect(code).toBe(2);
      expect(stderr).toContain(`${flag[0]}: no source "gipy" in agents_json__giphy__agents.json (sources: giphy)`);
    }
  });

  it("names the file in a plan error's locations", async () => {
    const { code, stderr } = await cli("agents-json", "run", "agents_json__giphy__agents.json", "search_gifs_flow", "--input", "{}");
    expect(code).toBe(1);
    expect(stderr).toMatch(/^ {2}agents_json__giphy__agents\.json:\d+:\d+ error operation-resolved/m);
  });

  it("reports an invalid document with file:line:column and exit 2", async () => {
    const dir = mkdtempSync(join(tmpdir(), "aj-cli-"));
    const file = join(dir, "bad.json");
    writeFileSync(file, JSON.stringify({ agentsJson: "0.1.0", info: { title: "t", version: "1", description: "d" }, sources: [], flows: [{ id: "f", title: "t", description: "d", actions: [], links: [{ origin: { actionId: "f", fieldPath: "parameters..x" }, target: { actionId: "f", fieldPath: "responses.success" } }], fields: { parameters: [], responses: { success: {} } } }] }, null, 2));
    const { code, stderr } = await cli("agents-json", "run", file, "f", "--input", "{}");
    expect(code).toBe(2);
    expect(stderr).toMatch(/bad\.json:\d+:\d+ error fieldpath-syntax/);
  });
});

describe("flowspec agents-json tools", () => {
  it.each([
    ["openai", (t: Record<string, unknown>) => (t.function as { name: string }).name],
    ["openai-responses", (t: Record<string, unknown>) => t.name],
    ["anthropic", (t: Record<string, unknown>) => t.name],
    ["json", (t: Record<string, unknown>) => (t.function as { name: string }).name],
  ])("exports one tool per flow as %s", async (format, name) => {
    const { code, stdout } = await cli("agents-json", "tools", "agents_json__linkup__agents.json", "--format", format);
    expect(code).toBe(0);
    const tools = JSON.parse(stdout) as Record<string, unknown>[];
    expect(tools.map(name)).toEqual(["linkup_search_flow"]);
  });

  it("rejects an unknown format", async () => {
    expect((await cli("agents-json", "tools", "agents_json__linkup__agents.json", "--format", "gemini")).code).toBe(2);
  });

  it("--format json carries the flow's fields as written (the Python SDK's format); an empty requestBody {} means none (D3)", async () => {
    const { stdout } = await cli("agents-json", "tools", "agents_json__linkup__agents.json", "--format", "json");
    const raw = JSON.parse(readFileSync(join(corpusDir("agents-json"), "agents_json__linkup__agents.json"), "utf8"));
    const { requestBody, ...fields } = raw.flows[0].fields;
    expect(requestBody).toEqual({});
    expect(JSON.parse(stdout)).toEqual([{ type: "function", function: { name: "linkup_search_flow", description: raw.flows[0].description, parameters: fields } }]);
  });

  it("has help with examples and exit codes", async () => {
    const { code, stdout } = await cli("agents-json", "run", "--help");
    expect(code).toBe(0);
    expect(stdout).toMatch(/Exit codes: 0 the flow ran/);
    expect(stdout).toMatch(/--param <sourceId.name=value>/);
  });
});
