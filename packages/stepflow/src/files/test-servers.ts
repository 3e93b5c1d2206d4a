/**
 * `test.servers` (78398cdc): component servers started before a flow's test cases, each on a free
 * port, and stopped after them. `{port}` in a server's command, args and env is its port;
 * `{<name>.url}` and `{<name>.port}` in the flow's `test.config` reach the running server.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { createServer } from "node:net";
import { resolve } from "node:path";
import { isObject } from "../values.js";

export interface TestServers {
  /** Replaces `{<name>.url}` and `{<name>.port}` in every string of a value. */
  substitute<T>(value: T): T;
  stop(): Promise<void>;
}

interface Running {
  name: string;
  port: number;
  child: ChildProcess;
}

/** Starts every server and waits until each answers its health check. Throws, naming the server, when one cannot. */
export async function startTestServers(servers: Record<string, unknown>, flowDir: string, env: Record<string, string | undefined>): Promise<TestServers> {
  const running: Running[] = [];
  const stop = async () => {
    await Promise.all(running.map(({ child }) => stopChild(child)));
  };
  try {
    for (const [name, entry] of Object.entries(servers)) {
      const server = isObject(entry) ? entry : {};
      if (typeof server.command !== "string") throw new Error(`test server ${JSON.stringify(name)} has no command`);
      const port = await freePort(server.portRange);
      const withPort = (text: string) => text.replaceAll("{port}", String(port));
      const args = Array.isArray(server.args) ? server.args.map((arg) => withPort(String(arg))) : [];
      const ownEnv = isObject(server.env) ? Object.fromEntries(Object.entries(server.env).map(([k, v]) => [k, withPort(String(v))])) : {};
      const cwd = typeof server.workingDirectory === "string" && server.workingDirectory ? resolve(flowDir, server.workingDirectory) : flowDir;
      const child = spawn(withPort(server.command), args, { cwd, env: { ...env, ...ownEnv }, stdio: ["ignore", "ignore", "pipe"] });
      running.push({ name, port, child });
      await waitHealthy(name, port, child, server);
    }
  } catch (error) {
    await stop();
    throw error;
  }
  const values = new Map<string, string>(running.flatMap(({ name, port }) => [[`{${name}.url}`, `http://127.0.0.1:${port}`], [`{${name}.port}`, String(port)]]));
  const substitute = (value: unknown): unknown => {
    if (typeof value === "string") return value.replace(/\{[^{}]+\.(?:url|port)\}/g, (key) => values.get(key) ?? key);
    if (Array.isArray(value)) return value.map(substitute);
    if (isObject(value)) return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, substitute(v)]));
    return value;
  };
  return { substitute: substitute as TestServers["substitute"], stop };
}

/** A port that was free a moment ago: the first free one of `[low, high]`, or any. */
async function freePort(range: unknown): Promise<number> {
  const [low, high] = Array.isArray(range) && range.length === 2 ? (range as number[]) : [0, 0];
  for (let port = low!; port <= high!; port++) {
    const bound = await new Promise<number | undefined>((done) => {
      const probe = createServer();
      probe.once("error", () => done(undefined));
      probe.listen(port, "127.0.0.1", () => {
        const address = probe.address();
        probe.close(() => done(typeof address === "object" && address ? address.port : undefined));
      });
    });
    if (bound !== undefined) return bound;
  }
  throw new Error(`no free port in ${low}…${high}`);
}

async function waitHealthy(name: string, port: number, child: ChildProcess, server: Record<string, unknown>): Promise<void> {
  const health = isObject(server.healthCheck) ? server.healthCheck : {};
  const path = typeof health.path === "string" ? health.path : "/health";
  const timeoutMs = typeof server.startupTimeoutMs === "number" ? server.startupTimeoutMs : 30_000;
  const delayMs = typeof health.retryDelayMs === "number" ? health.retryDelayMs : 100;
  let stderr = "";
  child.stderr!.on("data", (chunk: Buffer) => (stderr = (stderr + chunk.toString()).slice(-2000)));
  let exited: string | undefined;
  let startError: Error | undefined;
  child.once("exit", (code, signal) => (exited = signal ?? `code ${code}`));
  child.once("error", (error) => (startError = error));
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (startError) throw new Error(`test server ${JSON.stringify(name)} cannot start: ${startError.message}`);
    if (exited) throw new Error(`test server ${JSON.stringify(name)} exited (${exited}) before it was healthy${stderr ? `: ${stderr.trim()}` : ""}`);
    try {
      const response = await fetch(`http://127.0.0.1:${port}${path}`, { signal: AbortSignal.timeout(1000) });
      await response.body?.cancel();
      if (response.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, delayMs));
  }
  throw new Error(`test server ${JSON.stringify(name)} was not healthy at http://127.0.0.1:${port}${path} within ${timeoutMs} ms`);
}

function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((done) => {
    child.once("exit", () => done());
    child.kill("SIGTERM");
  });
}
