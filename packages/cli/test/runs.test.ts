import { spawn } from "node:child_process";
import { once } from "node:events";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { runCli, type CliIo } from "@flowspec/cli";
import { startTestServer, type TestServer } from "@flowspec/agent-service/testing";
import { createInterface } from "node:readline";
import { repoRoot } from "../../../test/support.js";

const bin = join(repoRoot, "packages/cli/src/bin.ts");

let server: TestServer;
let dir: string;

function io(env: Record<string, string | undefined> = {}) {
  const out: string[] = [];
  const err: string[] = [];
  const cliIo: CliIo = { stdout: { write: (t: string) => out.push(t) }, stderr: { write: (t: string) => err.push(t) }, cwd: dir, env };
  return { cliIo, stdout: () => out.join(""), stderr: () => err.join("") };
}

const connection = () => ["--base-url", server.url, "--org", server.orgId, "--token", server.token];
const env = () => ({ FLOWSPEC_BASE_URL: server.url, FLOWSPEC_ORG_ID: server.orgId, FLOWSPEC_TOKEN: server.token });

async function run(argv: string[], environment: Record<string, string | undefined> = {}) {
  const captured = io(environment);
  const code = await runCli(argv, captured.cliIo);
  return { code, stdout: captured.stdout(), stderr: captured.stderr() };
}

async function createRun(): Promise<string> {
  const { stdout } = await run(["runs", "create", "--file", "run.json", "--format", "json", ...connection()]);
  return (JSON.parse(stdout) as { runId: string }).runId;
}

beforeAll(async () => {
  server = await startTestServer();
  dir = mkdtempSync(join(tmpdir(), "flowspec-runs-"));
  writeFileSync(join(dir, "run.json"), JSON.stringify({ resourceType: "agent", resourceId: "agent-1", input: { mode: "agent", messages: [{ role: "user", content: "hello from the cli" }] } }));
  writeFileSync(join(dir, "run.yaml"), "resourceType: tool\nresourceId: tool-1\ninput:\n  mode: agent\n  messages: []\n");
  writeFileSync(join(dir, "old.json"), JSON.stringify({ resourceType: "agent", resourceId: "agent-1", input: { messages: [{ role: "user", content: "hi" }], tools: [] } }));
});
afterAll(() => server.close());

