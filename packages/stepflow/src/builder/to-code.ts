/**
 * `flowToBuilderCode`: a flow document as a TypeScript program that builds it with `FlowBuilder`.
 * Running the program gives back the flow as `FlowBuilder.load(flow).build()` re-emits it (paths
 * in `$`-form, snake_case `input_schema`/`output_schema` left out, `test.stepflowConfig` written
 * as `test.config`). What the fluent API cannot write is refused, never converted differently.
 */
import { isErrorInstance, isJsonFloat, toPointer } from "@flowspec/runtime";
import { checkFlow } from "../check.js";
import { normalizePath, parsePath } from "../path.js";
import { isObject } from "../values.js";
import { FLOW_SCHEMA } from "./flow-builder.js";

export interface FlowToBuilderCodeOptions {
  /** The module the program imports `FlowBuilder` from (default `@flowspec/stepflow`). */
  importFrom?: string;
}

/** A flow that cannot be converted: each reason with the JSON Pointer of what causes it. */
export class FlowConversionError extends Error {
  static readonly "~brand": string = "@flowspec/stepflow:FlowConversionError";
  static override [Symbol.hasInstance](value: unknown): boolean {
    return isErrorInstance(this, value);
  }
  override name = "FlowConversionError";
  constructor(readonly issues: readonly { path: string; message: string }[]) {
    super(`cannot convert the flow to FlowBuilder code:\n${issues.map((i) => `  ${i.path || "(root)"}: ${i.message}`).join("\n")}`);
  }
}

/** Code, printed on one line when it fits and broken over lines when it does not. */
type Code = string | { object: [key: string, value: Code][] } | { array: Code[] } | { call: string; args: Code[] };

const FLOW_KEYS = new Set(["schema", "name", "description", "version", "inputSchema", "outputSchema", "input_schema", "output_schema", "steps", "output", "test", "examples"]);
const STEP_KEYS = new Set(["id", "component", "input", "skipIf", "onError", "inputSchema", "outputSchema", "input_schema", "output_schema"]);
const CONFIG_KEYS = ["config", "stepflowConfig", "stepflow_config"];
const CASE_KEYS = new Set(["name", "description", "input", "output"]);
const RESERVED = new Set(
  "flow literal onError FlowBuilder break case catch class const continue debugger default delete do else enum export extends false finally for function if import in instanceof new null return super switch this throw true try typeof var void while with yield let static implements interface package private protected public await arguments eval undefined NaN Infinity".split(
    " ",
  ),
);
const WIDTH = 100;

/**
 * A TypeScript program (an ES module) that builds `flow` with `FlowBuilder` and exports the built
 * flow as its default export. Throws `FlowConversionError` for a flow with errors (what `build()`
 * would refuse) and for parts the fluent API cannot write, such as keys the runtime ignores (which
 * `FlowBuilder.load` keeps) or a flow-shaped object outside `$literal` (which the API would wrap).
 */
