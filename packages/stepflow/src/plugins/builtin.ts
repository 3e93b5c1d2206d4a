/**
 * The builtin components of 0.2.x (protocol notes §7.1), under the names they receive after
 * routing: `/eval`, `/map`, `/iterate`, `/put_blob`, `/get_blob`, `/create_messages`, `/load_file`.
 * Input that does not deserialise is an execution error; unknown input keys are ignored. `/openai`
 * (network, API key) is not provided.
 */
import { parseSourceDocument } from "@flowspec/runtime";
import { readTextFile, unreadableReason } from "@flowspec/runtime/files";
import { BlobNotFoundError } from "../blobs.js";
import type { Flow, FlowResult } from "../generated/index.js";
import { failed, success } from "../engine/result.js";
import { isObject } from "../values.js";
import { ComponentError } from "./errors.js";
import type { ComponentContext, Plugin } from "./types.js";

type Builtin = (input: Record<string, unknown>, context: ComponentContext, name: string) => Promise<FlowResult>;

const builtins: Record<string, Builtin> = {
  async "/eval"(input, context, name) {
    const workflow = field(input, "workflow", name) as Flow;
    const result = await context.evaluateFlow(workflow, field(input, "input", name));
    return success({ result, run_id: context.runId });
  },

  async "/map"(input, context, name) {
    const workflow = field(input, "workflow", name) as Flow;
    const items = field(input, "items", name);
    if (!Array.isArray(items)) throw new ComponentError(name, "items must be an array");
    const results = await Promise.all(items.map((item) => context.evaluateFlow(workflow, item)));
    const count = (outcome: FlowResult["outcome"]) => results.filter((r) => r.outcome === outcome).length;
    return success({ results, successful: count("success"), failed: count("failed"), skipped: count("skipped") });
  },

  async "/iterate"(input, context, name) {
    const flow = field(input, "flow", name) as Flow;
    let current = field(input, "initial_input", name);
    const max = input.max_iterations ?? 1000;
    if (typeof max !== "number" || !Number.isInteger(max) || max < 0 || max > 0xffffffff) {
      throw new ComponentError(name, "max_iterations must be an integer in 0…4294967295");
    }
    let iterations = 0;
    for (;;) {
      if (iterations >= max) return success({ result: current, iterations, terminated: true });
      const result = await context.evaluateFlow(flow, current);
      iterations++;
      if (result.outcome === "failed") return result;
      if (result.outcome === "skipped") return failed(400, "Workflow cannot be skipped during iteration");
      const value = result.result;
      if (isObject(value) && Object.hasOwn(value, "result")) return success({ result: value.result, iterations, terminated: false });
      if (isObject(value) && Object.hasOwn(value, "next")) {
        current = value.next;
        continue;
      }
      return failed(400, "Workflow result must contain either 'result' or 'next' field");
    }
  },

  async "/put_blob"(input, context, name) {
    const data = field(input, "data", name);
    return success({ blob_id: await context.blobs.put(data) });
  },

  async "/get_blob"(input, context, name) {
    const id = field(input, "blob_id", name);
    if (typeof id !== "string" || !/^[0-9a-fA-F]{64}$/.test(id)) throw new ComponentError(name, "blob_id must be 64 hexadecimal characters");
    try {
      return success({ data: await context.blobs.get(id) });
    } catch (error) {
      if (error instanceof BlobNotFoundError) throw new ComponentError(name, error.message, { cause: error });
      throw error;
    }
  },

  async "/create_messages"(input, _context, name) {
    const prompt = field(input, "user_prompt", name);
    if (typeof prompt !== "string") throw new ComponentError(name, "user_prompt must be a string");
    const system = input.system_instructions;
    if (system !== undefined && system !== null && typeof system !== "string") throw new ComponentError(name, "system_instructions must be a string or null");
    const messages = typeof system === "string" ? [{ role: "system", content: system }] : [];
    messages.push({ role: "user", content: prompt });
    return success({ messages });
  },

  async "/load_file"(input, context, name) {
    const path = field(input, "path", name);
    if (typeof path !== "string") throw new ComponentError(name, "path must be a string");
    const format = input.format ?? undefined;
    if (format !== undefined && format !== "json" && format !== "yaml" && format !== "text") {
      throw new ComponentError(name, 'format must be "json", "yaml" or "text"');
    }
    // node:path through process.getBuiltinModule, not import(): a browser bundle of this package
    // would otherwise have to resolve it (and fail), although no browser ever runs this component.
    const { isAbsolute, sep } = process.getBuiltinModule("node:path");
    // Joined as Rust's PathBuf::join does: appended, `..` and `.` kept (no canonicalisation).
    const base = context.workingDirectory ?? process.cwd();
    const resolved = isAbsolute(path) ? path : base.endsWith(sep) ? base + path : base + sep + path;
    let text: string;
    try {
      // Bounded (128 MiB), a regular file only, and UTF-8 or an error, as Rust's read_to_string.
      text = await readTextFile(resolved);
    } catch (error) {
      throw new ComponentError(name, `cannot read ${resolved}: ${unreadableReason(error)}`, { cause: error });
    }
    const actual = format ?? (/\.json$/i.test(path) ? "json" : /\.ya?ml$/i.test(path) ? "yaml" : "text");
    let data: unknown;
    try {
      // The runtime's parser: duplicate keys and deep nesting are errors, found in linear time;
      // floats keep their `.0` (serde_json's distinction), in JSON and YAML alike.
      data = actual === "text" ? text : parseSourceDocument(text, { file: resolved, format: actual, keepFloats: true }).value;
    } catch (error) {
      throw new ComponentError(name, `cannot parse ${resolved} as ${actual}: ${(error as Error).message}`, { cause: error });
    }
    return success({ data, metadata: { resolved_path: resolved, size_bytes: Buffer.byteLength(text), format: actual } });
  },
};

/** The names of the builtin components, as they are received after routing. */
export const BUILTIN_COMPONENTS: readonly string[] = Object.keys(builtins);

function field(input: Record<string, unknown>, key: string, name: string): unknown {
  if (!Object.hasOwn(input, key)) throw new ComponentError(name, `missing field \`${key}\``);
  return input[key];
}

/** The `builtin` plugin. */
export function builtinPlugin(): Plugin {
  return {
    kind: "builtin",
    serves: (component) => Object.hasOwn(builtins, component),
    async list() {
      return BUILTIN_COMPONENTS.map((component) => ({ component }));
    },
    async execute(component, input, context) {
      const builtin = Object.hasOwn(builtins, component) ? builtins[component] : undefined;
      if (!builtin) throw new ComponentError(component, `unknown builtin component (builtins: ${BUILTIN_COMPONENTS.join(", ")})`);
      if (!isObject(input)) throw new ComponentError(component, `the input must be an object, not ${JSON.stringify(input)}`);
      return builtin(input, context, component);
    },
  };
}
