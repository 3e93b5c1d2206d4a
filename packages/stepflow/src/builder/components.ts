/** Typed component names for the builder, and TypeScript components for the engine. */
import type { ComponentFunction } from "../plugins/functions.js";
import type { Flow, FlowResult } from "../generated/index.js";
import type { FlowBuilder } from "./flow-builder.js";

declare const IO: unique symbol;

/** A component name with its input and output types, for typed steps. */
export interface Component<I, O> {
  readonly name: string;
  readonly [IO]?: { input: I; output: O };
}

/** A component written in TypeScript: a typed name and the function that serves it in-process. */
export interface ComponentDefinition<I, O> extends Component<I, O> {
  readonly fn: ComponentFunction<I, O>;
}

/** Types a component name: `defineComponent<{ n: number }, { doubled: number }>("/ts/double")`. */
export function defineComponent<I, O>(name: string): Component<I, O>;
/** A TypeScript component: its name (as steps write it) and its function; types come from the function. */
export function defineComponent<I, O>(name: string, fn: (input: I, context: Parameters<ComponentFunction>[1]) => O | Promise<O>): ComponentDefinition<I, Awaited<O>>;
export function defineComponent(name: string, fn?: ComponentFunction): Component<unknown, unknown> | ComponentDefinition<unknown, unknown> {
  return fn ? { name, fn } : { name };
}

/** The `components` option of `runFlow`/`createRouter` for TypeScript components. */
export function componentTable(...definitions: ComponentDefinition<any, any>[]): Record<string, ComponentFunction> {
  const table: Record<string, ComponentFunction> = {};
  for (const d of definitions) {
    if (Object.hasOwn(table, d.name)) throw new Error(`two components are named ${JSON.stringify(d.name)}`);
    table[d.name] = d.fn;
  }
  return table;
}

/** A nested flow for `/eval`, `/map`, `/iterate`: a built `Flow` or a builder (emitted under `$literal`). */
export type NestedFlow = Flow | FlowBuilder<any, any>;

export interface Message {
  role: "system" | "user" | "assistant";
  content: string;
}

/**
 * The builtin components (protocol notes §7.1), typed, under a route prefix (default `/builtin`, as in
 * a config with `"/builtin/{*component}"`).
 */
export function builtins(prefix = "/builtin") {
  const c = <I, O>(name: string) => defineComponent<I, O>(`${prefix}${name}`);
  return {
    eval: c<{ workflow: NestedFlow; input: unknown; workflow_hash?: string }, { result: FlowResult; run_id: string }>("/eval"),
    map: c<{ workflow: NestedFlow; items: unknown[] }, { results: FlowResult[]; successful: number; failed: number; skipped: number }>("/map"),
    iterate: c<{ flow: NestedFlow; initial_input: unknown; max_iterations?: number }, { result: unknown; iterations: number; terminated: boolean }>("/iterate"),
    putBlob: c<{ data: unknown }, { blob_id: string }>("/put_blob"),
    getBlob: c<{ blob_id: string }, { data: unknown }>("/get_blob"),
    createMessages: c<{ user_prompt: string; system_instructions?: string | null }, { messages: Message[] }>("/create_messages"),
    loadFile: c<{ path: string; format?: "json" | "yaml" | "text" }, { data: unknown; metadata: { resolved_path: string; size_bytes: number; format: "json" | "yaml" | "text" } }>("/load_file"),
  };
}