export function flowToBuilderCode(flow: unknown, options: FlowToBuilderCodeOptions = {}): string {
  const errors = checkFlow(flow).filter((d) => d.level === "error");
  if (errors.length > 0) throw new FlowConversionError(errors.map((d) => ({ path: d.path, message: `${d.message} (FlowBuilder refuses a flow with errors)` })));
  const doc = flow as Record<string, unknown>;
  const steps = doc.steps as Record<string, unknown>[];
  const refused: { path: string; message: string }[] = [];
  const refuse = (path: string, message: string) => refused.push({ path, message });
  const notes: string[] = [];
  const used = new Set<string>(["FlowBuilder"]);
  const data = (value: unknown) => dataCode(value, used);

  // Step handles, in step order: a reference names one only once it is declared.
  const referenced = new Set<string>();
  const names = new Map<string, string>();
  const taken = new Set<string>();
  const handle = (index: number) => names.get(steps[index]!.id as string)!;
  steps.forEach((step) => names.set(step.id as string, uniqueName(identifier(step.id as string), taken)));

  for (const key of Object.keys(doc)) {
    if (!FLOW_KEYS.has(key)) refuse(toPointer([key]), `key "${key}": the fluent API has no place for keys the runtime ignores (FlowBuilder.load keeps them)`);
  }
  for (const key of ["input_schema", "output_schema"]) if (key in doc) notes.push(`/${key} is left out, as FlowBuilder.load leaves it out (the runtime reads the camelCase key)`);

  /** A reference: typed (`flow.input(…)`, `step.ref(…)`) when that writes it exactly, else the object as written. */
  const reference = (value: Record<string, unknown>, at: string, declared: number, typedOnly: boolean): Code | undefined => {
    const extra = Object.keys(value).filter((key) => key !== "$from" && key !== "path" && key !== "onSkip");
    if (extra.length > 0) return void refuse(`${at}${toPointer([extra[0]!])}`, `key "${extra[0]}" beside $from: FlowBuilder writes a reference with $from, path and onSkip only`);
    const from = value.$from as Record<string, unknown>;
    const path = typeof value.path === "string" ? normalizePath(value.path) : undefined;
    const stepIndex = typeof from.step === "string" ? steps.findIndex((s) => s.id === from.step) : -1;
    const origin = Object.keys(from).length !== 1 ? undefined : from.workflow === "input" ? "flow.input" : stepIndex >= 0 && stepIndex < declared ? `${handle(stepIndex)}.ref` : undefined;
    const onSkip = value.onSkip;
    const skipSuffix =
      onSkip === undefined
        ? ""
        : isObject(onSkip) && onSkip.action === "useDefault" && Object.keys(onSkip).length === 1
          ? ".orNull()"
          : isObject(onSkip) && onSkip.action === "useDefault" && Object.keys(onSkip).length === 2 && "defaultValue" in onSkip
            ? ".orDefault"
            : undefined;
    // `ref()` and `input()` write no path, so a path that normalises to "$" has no typed form.
    if (origin !== undefined && path !== "$" && skipSuffix !== undefined) {
      if (origin !== "flow.input") referenced.add(from.step as string);
      const call = `${origin}(${path === undefined ? "" : JSON.stringify(pathArgument(path))})`;
      return skipSuffix === ".orDefault" ? { call: `${call}.orDefault`, args: [data((onSkip as Record<string, unknown>).defaultValue)] } : call + skipSuffix;
    }
    if (typedOnly) return void refuse(at, "this skipIf reference has no typed form (flow.input(…) or step.ref(…)), which is all skipIf takes");
    return data(path === undefined ? value : { ...value, path });
  };

  /** A value template: references and `$literal` become builder calls, the rest stays data. */
  const template = (value: unknown, at: string, declared: number): Code => {
    if (Array.isArray(value)) return { array: value.map((item, i) => template(item, `${at}/${i}`, declared)) };
    if (!isObject(value)) return data(value);
    if (Object.hasOwn(value, "$from")) return reference(value, at, declared, false) ?? "null";
    if (Object.hasOwn(value, "$literal")) return escapedLiteral(value, at) ?? "null";
    if (value.schema === FLOW_SCHEMA && Array.isArray(value.steps)) {
      refuse(at, "a flow written without $literal is a template here, and the fluent API would write it under $literal (FlowBuilder.load keeps it as written)");
      return "null";
    }
    return { object: Object.entries(value).map(([key, item]) => [key, template(item, `${at}${toPointer([key])}`, declared)]) };
  };

  const escapedLiteral = (value: Record<string, unknown>, at: string): Code | undefined => {
    const extra = Object.keys(value).find((key) => key !== "$literal");
    if (extra !== undefined) return void refuse(`${at}${toPointer([extra])}`, `key "${extra}" beside $literal: FlowBuilder writes {$literal: value} only`);
    used.add("literal");
    return { call: "literal", args: [data(value.$literal)] };
  };

  const statements: string[] = [];
  const meta: [string, Code][] = [];
  for (const key of ["name", "description", "version", "inputSchema", "outputSchema"]) if (key in doc) meta.push([key, data(doc[key])]);
  statements.push(statement("const flow = ", { call: "new FlowBuilder", args: meta.length > 0 ? [{ object: meta }] : [] }, ";"));

  const stepStatements = steps.map((step, i) => {
    const at = `/steps/${i}`;
    const spec: [string, Code][] = [["id", data(step.id)]];
    for (const key of Object.keys(step)) {
      if (!STEP_KEYS.has(key)) refuse(`${at}${toPointer([key])}`, `key "${key}": addStep takes id, input, skipIf, onError, inputSchema and outputSchema only (FlowBuilder.load keeps other keys)`);
      if (key === "input_schema" || key === "output_schema") notes.push(`${at}/${key} is left out, as FlowBuilder.load leaves it out (the runtime reads the camelCase key)`);
    }
    for (const key of ["inputSchema", "outputSchema"]) if (key in step) spec.push([key, data(step[key])]);
    if ("skipIf" in step) {
      const skipIf = step.skipIf;
      if (isObject(skipIf) && Object.hasOwn(skipIf, "$from")) spec.push(["skipIf", reference(skipIf, `${at}/skipIf`, i, true) ?? "null"]);
      else if (isObject(skipIf) && Object.hasOwn(skipIf, "$literal")) spec.push(["skipIf", escapedLiteral(skipIf, `${at}/skipIf`) ?? "null"]);
      else if (isObject(skipIf) || Array.isArray(skipIf)) refuse(`${at}/skipIf`, "an object or array skipIf (always truthy) has no typed form; write skipIf: true");
      else spec.push(["skipIf", data(skipIf)]);
    }
    if ("onError" in step) spec.push(["onError", errorPolicy(step.onError, `${at}/onError`, i)]);
    if ("input" in step) spec.push(["input", template(step.input, `${at}/input`, i)]);
    return { id: step.id as string, code: { call: "flow.addStep", args: [data(step.component), { object: spec }] } satisfies Code };
  });

  function errorPolicy(policy: unknown, at: string, declared: number): Code {
    const value = policy as Record<string, unknown>;
    const keys = Object.keys(value);
    const action = value.action as string;
    const plain = keys.length === 1;
    if (plain || (action === "useDefault" && keys.length === 2 && "defaultValue" in value)) {
      used.add("onError");
      return { call: `onError.${action}`, args: plain ? [] : [template(value.defaultValue, `${at}/defaultValue`, declared)] };
    }
    refuse(`${at}${toPointer([keys.find((k) => k !== "action" && k !== "defaultValue") ?? "action"])}`, "onError.fail/skip/retry/useDefault write {action} (and defaultValue) only");
    return "null";
  }

  const tail: string[] = [];
  if ("output" in doc) tail.push(statement("flow.output(", template(doc.output, "/output", steps.length), ");"));
  if ("test" in doc) for (const statement of testStatements(doc.test, refuse, notes, data)) tail.push(statement);
  if ("examples" in doc) {
    const examples = doc.examples as unknown[];
    if (examples.length === 0) refuse("/examples", "an empty examples list: flow.example() adds one example at a time");
    for (const example of examples) tail.push(statement("flow.example(", data(example), ");"));
  }

  if (refused.length > 0) throw new FlowConversionError(refused);
  stepStatements.forEach(({ id, code }) => statements.push(statement(referenced.has(id) ? `const ${names.get(id)} = ` : "", code, ";")));
  const imports = ["FlowBuilder", "jsonFloat", "literal", "onError"].filter((name) => used.has(name));
  const header = [
    `// Built by flowToBuilderCode from ${typeof doc.name === "string" ? `the flow ${JSON.stringify(doc.name)}` : "a flow"}. Running this module builds the flow`,
    "// again (FlowBuilder validates it and runs checkFlow) and exports it.",
    ...notes.map((note) => `// ${note}.`),
    `import { ${imports.join(", ")} } from ${JSON.stringify(options.importFrom ?? "@flowspec/stepflow")};`,
  ];
  return [...header, "", ...statements, ...tail, "", "export default flow.build();", ""].join("\n");
}

