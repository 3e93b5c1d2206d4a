/**
 * The typed flow builder (protocol notes §9). Steps return typed handles; references come only from
 * handles (`step.ref()`, `step.ref("field")`, `step.ref("$.items[0]")`) or `input()`, so they name
 * earlier steps. `build()` emits camelCase keys, `schema`, and paths in `$`-form, wraps nested flows
 * in `$literal`, and returns only a flow that passes the generated `Flow` validator and `checkFlow`.
 */
import { checkFlow } from "../check.js";
import { schemaDiagnostics, type Diagnostic, type DiagnosticRule } from "../diagnostics.js";
import { readFlow, parseFlow } from "../flow-document.js";
import type { ExampleInput, Flow, FlowResult, Reference, Schema, TestCase, TestServerConfig } from "../generated/index.js";
import { normalizePath } from "../path.js";
import { validateFlow } from "../validate.js";
import { isObject } from "../values.js";
import type { Component } from "./components.js";
import type { PathValue, ValidPath } from "./path-types.js";
import { Literal, Ref, refSegments } from "./ref.js";
import { isErrorInstance } from "@flowspec/runtime";

export const FLOW_SCHEMA = "https://stepflow.org/schemas/v1/flow.json" as const;

/** What may stand where a value of type `T` is expected: the value, a reference to one, or a mix. */
export type TemplateOf<T> =
  | Ref<T>
  | Literal<T>
  | (T extends Flow | FlowBuilder<any, any>
      ? T
      : T extends readonly unknown[]
        ? { [K in keyof T]: TemplateOf<T[K]> }
        : T extends object
          ? { [K in keyof T]: TemplateOf<T[K]> }
          : T);

/** `onError` policies. `retry` is accepted by 0.2.x but behaves exactly as `fail` (no retries happen). */
export const onError = {
  fail: () => ({ action: "fail" }) as const,
  skip: () => ({ action: "skip" }) as const,
  /** On a step failure, the step succeeds with `value` (a template, resolved at that moment), or `null`. */
  useDefault: (value?: TemplateOf<unknown>) => (value === undefined ? ({ action: "useDefault" } as const) : ({ action: "useDefault", defaultValue: value } as const)),
  /** Emitted as `{action: retry}`; the 0.2.x runtime treats it as `fail`. */
  retry: () => ({ action: "retry" }) as const,
};

export type OnErrorPolicy = ReturnType<(typeof onError)[keyof typeof onError]> | { action: "useDefault"; defaultValue?: unknown };

/**
 * A step's id, input and policies. `input` may be left out only when the component takes `null`
 * (a step without input passes `null`), so a typed component's input cannot be forgotten.
 */
export type StepSpec<I> = StepOptions & (null extends I ? { input?: TemplateOf<I> } : { input: TemplateOf<I> });

export interface StepOptions {
  id: string;
  /** Skip the step when this resolves to a truthy value (`null`, `[]` and `{}` are truthy; `false`, `0`, `""` are not). */
  skipIf?: Ref<unknown> | Literal<unknown> | boolean | number | string | null;
  onError?: OnErrorPolicy;
  inputSchema?: Schema | null;
  outputSchema?: Schema | null;
}

/** A step that has been added: the only way to reference its result. */
export class StepHandle<O> {
  /** @internal */
  constructor(
    readonly id: string,
    /** @internal */ readonly index: number,
    /** @internal */ readonly owner: object,
  ) {}

  /** The step's whole result. */
  ref(): Ref<O>;
  /** A field of the result (`"name"`, taken as one key), or a `$`-path (`"$.items[0].name"`). */
  ref<P extends string>(path: P & ValidPath<O, P>): Ref<PathValue<O, P>>;
  ref(path?: string): Ref<unknown> {
    return new Ref({ kind: "step", id: this.id, index: this.index, owner: this.owner }, refSegments(path));
  }
}

/** A flow the builder refuses: what is wrong, each with a JSON Pointer into the emitted flow (and `file:line:column` for a loaded text). */
export class FlowBuildError extends Error {
  static readonly "~brand": string = "@flowspec/stepflow:FlowBuildError";
  static override [Symbol.hasInstance](value: unknown): boolean {
    return isErrorInstance(this, value);
  }
  override name = "FlowBuildError";
  constructor(readonly issues: readonly { path: string; message: string; location?: string }[]) {
    super(`cannot build the flow:\n${issues.map((i) => `  ${i.location ? `${i.location} ` : ""}${i.path || "(root)"}: ${i.message}`).join("\n")}`);
  }
}

