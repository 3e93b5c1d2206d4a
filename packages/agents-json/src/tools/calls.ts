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
  if (isObject(reply) && Array.isArray(reply.choices)) return parseToolCalls((reply.choices[0] as Json | undefined)?.message);
  if (isObject(reply) && Array.isArray(reply.tool_calls)) {
    return reply.tool_calls.map((call, i) => {
      const fn = isObject(call) && isObject(call.function) ? call.function : undefined;
      if (!fn || typeof fn.name !== "string") throw new ToolExportError(`tool_calls[${i}] has no function name`);
      return { id: String((call as Json).id ?? `call_${i}`), name: fn.name, arguments: parseArguments(fn.arguments, `tool_calls[${i}]`) };
    });
  }
  const items = Array.isArray(reply) ? reply : isObject(reply) && Array.isArray(reply.output) ? reply.output : isObject(reply) && Array.isArray(reply.content) ? reply.content : undefined;
  if (!items) return [];
  const calls: ToolCall[] = [];
  items.forEach((item, i) => {
    if (!isObject(item)) return;
    if (item.type === "function" && isObject(item.function) && typeof item.function.name === "string") {
      // A bare Chat Completions `tool_calls` array.
      calls.push({ id: String(item.id ?? `call_${i}`), name: item.function.name, arguments: parseArguments(item.function.arguments, `tool_calls[${i}]`) });
    } else if (item.type === "function_call" && typeof item.name === "string") {
      calls.push({ id: String(item.call_id ?? item.id ?? `call_${i}`), name: item.name, arguments: parseArguments(item.arguments, `output[${i}]`) });
    } else if (item.type === "tool_use" && typeof item.name === "string") {
      calls.push({ id: String(item.id ?? `toolu_${i}`), name: item.name, arguments: item.input ?? {} });
    }
  });
  return calls;
}

function parseArguments(value: unknown, where: string): unknown {
  if (typeof value !== "string") return value ?? {};
  if (value.trim() === "") return {};
  try {
    return JSON.parse(value) as unknown;
  } catch {
    throw new ToolExportError(`${where}: arguments are not valid JSON: ${value.slice(0, 200)}`);
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
  const list = parsed ? (calls as ToolCall[]) : parseToolCalls(calls);
  const results: ToolCallResult[] = [];
  // Sources are read once for all the calls.
  const sources = options.sources ?? (await loadSources(loaded, options.resolver ? { resolver: options.resolver } : {}));
  for (const call of list) {
    try {
      const run = await runFlow(loaded, call.name, call.arguments, { ...options, sources });
      results.push({ id: call.id, name: call.name, ok: true, content: JSON.stringify(run.result), run });
    } catch (error) {
      if (!(error instanceof FlowRunError) && !(error instanceof ToolExportError) && !(error instanceof Error)) throw error;
      results.push({ id: call.id, name: call.name, ok: false, content: JSON.stringify({ error: `${error.name}: ${error.message}` }), error });
    }
  }
  return results;
}
