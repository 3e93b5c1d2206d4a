import { codeOutsideStrings } from "./ajv-code.js";

/** The helper `limitErrors` declares: keeps the first `maxErrors` errors. */
export const PUSH_ERROR = "pushError_";
/** Builds ajv's error object and pushes it (any keyword). */
export const ADD_ERROR = "addError_";

/**
 * Builds each error object in one call of a helper the module declares, instead of a literal of
 * five properties per failing keyword: the text of a generated module is mostly its error
 * objects, and V8 compiles all of it on a validator's first call. ajv writes each error as
 *
 *   const errN = {instancePath…,schemaPath:"…",keyword:"…",params:{…},message:…};
 *   vErrors = pushError_(vErrors, errN, errors++, maxErrors);
 *
 * which becomes `vErrors = addError_(vErrors, <instancePath>, "<schemaPath>", "<keyword>", {…}, <message>, errors++, maxErrors);`
 * or, where ajv derives the params and message from one value (a type, a property name, a
 * limit, a format: see `DERIVED`), the shorter `add<Keyword>Error_(vErrors, <instancePath>, "<schemaPath>", <value>, errors++, maxErrors)`. The helpers build the same object (same
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
  for (const [helper, declaration] of HELPERS) if (used.has(helper)) rewritten += `\n${declaration}\n`;
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
/** A variable or a property read of one (`key0`, `schema46.enum`). */
const NAME = String.raw`[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)*`;
const INTEGER = String.raw`-?\d+`;

/**
 * The errors whose params and message ajv derives from one value, each built by its own helper
 * from that value: `params` must match the pattern (its one group is the value) and `message` be
 * exactly the text `message` gives for it, as ajv writes it; the helper builds the same message at
 * run time (`body`, where the value is `v`).
 */
interface DerivedError {
  helper: string;
  keyword: string;
  params: RegExp;
  message: (value: string) => string;
  /** The helper's params and message expressions, of its argument `v`. */
  paramsCode: string;
  messageCode: string;
}

const quoted = (value: string) => JSON.stringify(value);
const literal = (value: string) => JSON.parse(value) as string;

const DERIVED: readonly DerivedError[] = [
  { helper: "addTypeError_", keyword: "type", params: new RegExp(`^\\{type: (${STRING})\\}$`), message: (v) => quoted(`must be ${literal(v)}`), paramsCode: "{type: v}", messageCode: '"must be " + v' },
  {
    helper: "addRequiredError_",
    keyword: "required",
    params: new RegExp(`^\\{missingProperty: (${STRING}|${NAME})\\}$`),
    message: (v) => `"must have required property '"+${v}+"'"`,
    paramsCode: "{missingProperty: v}",
    messageCode: `"must have required property '" + v + "'"`,
  },
  {
    helper: "addAdditionalPropertyError_",
    keyword: "additionalProperties",
    params: new RegExp(`^\\{additionalProperty: (${NAME})\\}$`),
    message: () => quoted("must NOT have additional properties"),
    paramsCode: "{additionalProperty: v}",
    messageCode: quoted("must NOT have additional properties"),
  },
  { helper: "addMinLengthError_", keyword: "minLength", params: new RegExp(`^\\{limit: (${INTEGER})\\}$`), message: (v) => quoted(`must NOT have fewer than ${v} characters`), paramsCode: "{limit: v}", messageCode: '"must NOT have fewer than " + v + " characters"' },
  { helper: "addMaxLengthError_", keyword: "maxLength", params: new RegExp(`^\\{limit: (${INTEGER})\\}$`), message: (v) => quoted(`must NOT have more than ${v} characters`), paramsCode: "{limit: v}", messageCode: '"must NOT have more than " + v + " characters"' },
  { helper: "addMinimumError_", keyword: "minimum", params: new RegExp(`^\\{comparison: ">=", limit: (${INTEGER})\\}$`), message: (v) => quoted(`must be >= ${v}`), paramsCode: '{comparison: ">=", limit: v}', messageCode: '"must be >= " + v' },
  { helper: "addEnumError_", keyword: "enum", params: new RegExp(`^\\{allowedValues: (${NAME})\\}$`), message: () => quoted("must be equal to one of the allowed values"), paramsCode: "{allowedValues: v}", messageCode: quoted("must be equal to one of the allowed values") },
  { helper: "addConstError_", keyword: "const", params: new RegExp(`^\\{allowedValue: (${STRING}|${NAME})\\}$`), message: () => quoted("must be equal to constant"), paramsCode: "{allowedValue: v}", messageCode: quoted("must be equal to constant") },
  { helper: "addFormatError_", keyword: "format", params: new RegExp(`^\\{format: (${STRING})\\}$`), message: (v) => `"must match format \\""+${v}+"\\""`, paramsCode: "{format: v}", messageCode: `"must match format \\"" + v + "\\""` },
];

/** The helper of an error, and its arguments after the list. */
function helperCall(parts: ErrorParts): { helper: string; args: string[] } {
  const { instancePath, schemaPath, keyword, params, message } = parts;
  for (const derived of DERIVED) {
    if (keyword !== quoted(derived.keyword)) continue;
    const value = derived.params.exec(params)?.[1];
    if (value !== undefined && message === derived.message(value)) return { helper: derived.helper, args: [instancePath, schemaPath, value] };
  }
  return { helper: ADD_ERROR, args: [instancePath, schemaPath, keyword, params, message] };
}

/** Each helper's declaration, in the order modules declare them. */
const HELPERS = new Map<string, string>([
  [ADD_ERROR, `function ${ADD_ERROR}(list, instancePath, schemaPath, keyword, params, message, count, maxErrors){
return ${PUSH_ERROR}(list, {instancePath, schemaPath, keyword, params, message}, count, maxErrors);
}`],
  ...DERIVED.map(({ helper, keyword, paramsCode, messageCode }): [string, string] => [
    helper,
    `function ${helper}(list, instancePath, schemaPath, v, count, maxErrors){
return ${PUSH_ERROR}(list, {instancePath, schemaPath, keyword: ${quoted(keyword)}, params: ${paramsCode}, message: ${messageCode}}, count, maxErrors);
}`,
  ]),
]);
