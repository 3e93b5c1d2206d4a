import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { once } from "node:events";
import { join } from "node:path";
import { createServer } from "node:net";
import type { AddressInfo } from "node:net";
import { createInterface } from "node:readline";
import { describe, expect, it } from "vitest";
import { connectHttp, connectStdio, type RuntimeServices } from "@flowspec/stepflow/client";
import { repoRoot } from "../../../test/support.js";
import { runCli } from "../src/index.js";
import { cli } from "./support.js";

const bin = join(repoRoot, "packages/cli/src/bin.ts");
const module = join(repoRoot, "examples/stepflow-components/components.ts");
const temp = mkdtempSync(join(tmpdir(), "flowspec-serve-"));
const noDefault = join(temp, "no-default.mjs");
writeFileSync(noDefault, "export const components = {};\n");
const notComponents = join(temp, "not-components.mjs");
writeFileSync(notComponents, 'export default { "/x": { description: "no handler" } };\n');
const sameName = join(temp, "same-name.mjs");
writeFileSync(sameName, 'export default { echo: { handler: (x) => x }, "/echo": { handler: () => 1 } };\n');
const blobs = new Map<string, unknown>();
const services: RuntimeServices = {
  putBlob: (data) => (blobs.set(`b${blobs.size}`, data), `b${blobs.size - 1}`),
  getBlob: (id) => blobs.get(id),
  evaluateFlow: (_flow, input) => ({ outcome: "success", result: input }),
};

describe("flowspec stepflow serve", () => {
  it("serves a TypeScript module's components over stdio", async () => {
    const client = await connectStdio({ command: process.execPath, args: ["--import", "tsx", bin, "stepflow", "serve", module], cwd: repoRoot, env: { PATH: process.env.PATH ?? "" } }, services);
    expect((await client.list()).map((c) => c.component).sort()).toEqual(["/blob_roundtrip", "/echo", "/eval_flow", "/fail"]);
    expect(await client.execute("/blob_roundtrip", { value: [1] })).toEqual({ blob_id: expect.any(String), data: [1] });
    await client.close();
  });

  it("keeps stdout protocol-only even for console output while the module loads", async () => {
    const chatty = join(temp, "chatty.mjs");
    writeFileSync(chatty, 'console.log("loading components");\nexport default { "/echo": { handler: (input) => input } };\n');
    const child = spawn(process.execPath, ["--import", "tsx", bin, "stepflow", "serve", chatty], { cwd: repoRoot });
    let stderr = "";
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    try {
      child.stdin.write(JSON.stringify({ jsonrpc: "2.0", id: 1, method: "initialize", params: { runtime_protocol_version: 1 } }) + "\n");
      const [line] = (await once(createInterface({ input: child.stdout }), "line")) as [string];
      expect(JSON.parse(line)).toEqual({ jsonrpc: "2.0", id: 1, result: { server_protocol_version: 1 } });
      child.stdin.end();
      await once(child, "exit");
      expect(stderr).toContain("loading components");
    } finally {
      child.kill();
    }
  });

  it("serves over HTTP with --http --port 0, printing the URL", async () => {
    const child = spawn(process.execPath, ["--import", "tsx", bin, "stepflow", "serve", module, "--http", "--port", "0"], { cwd: repoRoot });
    try {
      const [line] = (await once(createInterface({ input: child.stdout }), "line")) as [string];
      const url = /on (http:\/\/\S+)/.exec(line)![1]!;
      expect(((await (await fetch(`${url}/health`)).json()) as { status: string }).status).toBe("healthy");
      const client = await connectHttp(url, services);
      expect(await client.execute("/eval_flow", { flow: { steps: [] }, input: 3 })).toEqual({ outcome: "success", result: 3 });
      await client.close();
    } finally {
      child.kill();
    }
  });

  it("exits 2 with a clear message when the HTTP port is taken, not an internal error", async () => {
    const busy = createServer();
    await new Promise<void>((done) => busy.listen(0, "127.0.0.1", done));
    try {
      const port = String((busy.address() as AddressInfo).port);
      const run = await cli(["stepflow", "serve", module, "--http", "--port", port], repoRoot);
      expect(run.stderr).toContain(`cannot listen on 127.0.0.1:${port}: EADDRINUSE`);
      expect(run.stderr).not.toMatch(/\n\s+at /);
      expect(run.code).toBe(2);
    } finally {
      busy.close();
    }
  });

  it.each([
    [["stepflow", "serve", "missing.ts"], /missing\.ts: no such file/],
    [["stepflow", "serve", noDefault], /has no default export/],
    [["stepflow", "serve", notComponents], /component \/x has no handler function/],
    [["stepflow", "serve", sameName], /same-name\.mjs: components "echo" and "\/echo" are both the component \/echo/],
    [["stepflow", "serve", sameName, "--http", "--port", "0"], /same-name\.mjs: components "echo" and "\/echo" are both the component \/echo/],
    [["stepflow", "serve", module, "--http", "--port", "http"], /--port must be a port number/],
  ])("exits 2 for %j", async (argv, message) => {
    const run = await cli(argv as string[], repoRoot);
    expect(run.stderr).toMatch(message);
    expect(run.code).toBe(2);
  });
});

