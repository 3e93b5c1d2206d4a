/**
 * Fluent builders for create-run commands (protocol notes §2, §4.3), typed by `resourceType`: an
 * agent run takes messages, callable aliases and refs and ephemeral tools; a tool run takes
 * arguments and caller context; an MCP-server run takes client info and capabilities. A mismatched
 * input does not typecheck, and `build()` validates the command (including the if/then rule tying
 * `input.mode` to `resourceType`) and throws a ValidationError listing every problem.
 */
import { ValidationError } from "@flowspec/runtime";
import type {
  CallableRef,
  CreateRunCommand,
  EphemeralToolDescriptor,
  ExecutionProfile,
  RunPolicy,
  TaskInputMessage,
  TaskResourceType,
  WebhookSubscription,
} from "../generated/index.js";
import { validateCreateRunCommand, validateCreateRunCommandResponse, type CreateRunCommandOf, type InputOf } from "../validate.js";

export interface BuildOptions {
  /** Validate with the `strict` variant (closed provisional enums). Default: `response`, whose enums are open like the TS types. */
  strict?: boolean;
}

/** What every create-run builder has. */
export interface RunCommandBuilderBase<R extends TaskResourceType> {
  readonly resourceType: R;
  /** Replaces the whole input; its `mode` must be the builder's resource type. */
  input(input: InputOf<R>): this;
  /** Pins a resource revision instead of resolving a release channel. */
  revision(resourceRevisionId: string): this;
  /** The release channel to resolve the revision from (frozen on the run). */
  releaseChannel(releaseChannelId: string): this;
  thread(threadId: string): this;
  /** The caller's grouping key. */
  context(contextId: string): this;
  executionProfile(profile: ExecutionProfile): this;
  runPolicy(policy: RunPolicy): this;
  /** RFC 3339 date-time (a Date is converted). */
  deadline(at: string | Date): this;
  maxRetries(count: number): this;
  /** A run-scoped webhook subscription (§6). */
  webhook(subscription: WebhookSubscription): this;
  /** Makes create safe to repeat (and to retry): the same key and body return the same run. */
  idempotencyKey(key: string): this;
  /** The command, validated; throws ValidationError listing every problem. */
  build(options?: BuildOptions): CreateRunCommandOf<R>;
}

export interface AgentRunMethods {
  /** Appends a message (`role` is open: user, assistant, system, tool, …). */
  message(role: TaskInputMessage["role"], content: TaskInputMessage["content"], extra?: Omit<TaskInputMessage, "role" | "content">): this;
  messages(messages: TaskInputMessage[]): this;
  /** Selects the revision's callable refs by alias. */
  callableAliases(...aliases: string[]): this;
  /** Adds a callable ref; build it with `callable.local(…)` or `callable.granted(…)`. An alias already used throws a ValidationError. */
  callable(ref: CallableRef): this;
  /** Adds a tool that exists for this run only. A name already used throws a ValidationError. */
  ephemeralTool(tool: EphemeralToolDescriptor): this;
}

export interface ToolRunMethods {
  arguments(args: Record<string, unknown>): this;
  callerContext(context: Record<string, unknown>): this;
}

export interface McpServerRunMethods {
  clientInfo(info: Record<string, unknown>): this;
  clientCapabilities(capabilities: Record<string, unknown>): this;
  sessionContext(context: Record<string, unknown>): this;
  metadata(metadata: Record<string, unknown>): this;
}

export type RunCommandBuilder<R extends TaskResourceType> = RunCommandBuilderBase<R> &
  (R extends "agent" ? AgentRunMethods : R extends "tool" ? ToolRunMethods : R extends "mcp_server" ? McpServerRunMethods : never);

type Mutable = Record<string, unknown>;

// Every value is copied when it is passed, as input() does: a caller changing its object before
// build() must not change the command.
const copy = <T>(value: T): T => structuredClone(value);

const INITIAL_INPUT: Record<TaskResourceType, () => Mutable> = {
  agent: () => ({ mode: "agent", messages: [] }),
  tool: () => ({ mode: "tool", arguments: {} }),
  mcp_server: () => ({ mode: "mcp_server" }),
};

class Builder {
  readonly #command: Mutable;
  #input: Mutable;

  constructor(readonly resourceType: TaskResourceType, resourceId: string) {
    this.#command = { resourceType, resourceId };
    this.#input = INITIAL_INPUT[resourceType]();
  }

