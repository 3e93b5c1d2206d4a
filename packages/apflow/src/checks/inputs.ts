import type { Ajv, ErrorObject, ValidateFunction } from "ajv";
import { formats } from "@flowspec/runtime/ajv";
import { issuesFromAjv, type ValidationIssue } from "@flowspec/runtime";
import type { IssueSink } from "./issue.js";

// Built on first use: most callers never check inputs, and both loading ajv's compiler (tens of
// ms at start-up) and compiling are expensive. Loaded synchronously through Node's module API,
// since the checks are synchronous; a static import would load it for every importer.
let ajv: Ajv | undefined;

function createAjv(): Ajv {
  const moduleApi = (globalThis as { process?: { getBuiltinModule?(id: string): unknown } }).process?.getBuiltinModule?.("node:module") as
    | { createRequire(from: string): (id: string) => { Ajv: new (options: object) => Ajv } }
    | undefined;
  if (!moduleApi) throw new Error("checking inputs against input_schema needs Node 20.16 or later (it loads ajv on demand)");
  // An app bundled into CommonJS has no import.meta.url, but its own require (ajv kept external).
  const load = import.meta.url ? moduleApi.createRequire(import.meta.url) : typeof require === "function" ? require : undefined;
  if (!load) throw new Error("checking inputs against input_schema loads ajv on demand, and this bundle has neither import.meta.url nor require");
  const { Ajv: AjvClass } = load("ajv") as { Ajv: new (options: object) => Ajv };
  return new AjvClass({ allErrors: true, strict: false, formats: formats as never, validateSchema: true });
}
const compiled = new WeakMap<object, ValidateFunction | Error>();
// The scheduler and the builder work on copies, so one schema arrives as a new object each run:
// key by its text too, or every copy is compiled again (and ajv keeps each one).
const compiledByText = new Map<string, ValidateFunction | Error>();

function compile(schema: object): ValidateFunction | Error {
  let entry = compiled.get(schema);
  if (entry === undefined) {
    let text: string | undefined;
    try {
      text = JSON.stringify(schema);
    } catch {
      // not JSON (a cycle): compile it by object only
    }
    entry = text === undefined ? undefined : compiledByText.get(text);
    if (entry === undefined) {
      try {
        ajv ??= createAjv();
        entry = ajv.compile(schema);
      } catch (error) {
        entry = error instanceof Error ? error : new Error(String(error));
      }
      // Ajv registers a schema under its $id, and a second schema object with the same $id (a
      // copy) would then fail to compile with "already exists": the compiled function is all we keep.
      try {
        ajv?.removeSchema(schema);
      } catch {
        // nothing was registered
      }
      if (text !== undefined) {
        if (compiledByText.size >= 256) compiledByText.clear();
        compiledByText.set(text, entry);
      }
    }
    compiled.set(schema, entry);
  }
  return entry;
}

export type InputsVerdict = { ok: true } | { ok: false; schemaError: string } | { ok: false; issues: ValidationIssue[] };

/**
 * Validates `inputs` against a draft-07 JSON Schema compiled at run time, cached per schema object
 * (so the same task definition is compiled once however often it runs).
 */
export function validateInputs(inputs: unknown, inputSchema: object): InputsVerdict {
  const validate = compile(inputSchema);
  if (validate instanceof Error) return { ok: false, schemaError: validate.message };
  let valid: boolean;
  try {
    valid = validate(inputs) as boolean;
  } catch (error) {
    // ajv's code recurses along the schema's $refs, so inputs nested deeper than the stack allows
    // make it throw RangeError: report that as an issue, since the checks and the scheduler never throw.
    const reason = error instanceof RangeError ? `too deeply nested (${error.message})` : error instanceof Error ? error.message : String(error);
    return { ok: false, issues: [{ path: "", message: `could not be validated: ${reason}`, keyword: "", params: {} }] };
  }
  if (valid) return { ok: true };
  return { ok: false, issues: issuesFromAjv(validate.errors as ErrorObject[]) };
}

export function checkInputsAgainstSchema(
  sink: IssueSink,
  inputs: unknown,
  inputSchema: object,
  inputsAt: string,
  schemaAt: string,
  extra: { taskId: string } | undefined,
): void {
  const verdict = validateInputs(inputs, inputSchema);
  if (verdict.ok) return;
  if ("schemaError" in verdict) {
    sink.error("input-schema", schemaAt, `input_schema does not compile: ${verdict.schemaError}`, extra);
    return;
  }
  for (const issue of verdict.issues) {
    sink.error("inputs", inputsAt + issue.path, `inputs do not conform to input_schema: ${issue.message}`, {
      ...extra,
      keyword: issue.keyword,
      params: issue.params,
    });
  }
}
