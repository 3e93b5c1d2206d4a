import { statSync } from "node:fs";
import { resolve } from "node:path";
import type { Command } from "commander";
import {
  AgentsJsonError,
  AgentsJsonLoadError,
  exportTools,
  FlowRunError,
  formatDiagnostic,
  lintAgentsJson,
  load,
  PlanError,
  runFlow,
  type LoadedAgentsJson,
  type ToolFormat,
  type UpstreamAuth,
} from "@flowspec/agents-json";
import { DocumentParseError, parseSourceDocument } from "@flowspec/runtime";
import { readText } from "../read-document.js";
import { CliError, colours, EXIT, parseFormat, type CliIo } from "../io.js";

const collect = (value: string, previous: string[]) => [...previous, value];

/** `flowspec agents-json lint|run|tools`: lint documents, run a flow, export LLM tools. */
export function registerAgentsJson(group: Command, io: CliIo, setExit: (code: number) => void): void {
  group
    .command("lint")
    .description("Lint an agents.json document with the rules of the protocol notes (§7)")
    .argument("<file>", "agents.json document (JSON or YAML)")
    .option("--openapi <sourceId=file>", "read a source's OpenAPI document from a local file (repeatable); turns on the src rules", collect, [])
    .option("--mode <mode>", "strict or compat (severities and deviations)", "compat")
    .option("--format <format>", "text or json", "text")
    .addHelpText(
      "after",
      `
Exit codes: 0 no error findings, 1 error findings, 2 usage error or an unreadable/unparsable file.

Examples:
  flowspec agents-json lint agents.json
  flowspec agents-json lint agents.json --openapi resend=./openapi.yaml --mode strict
  flowspec agents-json lint agents.json --format json`,
    )
    .action(async (file: string, options: { openapi: string[]; mode: string; format: string }) => {
      const format = parseFormat(options.format);
      const mode = parseMode(options.mode);
      const { text, path } = readDocument(io, file);
      const map = parsePairs(options.openapi, "--openapi", "SOURCE_ID=FILE", (value, id) => openapiFile(io, id, value));
      const known = sourceIdsIn(text);
      if (known) checkSourceIds(file, known, [["--openapi", Object.keys(map)]]);
      const report = await guard(() =>
        lintAgentsJson(text, { mode, file, location: path, ...(options.openapi.length ? { resolver: { map } } : {}) }),
      );
      if (format === "json") io.stdout.write(JSON.stringify({ file, ok: report.ok, counts: report.counts, findings: report.findings }, null, 2) + "\n");
      else {
        const c = colours(io);
        for (const finding of report.findings) {
          const paint = finding.severity === "error" ? c.red : finding.severity === "warning" ? c.yellow : c.dim;
          io.stdout.write(`${paint(formatDiagnostic(finding))}\n`);
        }
        const { error, warning, info } = report.counts;
        io.stdout.write(`${report.ok ? c.green("ok") : c.red("failed")} ${file}: ${error} error(s), ${warning} warning(s), ${info} info\n`);
      }
      setExit(report.ok ? EXIT.ok : EXIT.failed);
    });

  group
    .command("run")
    .description("Run one flow as real HTTP calls built from its OpenAPI sources; prints the flow result as JSON")
    .argument("<file>", "agents.json document")
    .argument("<flowId>", "the flow to run")
    .requiredOption("--input <json>", 'the arguments, {"parameters": {...}, "requestBody": {...}}')
    .option("--openapi <sourceId=file>", "read a source's OpenAPI document from a local file (repeatable)", collect, [])
    .option("--server <sourceId=url>", "base URL for a source, overriding its OpenAPI servers (repeatable)", collect, [])
    .option("--auth <sourceId=bearer:TOKEN|apikey:VALUE|basic:USER:PASS>", "credentials for a source (repeatable)", collect, [])
    .option("--param <sourceId.name=value>", "a value for a parameter of every action of a source: parameterDefaults (repeatable)", collect, [])
    .option("--mode <mode>", "strict or compat", "compat")
    .option("--trace", "also print the trace (secrets redacted) to stderr")
    .addHelpText(
      "after",
      `
Exit codes: 0 the flow ran, 1 the flow failed (HTTP error, missing input, unresolved link…),
2 usage error, an unreadable file or an invalid document.

Examples:
  flowspec agents-json run agents.json resend_post_emails_flow --input '{"requestBody":{"to":"a@b.c"}}' \\
    --openapi resend=./openapi.yaml --auth resend=bearer:re_123
  flowspec agents-json run agents.json search_gifs_flow --input '{"parameters":{"q":"cats"}}' \\
    --openapi giphy=./giphy.yaml --param giphy.api_key=KEY --server giphy=http://127.0.0.1:8080/v1`,
    )
    .action(async (file: string, flowId: string, options: { input: string; openapi: string[]; server: string[]; auth: string[]; param: string[]; mode: string; trace?: boolean }) => {
      const mode = parseMode(options.mode);
      let input: unknown;
      try {
        input = JSON.parse(options.input);
      } catch (error) {
        throw new CliError(`--input is not JSON: ${(error as Error).message}`);
      }
      const { text, path } = readDocument(io, file);
      const loaded = guardSync(() => withLocation(text, file, path, mode));
      const map = parsePairs(options.openapi, "--openapi", "SOURCE_ID=FILE", (value, id) => openapiFile(io, id, value));
      const servers = parsePairs(options.server, "--server", "SOURCE_ID=URL", (value, id) => {
        // A relative or malformed base URL would fail deep inside the executor with a bare TypeError.
        if (!URL.canParse(value)) throw new CliError(`--server "${id}=${value}": not an absolute URL (e.g. http://127.0.0.1:8080/v1)`);
        return value;
      });
      const auth = Object.fromEntries(
        Object.entries(parsePairs(options.auth, "--auth", "SOURCE_ID=bearer:TOKEN|apikey:VALUE|basic:USER:PASS", (v) => v, true)).map(([id, v]) => [id, parseAuth(id, v)]),
      );
      const parameterDefaults: Record<string, Record<string, string>> = {};
      for (const [key, value] of Object.entries(parsePairs(options.param, "--param", "SOURCE_ID.NAME=VALUE", (v) => v, true))) {
        const dot = key.indexOf(".");
        if (dot <= 0 || dot === key.length - 1) throw new CliError(`--param "${key}=…" must be SOURCE_ID.NAME=VALUE`);
        (parameterDefaults[key.slice(0, dot)] ??= {})[key.slice(dot + 1)] = value;
      }
      const known = loaded.document.sources.map((source) => source.id);
      checkSourceIds(file, known, [["--openapi", Object.keys(map)], ["--server", Object.keys(servers)], ["--auth", Object.keys(auth)], ["--param", Object.keys(parameterDefaults)]]);
      try {
        const { result, trace, warnings } = await runFlow(loaded, flowId, input, { mode, resolver: { map }, servers, auth, parameterDefaults });
        for (const warning of warnings) io.stderr.write(`warning: ${warning}\n`);
        if (options.trace) io.stderr.write(JSON.stringify(trace, null, 2) + "\n");
        io.stdout.write(JSON.stringify(result, null, 2) + "\n");
        setExit(EXIT.ok);
      } catch (error) {
        if (error instanceof PlanError) {
          // The package's message has line:column only; the file belongs in front, as everywhere else.
          const lines = error.diagnostics.map((d) => `  ${formatDiagnostic(d.line === undefined ? d : { ...d, file })}`);
          throw new CliError(`${error.name}: flow "${flowId}" cannot run:\n${lines.join("\n")}`, EXIT.failed);
        }
        if (error instanceof FlowRunError) {
          if (options.trace) io.stderr.write(JSON.stringify(error.trace, null, 2) + "\n");
          throw new CliError(`${error.name}: ${error.message}`, EXIT.failed);
        }
        if (error instanceof AgentsJsonError) throw new CliError(`${error.name}: ${error.message}`);
        throw error;
      }
    });

  group
    .command("tools")
    .description("Export every flow as an LLM tool definition (one tool per flow)")
    .argument("<file>", "agents.json document")
    .option("--format <format>", "openai (Chat Completions), openai-responses, anthropic, or json (the Python SDK's format: each flow's fields as written)", "openai")
    .addHelpText(
      "after",
      `
Exit codes: 0 exported, 2 usage error, an unreadable file, an invalid document or a flow that cannot be a tool.

Examples:
  flowspec agents-json tools agents.json
  flowspec agents-json tools agents.json --format anthropic > tools.json
  flowspec agents-json tools agents.json --format json`,
    )
    .action((file: string, options: { format: string }) => {
      const formats: Record<string, ToolFormat> = { openai: "openai-chat", "openai-chat": "openai-chat", "openai-responses": "openai-responses", anthropic: "anthropic", json: "json" };
      const format = Object.hasOwn(formats, options.format) ? formats[options.format] : undefined;
      if (!format) throw new CliError(`--format must be openai, openai-responses, anthropic or json, not "${options.format}"`);
      const { text, path } = readDocument(io, file);
      const loaded = guardSync(() => withLocation(text, file, path, "compat"));
      const tools = guardSync(() => exportTools(loaded, { format }));
      io.stdout.write(JSON.stringify(tools, null, 2) + "\n");
      setExit(EXIT.ok);
    });
}