  #set(key: string, value: unknown): this {
    this.#command[key] = copy(value);
    return this;
  }
  #only(mode: TaskResourceType, method: string): void {
    if (this.resourceType !== mode) throw new TypeError(`${method}() is for ${mode} runs; this builder is for a ${this.resourceType} run`);
  }
  #list(key: string): unknown[] {
    const list = (this.#input[key] as unknown[] | undefined) ?? [];
    this.#input[key] = list;
    return list;
  }
  /** Appends an item whose `key` must be unique in the list: a tool name or alias is how the run refers to it. */
  #addNamed(listKey: string, key: "name" | "alias", item: object): this {
    const list = this.#list(listKey) as Mutable[];
    const name = (item as Mutable)[key];
    const taken = list.findIndex((other) => other?.[key] === name);
    if (taken >= 0) {
      const at = `/input/${listKey}`;
      throw new ValidationError("CreateRunCommand", [
        { path: `${at}/${list.length}/${key}`, message: `${JSON.stringify(name)} is already the ${key} of ${at}/${taken}`, keyword: "uniqueName", params: { [key]: name } },
      ]);
    }
    list.push(copy(item as Mutable));
    return this;
  }

  input(input: Mutable): this {
    // A copy, deep: later message(), callableAliases() … push into its arrays, never the caller's.
    this.#input = copy(input);
    return this;
  }
  revision(id: string) { return this.#set("resourceRevisionId", id); }
  releaseChannel(id: string) { return this.#set("releaseChannelId", id); }
  thread(id: string) { return this.#set("threadId", id); }
  context(id: string) { return this.#set("contextId", id); }
  executionProfile(profile: ExecutionProfile) { return this.#set("executionProfile", profile); }
  runPolicy(policy: RunPolicy) { return this.#set("runPolicy", policy); }
  // An invalid Date stays a string ("Invalid Date") so build() reports it at /deadlineAt, not as a RangeError here.
  deadline(at: string | Date) { return this.#set("deadlineAt", !(at instanceof Date) ? at : Number.isNaN(at.getTime()) ? String(at) : at.toISOString()); }
  maxRetries(count: number) { return this.#set("maxRetries", count); }
  webhook(subscription: WebhookSubscription) { return this.#set("webhook", subscription); }
  idempotencyKey(key: string) { return this.#set("idempotencyKey", key); }

  message(role: string, content: TaskInputMessage["content"], extra: Mutable = {}): this {
    this.#only("agent", "message");
    this.#list("messages").push(copy({ ...extra, role, content }));
    return this;
  }
  messages(messages: TaskInputMessage[]): this {
    this.#only("agent", "messages");
    const list = this.#list("messages");
    for (const message of copy(messages)) list.push(message);
    return this;
  }
  callableAliases(...aliases: string[]): this {
    this.#only("agent", "callableAliases");
    const list = this.#list("callableAliases");
    for (const alias of aliases) list.push(alias);
    return this;
  }
  callable(ref: CallableRef): this {
    this.#only("agent", "callable");
    return this.#addNamed("additionalCallableRefs", "alias", ref);
  }
  ephemeralTool(tool: EphemeralToolDescriptor): this {
    this.#only("agent", "ephemeralTool");
    return this.#addNamed("ephemeralTools", "name", tool);
  }
  arguments(args: Mutable): this {
    this.#only("tool", "arguments");
    this.#input.arguments = copy(args);
    return this;
  }
  callerContext(context: Mutable): this {
    this.#only("tool", "callerContext");
    this.#input.callerContext = copy(context);
    return this;
  }
  clientInfo(info: Mutable): this {
    this.#only("mcp_server", "clientInfo");
    this.#input.clientInfo = copy(info);
    return this;
  }
  clientCapabilities(capabilities: Mutable): this {
    this.#only("mcp_server", "clientCapabilities");
    this.#input.clientCapabilities = copy(capabilities);
    return this;
  }
  sessionContext(context: Mutable): this {
    this.#only("mcp_server", "sessionContext");
    this.#input.sessionContext = copy(context);
    return this;
  }
  metadata(metadata: Mutable): this {
    this.#only("mcp_server", "metadata");
    this.#input.metadata = copy(metadata);
    return this;
  }

  build(options: BuildOptions = {}): CreateRunCommand {
    const command = structuredClone({ ...this.#command, input: this.#input });
    const result = (options.strict ? validateCreateRunCommand : validateCreateRunCommandResponse)(command);
    if (!result.ok) throw new ValidationError("CreateRunCommand", result.errors);
    return result.value;
  }
}

/** A builder for a create-run command of the given resource type. */
export function createRun<R extends TaskResourceType>(resourceType: R, resourceId: string): RunCommandBuilder<R> {
  if (!Object.hasOwn(INITIAL_INPUT, resourceType)) throw new TypeError(`resourceType must be agent, tool or mcp_server, not ${JSON.stringify(resourceType)}`);
  return new Builder(resourceType, resourceId) as unknown as RunCommandBuilder<R>;
}

/** `createRun("agent", agentId)`. */
export const agentRun = (agentId: string): RunCommandBuilder<"agent"> => createRun("agent", agentId);
/** `createRun("tool", toolId)`. */
export const toolRun = (toolId: string): RunCommandBuilder<"tool"> => createRun("tool", toolId);
/** `createRun("mcp_server", mcpServerId)`. */
export const mcpServerRun = (mcpServerId: string): RunCommandBuilder<"mcp_server"> => createRun("mcp_server", mcpServerId);