/** `test`: `testConfig`, `testServer` and `testCase` calls, which can write only what they are given. */
function testStatements(test: unknown, refuse: (path: string, message: string) => void, notes: string[], data: (value: unknown) => Code): string[] {
  if (!isObject(test)) {
    refuse("/test", "test: null has no fluent form (leave test out, or give it cases)");
    return [];
  }
  const out: string[] = [];
  const configKeys = CONFIG_KEYS.filter((key) => key in test);
  if (configKeys.length > 1) refuse(`/test/${configKeys[1]}`, `test has both ${configKeys.join(" and ")}: FlowBuilder writes one test.config`);
  else if (configKeys.length === 1) {
    if (configKeys[0] !== "config") notes.push(`/test/${configKeys[0]} is written as test.config, as FlowBuilder writes it`);
    out.push(statement("flow.testConfig(", data(test[configKeys[0]!]), ");"));
  }
  for (const key of Object.keys(test)) {
    if (!CONFIG_KEYS.includes(key) && key !== "servers" && key !== "cases") refuse(`/test${toPointer([key])}`, `key "${key}": testConfig, testServer and testCase write config, servers and cases only`);
  }
  if ("servers" in test) {
    const servers = test.servers;
    if (!isObject(servers) || Object.keys(servers).length === 0) refuse("/test/servers", "testServer(name, server) adds one server at a time: an empty or non-object servers has no fluent form");
    else for (const [name, server] of Object.entries(servers)) out.push(statement(`flow.testServer(${JSON.stringify(name)}, `, data(server), ");"));
  }
  if ("cases" in test) {
    const cases = test.cases as Record<string, unknown>[];
    if (cases.length === 0) refuse("/test/cases", "an empty cases list: testCase() adds one case at a time");
    cases.forEach((testCase, i) => {
      const at = `/test/cases/${i}`;
      const extra = Object.keys(testCase).find((key) => !CASE_KEYS.has(key));
      if (extra !== undefined) refuse(`${at}${toPointer([extra])}`, `key "${extra}": testCase takes name, description, input and output`);
      for (const key of ["description", "output"]) if (testCase[key] === null) refuse(`${at}/${key}`, `${key} is null: testCase takes one or none (leave it out)`);
      out.push(statement("flow.testCase(", data(testCase), ");"));
    });
  }
  if (out.length === 0 && Object.keys(test).length === 0) refuse("/test", "an empty test section has no fluent form (leave test out)");
  return out;
}