/** A mistyped source id would otherwise be ignored without a word, and the command fail for another reason. */
function checkSourceIds(file: string, known: readonly string[], given: readonly (readonly [string, readonly string[]])[]): void {
  for (const [flag, ids] of given) {
    const unknown = ids.find((id) => !known.includes(id));
    if (unknown !== undefined) throw new CliError(`${flag}: no source "${unknown}" in ${file} (sources: ${known.join(", ") || "none"})`);
  }
}

/** The source ids of a document lint is about to read, or undefined when it cannot tell (lint reports why). */
function sourceIdsIn(text: string): string[] | undefined {
  try {
    const sources = (parseSourceDocument(text).value as { sources?: unknown }).sources;
    if (!Array.isArray(sources)) return undefined;
    return sources.flatMap((source) => (typeof (source as { id?: unknown })?.id === "string" ? [(source as { id: string }).id] : []));
  } catch {
    return undefined;
  }
}

/**
 * An `--openapi` file, checked before use: it is named on the command line, so an unreadable one
 * is a usage error (exit 2), not a lint finding or a flow that cannot run (exit 1).
 */
function openapiFile(io: CliIo, sourceId: string, file: string): string {
  const path = resolve(io.cwd, file);
  let problem: string | undefined;
  try {
    const stats = statSync(path);
    // Named here, a FIFO or a device is a usage error as a folder is; read later, it would only be
    // a source that cannot load (exit 1).
    if (stats.isDirectory()) problem = "EISDIR";
    else if (!stats.isFile()) problem = "not a regular file";
  } catch (error) {
    problem = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
  }
  if (problem) throw new CliError(`--openapi "${sourceId}=${file}": cannot read: ${problem}`);
  return path;
}

