import { FlowRunError, ToolExportError } from "../errors.js";
import type { RunOptions } from "../executor/options.js";
import { runFlow, type RunResult } from "../executor/run.js";
import type { LoadedAgentsJson } from "../loader/types.js";
import { loadSources } from "../sources/load-sources.js";
import { asLoaded } from "./export.js";

/** A tool call, whatever API it came from. */
export interface ToolCall {
  id: string;
  name: string;
  arguments: unknown;
}

export interface ToolCallResult {
  id: string;
  name: string;
  ok: boolean;
  /** JSON text to send back to the model (the flow result, or `{error: …}`). */
  content: string;
  run?: RunResult;
  error?: Error;
}

type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json => typeof value === "object" && value !== null && !Array.isArray(value);

/**
 * Reads the tool calls from a model reply: an OpenAI Chat Completions message (`tool_calls`,
 * JSON-string arguments), Responses output items (`function_call`) or Anthropic content
 * (`tool_use` blocks). Accepts the message, its `content`/`output` array, or a response object.
 */
export function parseToolCalls(reply: unknown): ToolCall[] {
  return readToolCalls(reply).map(({ where, ...call }) => ({ ...call, arguments: parseArguments(call.arguments, where) }));
}

/** A tool call as found, its arguments possibly still JSON text, and where it was, for errors. */
type FoundCall = ToolCall & { where: string };

function readToolCalls(reply: unknown): FoundCall[] {
  if (isObject(reply) && Array.isArray(reply.choices)) return readToolCalls((reply.choices[0] as Json | undefined)?.message);
  if (isObject(reply) && Array.isArray(reply.tool_calls)) {
    return reply.tool_calls.map((call, i) => {
      const fn = isObject(call) && isObject(call.function) ? call.function : undefined;
      if (!fn || typeof fn.name !== "string") throw new ToolExportError(`tool_calls[${i}] has no function name`);
      return found(`tool_calls[${i}]`, String((call as Json).id ?? `call_${i}`), fn.name, fn.arguments);
    });
  }
  const items = Array.isArray(reply) ? reply : isObject(reply) && Array.isArray(reply.output) ? reply.output : isObject(reply) && Array.isArray(reply.content) ? reply.content : undefined;
  if (!items) return [];
  const calls: FoundCall[] = [];
  items.forEach((item, i) => {
    if (!isObject(item)) return;
    if (item.type === "function" && isObject(item.function) && typeof item.function.name === "string") {
      // A bare Chat Completions `tool_calls` array.
      calls.push(found(`tool_calls[${i}]`, String(item.id ?? `call_${i}`), item.function.name, item.function.arguments));
    } else if (item.type === "function_call" && typeof item.name === "string") {
      calls.push(found(`output[${i}]`, String(item.call_id ?? item.id ?? `call_${i}`), item.name, item.arguments));
    } else if (item.type === "tool_use" && typeof item.name === "string") {
      calls.push(found(`content[${i}]`, String(item.id ?? `toolu_${i}`), item.name, item.input ?? {}));
    }
  });
  return calls;
}

function found(at: string, id: string, name: string, args: unknown): FoundCall {
  return { id, name, arguments: args, where: `${at} (${name}, id ${id})` };
}

function parseArguments(value: unknown, where: string): unknown {
  if (typeof value !== "string") return value ?? {};
  if (value.trim() === "") return {};
  try {
    return JSON.parse(value) as unknown;
  } catch (error) {
    // The parser's reason tells text cut off at the token limit from text that is malformed.
    throw new ToolExportError(`${where}: arguments are not valid JSON (${(error as Error).message}): ${value.slice(0, 200)}`);
  }
}

/**
 * Runs each tool call as its flow, one after another, and returns the results keyed by tool-call
 * id (§4.9). A failing call becomes `{error}` content; the others still run.
 */
export async function dispatchToolCalls(document: LoadedAgentsJson | string | object, calls: ToolCall[] | unknown, options: RunOptions = {}): Promise<ToolCallResult[]> {
  const loaded = asLoaded(document);
  // Parsed calls have no `type`; Responses `function_call` items have name and (JSON-text) arguments too.
  const parsed = Array.isArray(calls) && calls.every((c) => isObject(c) && typeof c.name === "string" && "arguments" in c && !("type" in c));
  const list = parsed ? (calls as ToolCall[]).map((call, i) => found(`calls[${i}]`, call.id, call.name, call.arguments)) : readToolCalls(calls);
  const results: ToolCallResult[] = [];
  // Sources are read once for all the calls.
  const sources = options.sources ?? (await loadSources(loaded, options.resolver ? { resolver: options.resolver } : {}));
  for (const call of list) {
    try {
      // Parsed per call: every call id needs an answer, also when one call's JSON is broken.
      const run = await runFlow(loaded, call.name, parseArguments(call.arguments, call.where), { ...options, sources });
      results.push({ id: call.id, name: call.name, ok: true, content: JSON.stringify(run.result), run });
    } catch (error) {
      if (!(error instanceof FlowRunError) && !(error instanceof ToolExportError) && !(error instanceof Error)) throw error;
      results.push({ id: call.id, name: call.name, ok: false, content: JSON.stringify({ error: `${error.name}: ${error.message}` }), error });
    }
  }
  return results;
}
