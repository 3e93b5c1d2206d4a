import type { BlobStore } from "../blobs.js";
import type { ComponentInfo, Flow, FlowResult } from "../generated/index.js";

/** What a component sees of the run that calls it. */
export interface ComponentContext {
  /** The id of the run (a UUID); nested runs have their own. */
  readonly runId: string;
  /** The id of the step being executed. */
  readonly stepId: string;
  /** Aborted when the run is cancelled or stops on an execution error. */
  readonly signal: AbortSignal;
  /** The blob store of the engine (shared by every run and nested run). */
  readonly blobs: BlobStore;
  /** The working directory of the config (protocol notes §4.4), if any. */
  readonly workingDirectory: string | undefined;
  /**
   * Runs a flow as a separate nested run in the same engine (same plugins, same blob store) and
   * resolves to its whole `FlowResult` (`failed` and `skipped` included). Rejects with
   * `InvalidFlowError` for a flow the runtime would not read (e.g. without `schema`). The nested
   * run stops when `options.signal` aborts; by default, when this run stops.
   */
  evaluateFlow(flow: Flow, input: unknown, options?: { signal?: AbortSignal }): Promise<FlowResult>;
}

/**
 * A source of components: the builtins, the mock plugin, in-process TypeScript functions, and
 * (through a plugin kind registered by the caller) external component servers.
 */
export interface Plugin {
  /** The plugin type, as in a stepflow-config (`builtin`, `mock`, `stepflow`, `functions`, …). */
  readonly kind: string;
  /**
   * Executes a component by the name it receives after routing (e.g. `/udf`). Resolves to the step's
   * result: `success`, or a `failed`/`skipped` step result where the plugin can report one (mock,
   * `/iterate`). Rejects for an execution error (`step "<id>" failed`).
   */
  execute(component: string, input: unknown, context: ComponentContext): Promise<FlowResult>;
  /** Called once, lazily, before the first `execute` (upstream initialises every plugin eagerly). */
  init?(): Promise<void>;
  /**
   * Why this plugin cannot run on this machine (e.g. its command is not installed), or `undefined`.
   * The test runner skips cases that need an unavailable plugin.
   */
  unavailableReason?(): Promise<string | undefined>;
  /** Whether the plugin knows a component, when it can tell without running it. */
  serves?(component: string): boolean;
  /** The components the plugin serves, for listing. */
  list?(): Promise<ComponentInfo[]>;
  close?(): Promise<void>;
}

/** Where a plugin is created: the working directory and the environment for substitutions. */
export interface PluginEnvironment {
  workingDirectory: string | undefined;
  env: Readonly<Record<string, string | undefined>>;
}

/** Creates a plugin of one `type` from its stepflow-config entry. */
export type PluginFactory = (name: string, config: Record<string, unknown>, environment: PluginEnvironment) => Plugin;