/** Plain data as a code literal; a float written `1.0` in the flow (a `JsonFloat`) as `jsonFloat(1)`, noted in `used`. */
function dataCode(value: unknown, used: Set<string>): Code {
  if (Array.isArray(value)) return { array: value.map((item) => dataCode(item, used)) };
  if (isObject(value)) return { object: Object.entries(value).map(([key, item]) => [key, dataCode(item, used)]) };
  if (isJsonFloat(value)) {
    used.add("jsonFloat");
    return { call: "jsonFloat", args: [Object.is(value.value, -0) ? "-0" : String(value.value)] };
  }
  if (typeof value === "number" && Object.is(value, -0)) return "-0";
  return JSON.stringify(value) ?? "null";
}

/** The argument of `ref()`/`input()` for a `$`-path: a plain field name as it is, anything else in `$`-form. */
function pathArgument(path: string): string {
  const segments = parsePath(path);
  const [only] = segments;
  return segments.length === 1 && only && "field" in only && /^[A-Za-z_][A-Za-z0-9_]*$/.test(only.field) ? only.field : path;
}

function identifier(id: string): string {
  const words = id.split(/[^A-Za-z0-9]+/).filter(Boolean);
  const name = words.map((word, i) => (i === 0 ? word[0]!.toLowerCase() + word.slice(1) : word[0]!.toUpperCase() + word.slice(1))).join("");
  return name === "" ? "step" : /^[0-9]/.test(name) ? `step${name}` : name;
}

function uniqueName(base: string, taken: Set<string>): string {
  let name = RESERVED.has(base) ? `${base}Step` : base;
  for (let n = 2; taken.has(name); n++) name = `${base}${n}`;
  taken.add(name);
  return name;
}

function key(name: string): string {
  // `{"__proto__": v}` would set the prototype; a computed key makes an own property, as in the flow.
  if (name === "__proto__") return '["__proto__"]';
  return /^[A-Za-z_$][A-Za-z0-9_$]*$/.test(name) ? name : JSON.stringify(name);
}

function flat(code: Code): string {
  if (typeof code === "string") return code;
  if ("object" in code) return code.object.length === 0 ? "{}" : `{ ${code.object.map(([k, v]) => `${key(k)}: ${flat(v)}`).join(", ")} }`;
  if ("array" in code) return `[${code.array.map(flat).join(", ")}]`;
  return `${code.call}(${code.args.map(flat).join(", ")})`;
}

/** `code` at `indent`, on one line when `lead` + it fit in WIDTH. */
function print(code: Code, indent: number, lead = 0): string {
  const line = flat(code);
  if (typeof code === "string" || indent + lead + line.length <= WIDTH) return line;
  const pad = " ".repeat(indent + 2);
  if ("object" in code) return `{\n${code.object.map(([k, v]) => `${pad}${key(k)}: ${print(v, indent + 2, key(k).length + 3)},\n`).join("")}${" ".repeat(indent)}}`;
  if ("array" in code) return `[\n${code.array.map((item) => `${pad}${print(item, indent + 2, 1)},\n`).join("")}${" ".repeat(indent)}]`;
  const args = code.args.map((arg, i) => print(arg, indent, code.call.length + 1 + (i > 0 ? 2 : 0)));
  return `${code.call}(${args.join(", ")})`;
}

function statement(prefix: string, code: Code, suffix = ""): string {
  return `${prefix}${print(code, 0, prefix.length + suffix.length)}${suffix}`;
}
