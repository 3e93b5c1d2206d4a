/**
 * Where `stepflow run` takes its input from and writes its result to, with upstream's flags
 * (stepflow-main/src/args/{input,output}.rs): `--input-json`, `--input-yaml`, `--input-file`, stdin
 * with `--stdin-format`, and `--output FILE` in the format its extension names.
 */
import { writeFileSync } from "node:fs";
import { resolve } from "node:path";
import { decodeUtf8, DocumentParseError, parseSourceDocument, stringifyJson, stringifyYaml } from "@flowspec/runtime";
import { readText } from "../read-document.js";
import { CliError, type CliIo } from "../io.js";

/** The most stdin may carry: the largest message a component server accepts by default. */
export const MAX_STDIN_BYTES = 16 * 1024 * 1024;

export interface InputOptions {
  /** `--input` and its upstream name `--input-json`: JSON text. */
  input?: string;
  inputJson?: string;
  inputYaml?: string;
  /** A JSON or YAML file, by extension (else by content); `-` is stdin. */
  inputFile?: string;
  stdinFormat?: string;
}

/**
 * The run's input: from the one input option given, else from stdin when it is not a terminal
 * (empty stdin is `null`), else `null`. Two input options are a usage error.
 */
export async function readRunInput(io: CliIo, options: InputOptions): Promise<unknown> {
  const given = (["input", "inputJson", "inputYaml", "inputFile"] as const).filter((key) => options[key] !== undefined);
  if (given.length > 1) throw new CliError(`give one input, not ${given.map(flagOf).join(" and ")}`);
  if (options.stdinFormat !== undefined && options.stdinFormat !== "json" && options.stdinFormat !== "yaml") {
    throw new CliError(`--stdin-format must be json or yaml, not "${options.stdinFormat}"`);
  }
  const format = options.stdinFormat as "json" | "yaml" | undefined;
  if (options.input !== undefined) return parseInput(options.input, "--input", "json");
  if (options.inputJson !== undefined) return parseInput(options.inputJson, "--input-json", "json");
  if (options.inputYaml !== undefined) return parseInput(options.inputYaml, "--input-yaml", "yaml");
  if (options.inputFile !== undefined && options.inputFile !== "-") {
    return parseInput(readText(io.cwd, options.inputFile), options.inputFile, undefined, options.inputFile);
  }
  if (!io.stdin || (io.stdin.isTTY && options.inputFile !== "-")) return null;
  const text = await readStdin(io.stdin, MAX_STDIN_BYTES);
  if (text.trim() === "") return null;
  return parseInput(text, "stdin", format);
}

const flagOf = (key: string) => `--${key.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`;

function parseInput(text: string, where: string, format: "json" | "yaml" | undefined, file?: string): unknown {
  try {
    return parseSourceDocument(text, { file, format, keepFloats: true }).value;
  } catch (error) {
    if (!(error instanceof DocumentParseError)) throw error;
    const at = `${error.location.line}:${error.location.column}`;
    throw new CliError(file ? error.message : `${where} is not valid ${format === "yaml" ? "YAML" : format === "json" ? "JSON" : "JSON or YAML"}: ${at}: ${error.reason}`);
  }
}

/** Reads stdin to its end, failing as soon as it passes `maxBytes` (never buffering more). */
export async function readStdin(stdin: AsyncIterable<Uint8Array | string>, maxBytes: number): Promise<string> {
  const chunks: Buffer[] = [];
  let total = 0;
  for await (const chunk of stdin) {
    const bytes = typeof chunk === "string" ? Buffer.from(chunk) : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
    total += bytes.byteLength;
    if (total > maxBytes) throw new CliError(`stdin: the input is larger than ${maxBytes} bytes`);
    chunks.push(bytes);
  }
  // Invalid UTF-8 is an error at its line and column, never silently replaced.
  return decodeUtf8(Buffer.concat(chunks), "stdin");
}

/** `--output FILE`: JSON for `.json`, YAML for `.yml`/`.yaml` (as upstream, another extension is an error). */
export function outputFormat(file: string): "json" | "yaml" {
  if (/\.json$/i.test(file)) return "json";
  if (/\.ya?ml$/i.test(file)) return "yaml";
  throw new CliError(`--output ${file}: the extension must be .json, .yml or .yaml (it picks the format)`);
}

export function writeOutput(io: CliIo, file: string, value: unknown): void {
  const text = outputFormat(file) === "json" ? stringifyJson(value, 2) + "\n" : stringifyYaml(value);
  try {
    writeFileSync(resolve(io.cwd, file), text);
  } catch (error) {
    throw new CliError(`--output ${file}: cannot write: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
  }
}
