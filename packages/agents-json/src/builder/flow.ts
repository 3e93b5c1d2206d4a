import type { Mode } from "../diagnostics.js";
import { AgentsJsonBuildError } from "../errors.js";
import { splitFieldPath } from "../fieldpath.js";
import type { Compat } from "../validate.js";

/** Where a link reads (§3.3): a flow input, the flow body, an earlier action's response or inputs. */
export type LinkOrigin<Actions extends string, Params extends string> =
  | { input: Params }
  | { inputBody: true | string }
  | { response: Actions; path?: string }
  | { actionParameter: Actions; name: string }
  | { actionBody: Actions; path?: string };

/** Where a link writes: an action's parameter or body, or the flow result (`responses.success…`). */
export type LinkTarget<Actions extends string> = { action: Actions; parameter: string } | { action: Actions; body: true | string } | { output: true | string };

export interface ParameterOptions {
  type?: "string" | "integer" | "number" | "boolean" | "array" | "object";
  description?: string;
  required?: boolean;
  /** Compat-mode only (D4): emitted only when the document builder is in compat mode. */
  enum?: unknown[];
  default?: unknown;
  items?: Record<string, unknown>;
  properties?: Record<string, unknown>;
}

export interface RequestBodyOptions {
  schema: Record<string, unknown>;
  mediaType?: string;
  required?: boolean;
  example?: Record<string, unknown>;
}

/** A key that a fieldPath can address: no dot outside brackets, no empty key, never `__proto__` (§3.4). */
export function assertAddressable(key: string, what: string): void {
  const split = splitFieldPath(key);
  if (!("segments" in split) || split.segments.length !== 1) {
    throw new AgentsJsonBuildError(`${what} "${key}" cannot be addressed by a fieldPath (no dots outside brackets, not empty, never __proto__)`);
  }
}

function assertPath(path: string, what: string): void {
  const split = splitFieldPath(path);
  if (!("segments" in split)) throw new AgentsJsonBuildError(`${what}: ${split.message}`);
}

/**
 * Builds one flow. The type parameters collect the source ids, action ids and parameter names
 * declared so far, so a link to an unknown action or input does not compile.
 */
export class FlowBuilder<Sources extends string, Actions extends string = never, Params extends string = never> {
  readonly #flow: Compat.Flow & { links: Compat.Link[] };
  readonly #mode: Mode;

  constructor(id: string, title: string, description: string, mode: Mode) {
    this.#flow = { id, title, description, actions: [], links: [], fields: { parameters: [], responses: { success: { type: "object" } } } };
    this.#mode = mode;
  }

  /** A flow input parameter (`fields.parameters[]`). */
  parameter<Name extends string>(name: Name, options: ParameterOptions = {}): FlowBuilder<Sources, Actions, Params | Name> {
    assertAddressable(name, `flow "${this.#flow.id}": parameter`);
    const { enum: values, default: fallback, items, properties, ...plain } = options;
    const extras = { enum: values, default: fallback, items, properties };
    const present = Object.entries(extras).filter(([, value]) => value !== undefined);
    if (present.length > 0 && this.#mode !== "compat") {
      throw new AgentsJsonBuildError(
        `flow "${this.#flow.id}": parameter "${name}" uses ${present.map(([k]) => k).join(", ")}, which the canonical schema does not allow (defect D4); build in compat mode to emit them`,
      );
    }
    this.#flow.fields.parameters.push({ name, ...plain, ...Object.fromEntries(present) });
    return this as unknown as FlowBuilder<Sources, Actions, Params | Name>;
  }

  /** The flow request body (never emitted as null, D3). */
  requestBody(options: RequestBodyOptions): this {
    const media: { schema: Record<string, unknown>; example?: Record<string, unknown> } = { schema: options.schema };
    if (options.example) media.example = options.example;
    this.#flow.fields.requestBody = { content: { [options.mediaType ?? "application/json"]: media }, ...(options.required === undefined ? {} : { required: options.required }) };
    return this;
  }

  /** `fields.responses` (documentation only; default `{success: {type: "object"}}`). */
  responses(success: Record<string, unknown>, example?: Record<string, unknown>): this {
    this.#flow.fields.responses = { success, ...(example ? { example } : {}) };
    return this;
  }

  /** An action: one operation of a source. Its id must differ from the flow id (§3.2). */
  action<Id extends string>(id: Id, sourceId: Sources, operationId: string): FlowBuilder<Sources, Actions | Id, Params> {
    if (id === (this.#flow.id as string)) throw new AgentsJsonBuildError(`flow "${this.#flow.id}": an action id must not equal the flow id (it could never be addressed)`);
    this.#flow.actions.push({ id, sourceId, operationId });
    return this as unknown as FlowBuilder<Sources, Actions | Id, Params>;
  }

  /** A link; flow-level data is always addressed with the flow id (§3.2 rule (a)). */
  link(from: LinkOrigin<Actions, Params>, to: LinkTarget<Actions>): this {
    const flowId = this.#flow.id;
    // A parameter name is one key: "user.id" would silently address parameters.user.id (§3.4).
    if ("actionParameter" in from) assertAddressable(from.name, `flow "${flowId}": link origin parameter`);
    if ("parameter" in to) assertAddressable(to.parameter, `flow "${flowId}": link target parameter`);
    const join = (root: string, rest: true | string | undefined) => (rest === true || rest === undefined ? root : `${root}.${rest}`);
    let origin: Compat.LinkEndpoint;
    if ("input" in from) origin = { actionId: flowId, fieldPath: `parameters.${from.input}` };
    else if ("inputBody" in from) origin = { actionId: flowId, fieldPath: join("requestBody", from.inputBody) };
    else if ("response" in from) origin = { actionId: from.response, fieldPath: join("responses.success", from.path) };
    else if ("actionParameter" in from) origin = { actionId: from.actionParameter, fieldPath: `parameters.${from.name}` };
    else origin = { actionId: from.actionBody, fieldPath: join("requestBody", from.path) };
    let target: Compat.LinkEndpoint1;
    if ("output" in to) target = { actionId: flowId, fieldPath: join("responses.success", to.output) };
    else if ("parameter" in to) target = { actionId: to.action, fieldPath: `parameters.${to.parameter}` };
    else target = { actionId: to.action, fieldPath: join("requestBody", to.body) };
    assertPath(origin.fieldPath, `flow "${flowId}": link origin`);
    assertPath(target.fieldPath, `flow "${flowId}": link target`);
    this.#flow.links.push({ origin, target });
    return this;
  }

  /** The flow object (internal: the document builder validates it). */
  toJSON(): Compat.Flow {
    return structuredClone(this.#flow);
  }
}