describe("flowspec runs", () => {
  it("creates a run from a file, with options or environment variables", async () => {
    const withFlags = await run(["runs", "create", "--file", "run.json", ...connection()]);
    expect(withFlags).toMatchObject({ code: 0 });
    expect(withFlags.stdout).toMatch(/^run-\d+ +queued +agent:agent-1 +events 0/);
    const withEnv = await run(["runs", "create", "--file", "run.json", "--format", "json"], env());
    expect(withEnv.code).toBe(0);
    expect(JSON.parse(withEnv.stdout)).toMatchObject({ resourceType: "agent", orgId: server.orgId });
  });

  it("refuses an invalid file with located errors and exit 1, sending nothing", async () => {
    const before = server.requests.create;
    const result = await run(["runs", "create", "--file", "run.yaml", ...connection()]);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('run.yaml:4:9 /input/mode: resourceType "tool" requires input.mode "tool", got "agent"');
    expect(server.requests.create).toBe(before);
  });

  it("upgrades an older-generation body with --upgrade", async () => {
    expect((await run(["runs", "create", "--file", "old.json", ...connection()])).code).toBe(1);
    expect((await run(["runs", "create", "--file", "old.json", "--upgrade", ...connection()])).code).toBe(0);
  });

  it("gets, lists (with --status) and cancels", async () => {
    const runId = await createRun();
    const watched = await run(["runs", "watch", runId, ...connection()]);
    expect(watched.code).toBe(0);
    const got = await run(["runs", "get", runId, "--format", "json", ...connection()]);
    expect(JSON.parse(got.stdout)).toMatchObject({ runId, status: "completed" });
    const listed = await run(["runs", "list", "--status", "completed", "--format", "json", ...connection()]);
    const runs = JSON.parse(listed.stdout) as { runId: string; status: string }[];
    expect(runs.map((r) => r.runId)).toContain(runId);
    expect(runs.every((r) => r.status === "completed")).toBe(true);
    const text = await run(["runs", "list", "--limit", "1", ...connection()]);
    expect(text.stdout.trim().split("\n")).toHaveLength(1);
    const cancelled = await run(["runs", "cancel", runId, ...connection()]);
    expect(cancelled.code).toBe(1);
    expect(cancelled.stderr).toMatch(/cancel: 409 .*cannot be cancelled/);
  });

  it("watches a run to the end across dropped connections, in text and ndjson", async () => {
    const runId = await createRun();
    server.fault({ route: "stream", dropAfterEvents: 2, partialFrame: true, times: 2 });
    const text = await run(["runs", "watch", runId, ...connection()]);
    expect(text.code).toBe(0);
    const lines = text.stdout.trim().split("\n");
    expect(lines[0]).toBe("#1 run.status.changed → running");
    expect(lines.filter((l) => l.startsWith("#")).map((l) => Number(l.slice(1, l.indexOf(" "))))).toEqual([1, 2, 3, 4, 5, 6, 7]);
    expect(lines.at(-1)).toBe(`run ${runId} ended: completed after 7 events`);
    expect(text.stderr).toContain("(reconnecting after #2");
    const ndjson = await run(["runs", "watch", runId, "--format", "ndjson", "--after", "5", ...connection()]);
    expect(ndjson.stdout.trim().split("\n").map((l) => (JSON.parse(l) as { sequence: number }).sequence)).toEqual([6, 7]);
  });

  it("exits 1 when the watched run did not complete", async () => {
    const blocking = await startTestServer({ script: async (ctx) => void (await ctx.requestInteraction({})) });
    try {
      const flags = ["--base-url", blocking.url, "--org", blocking.orgId, "--token", blocking.token];
      const created = await run(["runs", "create", "--file", "run.json", "--format", "json", ...flags]);
      const runId = (JSON.parse(created.stdout) as { runId: string }).runId;
      expect((await run(["runs", "cancel", runId, ...flags])).stdout).toContain("canceled");
      const watched = await run(["runs", "watch", runId, ...flags]);
      expect(watched.code).toBe(1);
      expect(watched.stdout).toContain("ended: canceled");
    } finally {
      await blocking.close();
    }
  });

  it("ends quietly when its reader goes away (runs watch | head -1)", async () => {
    const slow = await startTestServer({ tickMs: 300 });
    try {
      const flags = ["--base-url", slow.url, "--org", slow.orgId, "--token", slow.token];
      const created = await run(["runs", "create", "--file", "run.json", "--format", "json", ...flags]);
      const runId = (JSON.parse(created.stdout) as { runId: string }).runId;
      const child = spawn(process.execPath, ["--import", "tsx", bin, "runs", "watch", runId, "--format", "ndjson", ...flags], { cwd: repoRoot });
      let stderr = "";
      child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
      const exited = once(child, "exit");
      await once(createInterface({ input: child.stdout }), "line");
      child.stdout.destroy(); // like head, after the first line
      const [code] = (await exited) as [number | null];
      expect(stderr).not.toMatch(/EPIPE|\n\s+at /);
      expect(code).toBe(0);
    } finally {
      await slow.close();
    }
  }, 30_000);

  it.each([
    { name: "no base URL", argv: ["runs", "get", "run-1", "--org", "o", "--token", "t"], code: 2, message: "missing --base-url (or FLOWSPEC_BASE_URL)" },
    { name: "no token", argv: () => ["runs", "get", "run-1", "--base-url", server.url, "--org", "o"], code: 2, message: "missing --token (or FLOWSPEC_TOKEN)" },
    { name: "a bad format", argv: () => ["runs", "watch", "run-1", "--format", "xml", ...connection()], code: 2, message: "--format must be text or ndjson" },
    { name: "an unreadable file", argv: () => ["runs", "create", "--file", "nope.json", ...connection()], code: 2, message: "nope.json: cannot read: ENOENT" },
    { name: "an unknown run", argv: () => ["runs", "get", "run-404", ...connection()], code: 1, message: "get: 404" },
    { name: "a wrong token", argv: () => ["runs", "list", "--base-url", server.url, "--org", server.orgId, "--token", "bad"], code: 1, message: "list: 401" },
    { name: "no service", argv: ["runs", "get", "run-1", "--base-url", "http://127.0.0.1:9", "--org", "o", "--token", "t"], code: 2, message: "no answer from the service" },
    { name: "a missing --file", argv: () => ["runs", "create", ...connection()], code: 2, message: "required option '--file <file>'" },
  ])("exits $code on $name", async ({ argv, code, message }) => {
    const result = await run(typeof argv === "function" ? argv() : argv);
    expect(result.code).toBe(code);
    expect(result.stderr).toContain(message);
  });

  it("never echoes the token or a password in the base URL, and refuses them before sending", async () => {
    const before = server.requests.get;
    for (const token of ["sk_SECRET\nX-Injected: 1", "sk_SECRET\r", "sk_SECRET\u0000"]) {
      const result = await run(["runs", "get", "run-1", "--base-url", server.url, "--org", server.orgId, "--token", token]);
      expect(result).toMatchObject({ code: 2, stderr: "flowspec: --token (or FLOWSPEC_TOKEN) cannot be sent in a header: it contains a control character\n" });
    }
    const fromEnv = await run(["runs", "get", "run-1"], { ...env(), FLOWSPEC_TOKEN: "sk_SECRET\n" });
    expect(fromEnv.code).toBe(2);
    expect(fromEnv.stderr).not.toContain("SECRET");
    const withPassword = await run(["runs", "get", "run-1", "--base-url", server.url.replace("://", "://user:pw_SECRET@"), "--org", server.orgId, "--token", "t"]);
    expect(withPassword).toMatchObject({ code: 2, stderr: "flowspec: --base-url must not contain a user name or password (pass the credential with --token)\n" });
    expect(server.requests.get).toBe(before);
  });

  it("exits 2 (no answer from the service) when watch gives up reconnecting to a service that is not there", async () => {
    // The client backs off for about a minute before giving up: fake setTimeout, keep real I/O.
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
    try {
      let done = false;
      const watching = run(["runs", "watch", "run-1", "--base-url", "http://127.0.0.1:9", "--org", "o", "--token", "t"]).finally(() => (done = true));
      while (!done) {
        await new Promise((resolve) => setImmediate(resolve));
        await vi.advanceTimersByTimeAsync(1_000);
      }
      const result = await watching;
      expect(result.code).toBe(2);
      expect(result.stderr).toMatch(/\nflowspec: watch: no answer from the service: gave up on the stream of run run-1 after 10 reconnects: connection failed\n$/);
    } finally {
      vi.useRealTimers();
    }
  });

  it("still exits 1 when watch gives up on a service that keeps answering with an error", async () => {
    const blocking = await startTestServer({ script: async (ctx) => void (await ctx.requestInteraction({})) });
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
    try {
      const flags = ["--base-url", blocking.url, "--org", blocking.orgId, "--token", blocking.token];
      const created = await run(["runs", "create", "--file", "run.json", "--format", "json", ...flags]);
      const runId = (JSON.parse(created.stdout) as { runId: string }).runId;
      blocking.fault({ route: "stream", status: 503, times: 50 });
      let done = false;
      const watching = run(["runs", "watch", runId, ...flags]).finally(() => (done = true));
      while (!done) {
        await new Promise((resolve) => setImmediate(resolve));
        await vi.advanceTimersByTimeAsync(1_000);
      }
      const result = await watching;
      expect(result.code).toBe(1);
      expect(result.stderr).toMatch(/\nflowspec: watch: gave up on the stream of run run-\d+ after 10 reconnects: HTTP 503\n$/);
    } finally {
      vi.useRealTimers();
      await blocking.close();
    }
  });

  it("masks the token when the service repeats it in an error answer", async () => {
    const echoing = createServer((req, res) => {
      res.writeHead(401, { "content-type": "application/json" });
      res.end(JSON.stringify({ code: 401, message: `token ${req.headers.authorization} is not valid` }));
    });
    await new Promise<void>((done) => echoing.listen(0, "127.0.0.1", done));
    try {
      const url = `http://127.0.0.1:${(echoing.address() as AddressInfo).port}`;
      const result = await run(["runs", "get", "run-1", "--base-url", url, "--org", "o", "--token", "sk_live_SECRET"]);
      expect(result).toMatchObject({ code: 1, stderr: "flowspec: get: 401 (code 401): token Bearer *** is not valid\n" });
    } finally {
      await new Promise((done) => echoing.close(done));
    }
  });

  it.each([
    { name: "an ftp base URL", argv: ["runs", "get", "run-1", "--base-url", "ftp://127.0.0.1/", "--org", "o", "--token", "t"], message: 'flowspec: --base-url must be an http or https URL, not "ftp:"\n' },
    { name: "an empty RUN_ID", argv: () => ["runs", "get", "", ...connection()], message: "flowspec: RUN_ID must not be empty\n" },
    { name: "an empty RUN_ID to cancel", argv: () => ["runs", "cancel", "", ...connection()], message: "flowspec: RUN_ID must not be empty\n" },
    { name: "an empty RUN_ID to watch", argv: () => ["runs", "watch", "", ...connection()], message: "flowspec: RUN_ID must not be empty\n" },
    { name: "an --after past the largest exact integer", argv: () => ["runs", "watch", "run-1", "--after", "99999999999999999999", ...connection()], message: 'flowspec: --after must be an integer ≥ 0, not "99999999999999999999"\n' },
  ])("exits 2 on $name, printing one line and sending nothing", async ({ argv, message }) => {
    const result = await run(typeof argv === "function" ? argv() : argv);
    expect(result).toMatchObject({ code: 2, stdout: "", stderr: message });
  });

  it("exits 2 when a command group is given no subcommand (help goes to stderr), 0 for --help", async () => {
    for (const group of ["runs", "agents-json", "apflow", "stepflow"]) {
      const bare = await run([group]);
      expect(bare.code).toBe(2);
      expect(bare.stderr).toContain(`Usage: flowspec ${group}`);
      expect(bare.stdout).toBe("");
      expect((await run([group, "--help"])).code).toBe(0);
    }
    expect((await run(["help", "runs"])).code).toBe(0);
  });

  it("documents connection options, exit codes and examples in --help", async () => {
    const help = await run(["runs", "watch", "--help"]);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain("FLOWSPEC_TOKEN");
    expect(help.stdout).toContain("Exit codes");
    expect(help.stdout).toContain("flowspec runs watch run-123");
  });
});