type Issue = { rule: DiagnosticRule; path: string; message: string };

/** Builders being emitted, so a builder nested in itself is an error rather than endless recursion. */
const emitting = new Set<object>();

interface StepState {
  id: string;
  component: string;
  fields: Record<string, unknown>;
  /** Read by `load`: a document, whose flow-shaped objects are templates (not auto-wrapped in `$literal`). */
  loaded: boolean;
}

type Meta = Partial<Record<"name" | "description" | "version", string | null>> & Partial<Record<"inputSchema" | "outputSchema", Schema | null>>;

const STEP_KEYS = new Set(["id", "component", "input", "skipIf", "onError", "inputSchema", "outputSchema", "input_schema", "output_schema"]);
const FLOW_KEYS = new Set(["schema", "name", "description", "version", "inputSchema", "outputSchema", "steps", "output", "test", "examples", "input_schema", "output_schema"]);

export class FlowBuilder<In = any, Out = unknown> {
  private readonly steps: StepState[] = [];
  private readonly meta: Meta = {};
  private outputTemplate: { value: unknown; loaded?: boolean } | undefined;
  private testSection: Record<string, unknown> | null | undefined;
  private exampleList: ExampleInput[] | undefined;
  /** Keys the runtime ignores, kept from a loaded flow (snake_case schemas excepted). */
  private extra: Record<string, unknown> = {};
  private readonly handles = new Map<string, StepHandle<any>>();

  constructor(meta: Meta = {}) {
    Object.assign(this.meta, meta);
  }

  /**
   * Reads an existing flow (YAML or JSON text, or a parsed value) into a builder, to change or
   * re-emit it. Refuses a flow the runtime would refuse (no `schema`, malformed references, empty or
   * duplicate step ids), with `file:line:column` for a text. Its templates are kept as written.
   */
  static load(flow: string | unknown, options: { file?: string; format?: "json" | "yaml" } = {}): FlowBuilder<any, any> {
    const document = typeof flow === "string" ? parseFlow(flow, options) : { flow: readFlow(flow), source: undefined };
    const value: Flow = document.flow;
    const builder = new FlowBuilder<any, any>();
    for (const key of ["name", "description", "version", "inputSchema", "outputSchema"] as const) if (key in value) builder.meta[key] = value[key] as never;
    try {
      value.steps.forEach((step) => {
        const fields: Record<string, unknown> = {};
        for (const [key, field] of Object.entries(step)) if (key !== "id" && key !== "component" && key !== "input_schema" && key !== "output_schema") setKey(fields, key, field);
        builder.pushStep(step.id, step.component, fields, true);
      });
    } catch (error) {
      // Empty or duplicate ids: point into the text, as the parse and schema errors do.
      if (!(error instanceof FlowBuildError) || !document.source) throw error;
      const source = document.source;
      throw new FlowBuildError(error.issues.map((issue) => ({ ...issue, location: source.describe(issue.path) })));
    }
    if ("output" in value) builder.outputTemplate = { value: value.output, loaded: true };
    if ("test" in value) builder.testSection = value.test === null ? null : { ...(value.test as Record<string, unknown>) };
    if ("examples" in value) builder.exampleList = value.examples;
    for (const [key, field] of Object.entries(value)) if (!FLOW_KEYS.has(key)) setKey(builder.extra, key, field);
    return builder;
  }

  name(name: string): this {
    this.meta.name = name;
    return this;
  }

  description(description: string): this {
    this.meta.description = description;
    return this;
  }

  version(version: string): this {
    this.meta.version = version;
    return this;
  }

  /** The JSON Schema of the input (informational: the runtime does not validate inputs). */
  inputSchema(schema: Schema): this {
    this.meta.inputSchema = schema;
    return this;
  }

  outputSchema(schema: Schema): this {
    this.meta.outputSchema = schema;
    return this;
  }

  /** A reference to the run input, or to a field (`"name"`) or `$`-path (`"$.items[0]"`) of it. */
  input(): Ref<In>;
  input<P extends string>(path: P & ValidPath<In, P>): Ref<PathValue<In, P>>;
  input(path?: string): Ref<unknown> {
    return new Ref({ kind: "input" }, refSegments(path));
  }

