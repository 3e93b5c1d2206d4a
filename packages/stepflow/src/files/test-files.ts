/** `stepflow test` over files and folders (protocol notes §6.9, §8). */
import { readdirSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { DocumentParseError } from "@flowspec/runtime";
import { FileTooLargeError, NotAFileError, readTextFileSync } from "@flowspec/runtime/files";
import { InvalidFlowError } from "../engine/errors.js";
import { findCommand } from "../plugins/external.js";
import type { Flow } from "../generated/index.js";
import { ConfigError, parseConfigDocument } from "../router/config.js";
import type { RouterOptions } from "../router/router.js";
import { runTestCases, type CaseReport } from "../testing/test-cases.js";
import { isObject } from "../values.js";
import { createConfiguredRouter, loadFlowFile, resolveConfig, type LoadedOverlay } from "./files.js";
import { startTestServers, type TestServers } from "./test-servers.js";

export const FLOW_SCHEMA_URL = "https://stepflow.org/schemas/v1/flow.json";

export interface FlowTestReport {
  /** The flow file as given (or found under a folder), or `"<flow>"` for an in-memory flow. */
  file: string;
  /** Where the config came from (a file, `test.config`, or `undefined` for the default). */
  config?: string;
  cases: CaseReport[];
  /** A file that could not be read, parsed or configured: counted as one failure. */
  error?: string;
}

export interface TestOptions extends Omit<RouterOptions, "config"> {
  /** `--config`: a stepflow-config file used for every flow. */
  configFile?: string;
  /** `--overlay`: layered onto each flow's config, in order; their `testServers` replace the flow's servers of the same name. */
  overlays?: readonly LoadedOverlay[];
  cwd?: string;
  signal?: AbortSignal;
  /** `--case`: run only the cases with these names; a flow without any of them is passed over without starting anything. */
  cases?: readonly string[];
  /** Called before each flow file of `testPaths` runs: for a progress indicator. */
  onFile?(file: string, index: number, total: number): void;
}

export interface TestSummary {
  files: FlowTestReport[];
  passed: number;
  failed: number;
  skipped: number;
}

/**
 * Runs the test cases of one flow file with its config (found as upstream does, or `configFile`),
 * on one router shared by its cases. Never throws for a bad file: the report carries the error.
 */
export async function testFlow(file: string, options: TestOptions = {}): Promise<FlowTestReport> {
  const cwd = options.cwd ?? process.cwd();
  const path = resolve(cwd, file);
  let flow: Flow;
  try {
    flow = loadFlowFile(file, { cwd }).flow;
  } catch (error) {
    if (error instanceof DocumentParseError || error instanceof InvalidFlowError || error instanceof NotAFileError || error instanceof FileTooLargeError) {
      return { file, cases: [], error: error.message };
    }
    throw error;
  }
  const named = options.cases && options.cases.length > 0 ? new Set(options.cases) : undefined;
  if (named && !(isObject(flow.test) && Array.isArray(flow.test.cases) && flow.test.cases.some((c) => named.has(String(c.name))))) return { file, cases: [] };
  const env = options.env ?? process.env;
  const servers = withOverlaidServers(isObject(flow.test) && isObject(flow.test.servers) ? flow.test.servers : {}, options.overlays ?? []);
  const skipReason = await missingServerCommand(servers, dirname(path), env);
  let started: TestServers | undefined;
  if (!skipReason && Object.keys(servers).length > 0) {
    try {
      started = await startTestServers(servers, dirname(path), env);
    } catch (error) {
      return { file, cases: [], error: (error as Error).message };
    }
  }
  try {
    let resolved;
    try {
      resolved = resolveConfig(path, { configFile: options.configFile, overlays: options.overlays, forTest: true, flow: started ? started.substitute(flow) : flow, cwd });
    } catch (error) {
      return { file, cases: [], error: `config: ${(error as Error).message}` };
    }
    const config = resolved.origin && !resolved.origin.includes("(test.config)") ? relative(cwd, resolved.origin) || resolved.origin : resolved.origin;
    let router;
    try {
      router = createConfiguredRouter(resolved, options);
    } catch (error) {
      if (error instanceof ConfigError) return { file, config, cases: [], error: `config ${config ?? ""}: ${error.message}` };
      throw error;
    }
    try {
      return { file, config, cases: await runTestCases(flow, { router, signal: options.signal, skipReason, cases: options.cases }) };
    } finally {
      await router.close();
    }
  } finally {
    await started?.stop();
  }
}

/** A flow's test servers, each replaced by the last overlay's test server of the same name. */
function withOverlaidServers(servers: Record<string, unknown>, overlays: readonly LoadedOverlay[]): Record<string, unknown> {
  const out = { ...servers };
  for (const name of Object.keys(out)) {
    for (const { overlay } of overlays) if (Object.hasOwn(overlay.testServers, name)) out[name] = overlay.testServers[name];
  }
  return out;
}

/**
 * `test.servers` whose command is not installed: the cases are skipped with that reason (the
 * corpus's HTTP flows start their servers with `uv`).
 */
async function missingServerCommand(servers: Record<string, unknown>, flowDir: string, env: Record<string, string | undefined>): Promise<string | undefined> {
  for (const [name, server] of Object.entries(servers)) {
    const command = isObject(server) && typeof server.command === "string" ? server.command : "";
    const workingDirectory = isObject(server) && typeof server.workingDirectory === "string" && server.workingDirectory ? resolve(flowDir, server.workingDirectory) : flowDir;
    if (!(await findCommand(command, { workingDirectory, env }))) {
      return `test server ${JSON.stringify(name)} needs the command ${JSON.stringify(command)}, which is not installed (not found on PATH)`;
    }
  }
  return undefined;
}

/**
 * The flow files under the given paths: files as given, folders searched recursively for
 * `.yaml`/`.yml` files whose top-level `schema` is the v1 URL (others are passed over silently).
 */
export function findFlowFiles(paths: readonly string[], cwd = process.cwd()): string[] {
  const out: string[] = [];
  for (const path of paths) {
    const full = resolve(cwd, path);
    if (!statSync(full).isDirectory()) {
      out.push(path);
      continue;
    }
    const entries = (readdirSync(full, { recursive: true }) as string[]).map((e) => e.split("\\").join("/")).sort();
    for (const entry of entries) {
      if (!/\.ya?ml$/i.test(entry)) continue;
      const file = join(full, entry);
      // Folders, FIFOs and devices are never flows (and reading a FIFO could wait forever).
      if (!statSync(file).isFile()) continue;
      if (hasFlowSchema(file)) out.push(join(path, entry));
    }
  }
  return out;
}

function hasFlowSchema(file: string): boolean {
  let text: string;
  try {
    text = readTextFileSync(file);
  } catch {
    // Too large, not UTF-8, unreadable: whether it is a flow cannot be told, so the flow loader reports why.
    return true;
  }
  try {
    const { value } = parseConfigDocument(text, file);
    return isObject(value) && value.schema === FLOW_SCHEMA_URL;
  } catch {
    // Not YAML we can read: let the flow loader report it with its location.
    return /^schema:\s*["']?https:\/\/stepflow\.org\/schemas\/v1\/flow\.json/m.test(text);
  }
}

/** Runs the tests of every flow under the given files and folders. */
export async function testPaths(paths: readonly string[], options: TestOptions = {}): Promise<TestSummary> {
  const files: FlowTestReport[] = [];
  const found = findFlowFiles(paths, options.cwd);
  for (const [index, file] of found.entries()) {
    options.onFile?.(file, index, found.length);
    files.push(await testFlow(file, options));
  }
  const count = (status: CaseReport["status"]) => files.reduce((n, f) => n + f.cases.filter((c) => c.status === status).length, 0);
  return { files, passed: count("passed"), failed: count("failed") + files.filter((f) => f.error).length, skipped: count("skipped") };
}
