import { codeOutsideStrings } from "./ajv-code.js";

/** The helper `limitErrors` declares: keeps the first `maxErrors` errors. */
export const PUSH_ERROR = "pushError_";
/** Builds ajv's error object and pushes it (any keyword). */
export const ADD_ERROR = "addError_";
/** The same for a `type` error of one type: params `{type}`, message `must be <type>`. */
export const ADD_TYPE_ERROR = "addTypeError_";
/** The same for a `required` error: params `{missingProperty}`, message `must have required property '<name>'`. */
export const ADD_REQUIRED_ERROR = "addRequiredError_";

/**
 * Builds each error object in one call of a helper the module declares, instead of a literal of
 * five properties per failing keyword: the text of a generated module is mostly its error
 * objects, and V8 compiles all of it on a validator's first call. ajv writes each error as
 *
 *   const errN = {instancePath…,schemaPath:"…",keyword:"…",params:{…},message:…};
 *   vErrors = pushError_(vErrors, errN, errors++, maxErrors);
 *
 * which becomes `vErrors = addError_(vErrors, <instancePath>, "<schemaPath>", "<keyword>", {…}, <message>, errors++, maxErrors);`
 * (or the shorter `addTypeError_` / `addRequiredError_` where the params and message are the
 * ones ajv derives from one type or one property name). The helpers build the same object (same
 * properties in the same order, the same values, evaluated in the same order), so what a
 * validator returns is unchanged. An error of any other form (more properties, a message that is
 * not the derived one, an `errN` used elsewhere) is left as ajv wrote it.
 */
export function addErrorsByHelpers(code: string): string {
  const lines = code.split("\n");
  const out: string[] = [];
  const used = new Set<string>();
  /** `errN` names removed since the last function start, to check none is read elsewhere. */
  let removed: string[] = [];
  let functionStart = 0;
  const checkRemoved = (end: number) => {
    if (removed.length === 0) return;
    const rest = codeOutsideStrings(out.slice(functionStart, end).join("\n"));
    for (const name of removed) {
      if (new RegExp(`(?<![\\w$])${name}(?![\\w$])`).test(rest)) throw new Error(`ajv's code reads ${name} beyond its push, which codegen does not expect`);
    }
    removed = [];
  };
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    if (line.startsWith("function ")) {
      checkRemoved(out.length);
      functionStart = out.length;
    }
    const next = lines[i + 1];
    const parts = next === undefined ? undefined : errorLiteral(line);
    if (parts && next === `vErrors = ${PUSH_ERROR}(vErrors, ${parts.name}, errors++, maxErrors);`) {
      const call = helperCall(parts);
      used.add(call.helper);
      out.push(`vErrors = ${call.helper}(vErrors, ${call.args.join(", ")}, errors++, maxErrors);`);
      removed.push(parts.name);
      i++;
      continue;
    }
    out.push(line);
  }
  checkRemoved(out.length);
  let rewritten = out.join("\n");
  for (const helper of [ADD_ERROR, ADD_TYPE_ERROR, ADD_REQUIRED_ERROR]) if (used.has(helper)) rewritten += `\n${HELPERS[helper]}\n`;
  return rewritten;
}

interface ErrorParts {
  name: string;
  /** The expressions of the five properties, as ajv wrote them (`instancePath` itself when it wrote the shorthand). */
  instancePath: string;
  schemaPath: string;
  keyword: string;
  params: string;
  message: string;
}

const KEYS = ["instancePath", "schemaPath", "keyword", "params", "message"] as const;

/** The parts of `const errN = {instancePath…,schemaPath:…,keyword:…,params:…,message:…};`, or undefined for any other line. */
export function errorLiteral(line: string): ErrorParts | undefined {
  const head = /^const (err\d+) = \{/.exec(line);
  if (!head || !line.endsWith("};")) return undefined;
  const bodyStart = head[0].length;
  const bodyEnd = line.length - 2;
  const masked = codeOutsideStrings(line);
  // Split the object's body at its own commas (depth 0 of (), [], {}; strings are masked).
  const fields: string[] = [];
  let depth = 0;
  let start = bodyStart;
  for (let i = bodyStart; i < bodyEnd; i++) {
    const ch = masked[i];
    if (ch === "(" || ch === "[" || ch === "{") depth++;
    else if (ch === ")" || ch === "]" || ch === "}") depth--;
    else if (ch === "," && depth === 0) {
      fields.push(line.slice(start, i));
      start = i + 1;
    }
    if (depth < 0) return undefined;
  }
  if (depth !== 0) return undefined;
  fields.push(line.slice(start, bodyEnd));
  if (fields.length !== KEYS.length) return undefined;
  const values: string[] = [];
  for (const [i, key] of KEYS.entries()) {
    const field = fields[i]!;
    if (i === 0 && field === key) values.push(key);
    else if (field.startsWith(`${key}:`) && field.length > key.length + 1) values.push(field.slice(key.length + 1));
    else return undefined;
  }
  const [instancePath, schemaPath, keyword, params, message] = values as [string, string, string, string, string];
  return { name: head[1]!, instancePath, schemaPath, keyword, params, message };
}

/** A JSON string literal as ajv writes one (JSON.stringify: no raw quote or line break inside). */
const STRING = String.raw`"(?:[^"\\\n]|\\.)*"`;

function helperCall(parts: ErrorParts): { helper: string; args: string[] } {
  const { instancePath, schemaPath, keyword, params, message } = parts;
  const type = new RegExp(`^\\{type: (${STRING})\\}$`).exec(params)?.[1];
  if (keyword === '"type"' && type !== undefined && message === JSON.stringify(`must be ${JSON.parse(type) as string}`)) {
    return { helper: ADD_TYPE_ERROR, args: [instancePath, schemaPath, type] };
  }
  const property = new RegExp(`^\\{missingProperty: (${STRING}|[A-Za-z_$][\\w$]*)\\}$`).exec(params)?.[1];
  if (keyword === '"required"' && property !== undefined && message === `"must have required property '"+${property}+"'"`) {
    return { helper: ADD_REQUIRED_ERROR, args: [instancePath, schemaPath, property] };
  }
  return { helper: ADD_ERROR, args: [instancePath, schemaPath, keyword, params, message] };
}

const HELPERS: Record<string, string> = {
  [ADD_ERROR]: `function ${ADD_ERROR}(list, instancePath, schemaPath, keyword, params, message, count, maxErrors){
return ${PUSH_ERROR}(list, {instancePath, schemaPath, keyword, params, message}, count, maxErrors);
}`,
  [ADD_TYPE_ERROR]: `function ${ADD_TYPE_ERROR}(list, instancePath, schemaPath, type, count, maxErrors){
return ${PUSH_ERROR}(list, {instancePath, schemaPath, keyword: "type", params: {type}, message: "must be " + type}, count, maxErrors);
}`,
  [ADD_REQUIRED_ERROR]: `function ${ADD_REQUIRED_ERROR}(list, instancePath, schemaPath, missingProperty, count, maxErrors){
return ${PUSH_ERROR}(list, {instancePath, schemaPath, keyword: "required", params: {missingProperty}, message: "must have required property '" + missingProperty + "'"}, count, maxErrors);
}`,
};