  /** Adds a step calling a typed component; returns its handle, typed by the component's output. */
  addStep<I, O>(component: Component<I, O>, spec: StepSpec<I>): StepHandle<O>;
  /** Adds a step calling a component by name; type its output with the type parameter. */
  addStep<O = any>(component: string, spec: StepSpec<any>): StepHandle<O>;
  addStep(component: string | Component<unknown, unknown>, spec: StepSpec<unknown>): StepHandle<unknown> {
    const fields: Record<string, unknown> = {};
    for (const key of ["inputSchema", "outputSchema", "skipIf", "onError", "input"] as const) if (spec[key] !== undefined) fields[key] = spec[key];
    return this.pushStep(spec.id, typeof component === "string" ? component : component.name, fields);
  }

  /** The handle of a step already in the builder (e.g. one read by `load`). */
  step<O = any>(id: string): StepHandle<O> {
    const handle = this.handles.get(id);
    if (!handle) throw new Error(`no step ${JSON.stringify(id)} in this flow (steps: ${[...this.handles.keys()].join(", ") || "none"})`);
    return handle;
  }

  /** The flow's output template (default `null`). */
  output<T>(template: TemplateOf<T>): FlowBuilder<In, T> {
    this.outputTemplate = { value: template };
    return this as unknown as FlowBuilder<In, T>;
  }

  /** Adds a test case (`stepflow test`): an input and the expected `FlowResult`. */
  testCase(testCase: { name: string; description?: string; input: In; output?: FlowResult }): this {
    const test = (this.testSection ??= {});
    test.cases = [...((test.cases as TestCase[] | undefined) ?? []), testCase as TestCase];
    return this;
  }

  /** The stepflow-config `stepflow test` uses for this flow (emitted as `test.config`). */
  testConfig(config: unknown): this {
    (this.testSection ??= {}).config = config;
    return this;
  }

  /** A component server `stepflow test` starts for this flow (emitted under `test.servers`). */
  testServer(name: string, server: TestServerConfig): this {
    const test = (this.testSection ??= {});
    test.servers = { ...((test.servers as Record<string, TestServerConfig> | undefined) ?? {}), [name]: server };
    return this;
  }

  /** Adds an example input (for UIs). */
  example(example: ExampleInput): this {
    this.exampleList = [...(this.exampleList ?? []), example];
    return this;
  }

  /** The emitted flow, with every diagnostic `checkFlow` finds (errors and warnings), without throwing. */
  check(): { flow: Flow; diagnostics: Diagnostic[] } {
    const issues: Issue[] = [];
    const flow = this.emit(issues);
    const diagnostics = [...issues.map((issue) => ({ level: "error" as const, ...issue })), ...withoutRepeats(issues, checkFlow(flow))];
    return { flow, diagnostics };
  }

  /**
   * The flow document. Throws `FlowBuildError` when a reference names a step of another builder or
   * a later step, or when the result fails the generated `Flow` validator or `checkFlow` (errors).
   */
  build(): Flow {
    const issues: Issue[] = [];
    const flow = this.emit(issues);
    if (issues.length > 0) throw new FlowBuildError(issues);
    const validation = validateFlow(flow);
    if (!validation.ok) throw new FlowBuildError(validation.errors);
    const errors = checkFlow(flow).filter((d) => d.level === "error");
    if (errors.length > 0) throw new FlowBuildError(errors);
    return flow;
  }

  private pushStep(id: string, component: string, fields: Record<string, unknown>, loaded = false): StepHandle<unknown> {
    if (typeof id !== "string" || id.trim() === "") throw new FlowBuildError([{ path: `/steps/${this.steps.length}/id`, message: "step id must not be empty or whitespace" }]);
    if (this.handles.has(id)) {
      throw new FlowBuildError([{ path: `/steps/${this.steps.length}/id`, message: `duplicate step id ${JSON.stringify(id)} (first defined at /steps/${this.handles.get(id)!.index})` }]);
    }
    const handle = new StepHandle<unknown>(id, this.steps.length, this);
    this.steps.push({ id, component, fields, loaded });
    this.handles.set(id, handle);
    return handle;
  }

  private emit(issues: Issue[]): Flow {
    emitting.add(this);
    try {
      return this.emitFlow(issues);
    } finally {
      emitting.delete(this);
    }
  }