function parseMode(value: string): "strict" | "compat" {
  if (value !== "strict" && value !== "compat") throw new CliError(`--mode must be strict or compat, not "${value}"`);
  return value;
}

function readDocument(io: CliIo, file: string): { text: string; path: string } {
  return { text: readText(io.cwd, file), path: resolve(io.cwd, file) };
}

/** Loads for display under the name given, with relative source paths resolving against the real path. */
function withLocation(text: string, file: string, path: string, mode: "strict" | "compat"): LoadedAgentsJson {
  const loaded = load(text, { file, mode });
  loaded.location = path;
  return loaded;
}

/** `KEY=VALUE` options; with `secret`, an error never repeats what may be a token or an API key. */
function parsePairs(values: string[], option: string, shape: string, convert: (value: string, key: string) => string, secret = false): Record<string, string> {
  const out: Record<string, string> = {};
  for (const value of values) {
    const eq = value.indexOf("=");
    if (eq <= 0 || eq === value.length - 1) {
      const shown = !secret ? ` "${value}"` : eq > 0 ? ` "${value.slice(0, eq)}=…"` : " value";
      throw new CliError(`${option}${shown} must be ${shape}`);
    }
    out[value.slice(0, eq)] = convert(value.slice(eq + 1), value.slice(0, eq));
  }
  return out;
}

function parseAuth(sourceId: string, value: string): UpstreamAuth {
  const colon = value.indexOf(":");
  const kind = colon < 0 ? value : value.slice(0, colon);
  const rest = colon < 0 ? "" : value.slice(colon + 1);
  if (kind === "bearer" && rest) return { type: "bearer", token: rest };
  if (kind === "apikey" && rest) return { type: "apiKey", value: rest };
  if (kind === "basic" && rest.includes(":")) {
    const split = rest.indexOf(":");
    return { type: "basic", username: rest.slice(0, split), password: rest.slice(split + 1) };
  }
  throw new CliError(`--auth "${sourceId}=…" must be ${sourceId}=bearer:TOKEN, ${sourceId}=apikey:VALUE or ${sourceId}=basic:USER:PASS`);
}

// Document problems end the command with exit 2 and file:line:column where there is one.
function guardSync<T>(work: () => T): T {
  try {
    return work();
  } catch (error) {
    throw toCliError(error);
  }
}

async function guard<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    throw toCliError(error);
  }
}

function toCliError(error: unknown): unknown {
  if (error instanceof DocumentParseError) return new CliError(error.message);
  if (error instanceof AgentsJsonLoadError) return new CliError(`invalid document:\n${error.diagnostics.filter((d) => d.severity === "error").map((d) => `  ${formatDiagnostic(d)}`).join("\n")}`);
  if (error instanceof AgentsJsonError) return new CliError(`${error.name}: ${error.message}`);
  return error;
}