describe("flowspec stepflow serve in a CommonJS project (the built bin, as users run it)", () => {
  // The built bin: tsx preloaded with --import unwraps CommonJS defaults itself and would hide the bug.
  const built = join(repoRoot, "packages/cli/dist/bin.js");
  const project = mkdtempSync(join(tmpdir(), "flowspec-serve-cjs-"));
  writeFileSync(join(project, "package.json"), JSON.stringify({ name: "components", private: true, type: "commonjs" }));
  writeFileSync(join(project, "components.ts"), 'const echo = { handler: (input: unknown) => input };\nexport default { "/echo": echo };\n');
  // What tsc emits for that module in a CommonJS project.
  writeFileSync(join(project, "components.js"), '"use strict";\nObject.defineProperty(exports, "__esModule", { value: true });\nexports.default = { "/echo": { handler: (input) => input } };\n');
  writeFileSync(join(project, "named-only.js"), '"use strict";\nObject.defineProperty(exports, "__esModule", { value: true });\nexports.echo = { handler: (input) => input };\n');

  it.each(["components.ts", "components.js"])("serves %s, whose export default became exports.default", async (file) => {
    expect(existsSync(built), "packages/cli/dist is missing: run npm run build").toBe(true);
    const client = await connectStdio({ command: process.execPath, args: [built, "stepflow", "serve", file], cwd: project, env: { PATH: process.env.PATH ?? "" } }, services);
    expect((await client.list()).map((c) => c.component)).toEqual(["/echo"]);
    expect(await client.execute("/echo", { value: 1 })).toEqual({ value: 1 });
    await client.close();
  });

  it("says a compiled module with only named exports has no default export", () => {
    const run = spawnSync(process.execPath, [built, "stepflow", "serve", "named-only.js"], { cwd: project, input: "", encoding: "utf8" });
    expect(run.stderr).toContain("named-only.js: has no default export");
    expect(run.status).toBe(2);
  });
});

describe("flowspec stepflow test with external component servers", () => {
  it("passes the example flows over stdio and over HTTP (a test server on a free port)", async () => {
    const run = await cli(["stepflow", "test", join(repoRoot, "examples/stepflow-components")], repoRoot);
    expect(run.stdout).toMatch(/hello over stdio/);
    expect(run.stdout).toMatch(/hello over http/);
    expect(run.stdout).toMatch(/^2 passed, 0 failed, 0 skipped$/m);
    expect(run.code).toBe(0);
  }, 120_000);
});

describe("flowspec stepflow test progress", () => {
  it("shows [i/n] file on a terminal's stderr while flows run, and nothing elsewhere", async () => {
    let stderr = "";
    let stdout = "";
    const io = { stdout: { write: (t: string) => (stdout += t) }, stderr: { write: (t: string) => (stderr += t), isTTY: true }, cwd: repoRoot, env: process.env };
    const code = await runCli(["stepflow", "test", join(repoRoot, "../shared/corpus/stepflow/tests/mock")], io);
    expect(code).toBe(0);
    expect(stderr).toMatch(/\[1\/7\] .*basic\.yaml/);
    expect(stderr).toMatch(/\[7\/7\] /);
    expect(stdout).not.toContain("[1/7]");
    expect((await cli(["stepflow", "test", join(repoRoot, "../shared/corpus/stepflow/tests/mock")], repoRoot)).stderr).not.toContain("[1/7]");
  });
});