  private emitFlow(issues: Issue[]): Flow {
    const flow: Record<string, unknown> = { schema: FLOW_SCHEMA };
    for (const key of ["name", "description", "version", "inputSchema", "outputSchema"] as const) if (this.meta[key] !== undefined) flow[key] = this.meta[key];
    flow.steps = this.steps.map((step, index) => {
      const at = `/steps/${index}`;
      const out: Record<string, unknown> = { id: step.id, component: step.component };
      const f = step.fields;
      if (f.inputSchema !== undefined) out.inputSchema = f.inputSchema;
      if (f.outputSchema !== undefined) out.outputSchema = f.outputSchema;
      if (f.skipIf !== undefined) out.skipIf = this.expr(f.skipIf, `${at}/skipIf`, index, issues);
      if (f.onError !== undefined) out.onError = this.errorPolicy(f.onError, `${at}/onError`, issues, step.loaded);
      if (f.input !== undefined) out.input = this.template(f.input, `${at}/input`, index, issues, step.loaded);
      for (const [key, value] of Object.entries(f)) if (!STEP_KEYS.has(key)) setKey(out, key, value);
      return out;
    });
    if (this.outputTemplate) flow.output = this.template(this.outputTemplate.value, "/output", undefined, issues, this.outputTemplate.loaded);
    if (this.testSection !== undefined) flow.test = emitTest(this.testSection);
    if (this.exampleList !== undefined) flow.examples = this.exampleList;
    for (const [key, value] of Object.entries(this.extra)) if (!Object.hasOwn(flow, key)) setKey(flow, key, value);
    return flow as Flow;
  }

  /** A ValueTemplate position. `before` is the index of the step whose input this is (references must be earlier). */
  private template(value: unknown, at: string, before: number | undefined, issues: Issue[], loaded = false): unknown {
    if (value instanceof Ref) return this.reference(value, at, before, issues);
    if (value instanceof Literal) return value.value instanceof FlowBuilder ? this.nested(value.value, at, issues) : plainData(value.value, `${at}/$literal`, issues);
    if (value instanceof FlowBuilder) return this.nested(value, at, issues);
    if (value instanceof StepHandle) return this.reference(value.ref(), at, before, issues);
    if (Array.isArray(value)) return value.map((item, i) => this.template(item, `${at}/${i}`, before, issues, loaded));
    if (!isObject(value)) return value;
    if (Object.hasOwn(value, "$from")) return rawReference(value);
    if (Object.hasOwn(value, "$literal")) return { $literal: value.$literal };
    // A built Flow given to the builder is data; in a loaded document the same object is a template,
    // and wrapping it would change what the flow does.
    if (!loaded && value.schema === FLOW_SCHEMA && Array.isArray(value.steps)) return { $literal: value };
    const out: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value)) {
      Object.defineProperty(out, key, { value: this.template(item, `${at}/${escape(key)}`, before, issues, loaded), enumerable: true, writable: true, configurable: true });
    }
    return out;
  }

  /**
   * A builder used as data, under `$literal`. Its errors are reported at their place in this flow
   * (`at/$literal/...`) rather than thrown with pointers into the nested flow alone.
   */
  private nested(builder: FlowBuilder<any, any>, at: string, issues: Issue[]): unknown {
    if (emitting.has(builder)) {
      issues.push({ rule: "self-reference", path: at, message: "the flow contains itself (a flow cannot be nested in itself as data)" });
      return { $literal: null };
    }
    const inner: Issue[] = [];
    const flow = builder.emit(inner);
    const validation = validateFlow(flow);
    // checkFlow (top level) also reports schema errors and the static rules of nested flows of nested flows.
    const errors = validation.ok ? checkFlow(flow).filter((d) => d.level === "error") : schemaDiagnostics(validation.errors);
    const prefix = `${at}/$literal`;
    for (const issue of [...inner, ...withoutRepeats(inner, errors)]) issues.push({ rule: issue.rule, path: prefix + issue.path, message: issue.message });
    return { $literal: flow };
  }

  /** An Expr position (`skipIf`): only the top level is a reference or an escaped literal. */
  private expr(value: unknown, at: string, before: number, issues: Issue[]): unknown {
    if (value instanceof Ref) return this.reference(value, at, before, issues);
    if (value instanceof Literal) return plainData(value.value, `${at}/$literal`, issues);
    if (isObject(value) && Object.hasOwn(value, "$from")) return rawReference(value);
    return value;
  }

  private errorPolicy(value: unknown, at: string, issues: Issue[], loaded?: boolean): unknown {
    if (!isObject(value) || value.action !== "useDefault" || value.defaultValue === undefined) return value;
    return { ...value, defaultValue: this.template(value.defaultValue, `${at}/defaultValue`, undefined, issues, loaded) };
  }

  private reference(ref: Ref<unknown>, at: string, before: number | undefined, issues: Issue[]): Reference {
    const origin = ref.origin;
    if (origin.kind === "step") {
      if (origin.owner !== this) issues.push({ rule: "undefined-step", path: at, message: `references step ${JSON.stringify(origin.id)} of another flow builder` });
      else if (before !== undefined && origin.index === before) issues.push({ rule: "self-reference", path: at, message: `step ${JSON.stringify(origin.id)} references itself` });
      else if (before !== undefined && origin.index > before) {
        issues.push({ rule: "later-step", path: at, message: `step ${JSON.stringify(this.steps[before]!.id)} references step ${JSON.stringify(origin.id)}, which is defined later` });
      }
    }
    const json = ref.toJSON();
    if (json.onSkip && "defaultValue" in json.onSkip) findBuilderValues(json.onSkip.defaultValue, `${at}/onSkip/defaultValue`, issues);
    return json;
  }
}

/** A `$literal` of `value`, which must be plain data. */
function plainData(value: unknown, at: string, issues: Issue[]): { $literal: unknown } {
  findBuilderValues(value, at, issues);
  return { $literal: value };
}

/**
 * Plain-data positions (`literal()` values, `onSkip` defaults) are used as written, so a reference
 * there would be emitted as a `Ref` object and never resolved: refused, where it is.
 */
function findBuilderValues(value: unknown, at: string, issues: Issue[]): void {
  if (value instanceof Ref || value instanceof StepHandle || value instanceof Literal || value instanceof FlowBuilder) {
    issues.push({ rule: "malformed-reference", path: at, message: "a reference in plain data is not resolved (literal() values and onSkip defaults are used as written)" });
  } else if (Array.isArray(value)) {
    value.forEach((item, i) => findBuilderValues(item, `${at}/${i}`, issues));
  } else if (isObject(value)) {
    for (const [key, item] of Object.entries(value)) findBuilderValues(item, `${at}/${escape(key)}`, issues);
  }
}

/** The diagnostics not already among `issues` (a nested flow's errors are found both by the builder and by checkFlow). */
function withoutRepeats<T extends { path: string; message: string }>(issues: readonly Issue[], diagnostics: T[]): T[] {
  const seen = new Set(issues.map((i) => `${i.path}\0${i.message}`));
  return diagnostics.filter((d) => !seen.has(`${d.path}\0${d.message}`));
}

/** A `$from` object written by hand or read by `load`: `$from`, `path` in `$`-form when it can be, `onSkip`. */
function rawReference(value: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = { $from: value.$from };
  if (value.path !== undefined) out.path = typeof value.path === "string" ? dollarForm(value.path) : value.path;
  if (value.onSkip !== undefined) out.onSkip = value.onSkip;
  return out;
}

function dollarForm(path: string): string {
  try {
    return normalizePath(path);
  } catch {
    // Not parseable (checkFlow reports it) or not addressable in `$`-form: kept as written.
    return path;
  }
}

function emitTest(test: Record<string, unknown> | null): unknown {
  if (test === null) return null;
  const out: Record<string, unknown> = {};
  const config = test.config ?? test.stepflowConfig ?? test.stepflow_config;
  if (config !== undefined) out.config = config;
  if (test.servers !== undefined) out.servers = test.servers;
  if (test.cases !== undefined) out.cases = test.cases;
  for (const [key, value] of Object.entries(test)) if (!["config", "stepflowConfig", "stepflow_config", "servers", "cases"].includes(key)) setKey(out, key, value);
  return out;
}

/** Sets an own key, `__proto__` included (plain assignment would replace the object's prototype). */
function setKey(target: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}

function escape(key: string): string {
  return key.replace(/~/g, "~0").replace(/\//g, "~1");
}

