import { _, type Ajv, type Options } from "ajv";
import standalone from "ajv/dist/standalone/index.js";
import * as runtimeAjv from "@flowspec/runtime/ajv";
import { DEFAULT_MAX_ERRORS } from "@flowspec/runtime/validation";
import type { SchemaGraph } from "./bundle.js";
import { RELAXABLE_STRICT_CHECKS, type CodegenConfig, type RelaxableStrictCheck } from "./config.js";
import { ajvFor, idKeyword } from "./dialects.js";
import { codeOutsideStrings, schemaPlaceAfter } from "./ajv-code.js";
import { unknownKeywordsAndFormats } from "./unknown-names.js";
import { addErrorsByHelpers, PUSH_ERROR } from "./error-helpers.js";
import { dropEqualFunctions } from "./shared-validators.js";
import type { Dialect, SchemaFile } from "@flowspec/schema-diff/schema-files";

/** Where generated validators import their run-time helpers from (see `@flowspec/runtime/ajv`). */
export const RUNTIME_MODULE = "@flowspec/runtime/ajv";

/** The format checks codegen registers, as generated code imports them one by one at run time. */
const { formats } = runtimeAjv;

/** ajv's `require()`s of its run-time helpers, and the export of the runtime module each becomes. */
const RUNTIME_IMPORTS: Record<string, string> = {
  'require("ajv/dist/runtime/equal").default': "equal",
  'require("ajv/dist/runtime/ucs2length").default': "ucs2length",
};

export interface ValidatorOptions {
  /** Keywords that only annotate (`example`, `x-provisional`): accepted in strict mode, no code. */
  keywords: readonly string[];
  /** Formats taken as annotations (never checked), besides `UNCHECKED_STANDARD_FORMATS`. */
  formats?: readonly string[];
  /** Strict-mode checks to relax (codegen.json `relaxStrict`). */
  relaxStrict?: readonly RelaxableStrictCheck[];
  /** Check `INTEGER_FORMATS` as number ranges; otherwise they are annotations. */
  checkIntegerFormats?: boolean;
}

/** What a folder's codegen.json says of its validators. */
export function validatorOptionsOf(config: CodegenConfig): ValidatorOptions {
  return { keywords: config.keywords ?? [], formats: config.formats ?? [], relaxStrict: config.relaxStrict ?? [], checkIntegerFormats: config.checkIntegerFormats ?? false };
}

/**
 * Integer widths as OpenAPI and Rust-derived schemas (StepFlow's) name them. Checked only where a
 * folder asks (codegen.json `checkIntegerFormats`): a JS number cannot hold every int64, so the
 * check refuses int64 values beyond 2^53 that other repositories' documents carry.
 */
export const INTEGER_FORMATS = ["int32", "int64", "uint16", "uint32", "uint64"] as const;

/**
 * Formats of the JSON Schema specification that ajv-formats has no check for. They are annotations,
 * as the specification allows a validator to treat any format: accepted, never checked.
 */
export const UNCHECKED_STANDARD_FORMATS = ["iri", "iri-reference", "idn-email", "idn-hostname"] as const;

/**
 * ajv standalone code for every root of a graph, as one ES module whose exports are named after
 * the roots. ajv compiles in strict mode (less the checks that refuse valid schemas) with all
 * errors collected; the result imports its few run-time helpers (deep equality, string length,
 * formats) and compiles nothing when loaded.
 */
export function generateValidators(files: readonly SchemaFile[], graph: SchemaGraph, options: ValidatorOptions): string {
  const ajv = ajvWithSchemas(files, graph, options);
  const exports: Record<string, string> = {};
  for (const root of graph.roots) {
    exports[root.name] = `${root.file.uri}#${root.pointer}`;
    try {
      ajv.getSchema(exports[root.name]!);
    } catch (error) {
      const message = (error as Error).message;
      const unknown = /unknown (?:keyword|format)/.test(message) ? unknownKeywordsAndFormats(files, graph, (overrides) => ajvWithSchemas(files, graph, options, overrides)) : "";
      const relax = Object.keys(RELAXABLE_STRICT_CHECKS).filter((check) => message.includes(`(use ${check})`));
      const hint = relax.length > 0 ? `; if that is meant, relax the check in codegen.json: "relaxStrict": ${JSON.stringify(relax)}` : "";
      throw new Error(`${root.file.path}#${root.pointer} (root ${root.name}) does not compile in strict mode: ${unknown || message}${hint}`);
    }
  }
  return dropEqualFunctions(typedExports(addErrorsByHelpers(limitErrors(markPure(decideLengthsByUnits(rewriteRequires(standaloneCode(ajv, exports))))))));
}

/**
 * ajv for a graph's dialect with every file of the folder added, ready to compile its roots: the
 * compiler below, with the run-time features no file uses turned off.
 */
function ajvWithSchemas(files: readonly SchemaFile[], graph: SchemaGraph, options: ValidatorOptions, overrides: Options = {}): Ajv {
  const ajv = validatorCompiler(graph.dialect, options, { code: { source: true, esm: true, lines: true, formats: _`require(${RUNTIME_MODULE}).formats` }, ...overrides });
  for (const file of files) {
    try {
      ajv.addSchema({ ...file.json, [idKeyword(graph.dialect)]: file.uri });
    } catch (error) {
      throw new Error(`${file.path}: ${(error as Error).message}`);
    }
  }
  skipUnusedFeatures(ajv, graph.dialect, files.map((file) => file.json));
  return ajv;
}

/**
 * The ajv that generated validators are compiled with, before any schema is added: strict mode
 * (less the checks that refuse valid schemas), all errors collected, the formats codegen checks.
 * Exported so that the validators bench gives ajv compiling at run time exactly the same.
 */
export function validatorCompiler(dialect: Dialect, options: ValidatorOptions, overrides: Options = {}): Ajv {
  const ajvOptions: Options = {
    strict: true,
    // strict mode refuses unknown keywords and formats (typos), but these three refuse valid
    // schemas written as the specification writes them: `then: {minLength: 2}` without `type`, a
    // `prefixItems` tuple left open, `dependentSchemas` requiring a property declared elsewhere.
    // None of them changes what a validator accepts.
    strictTypes: false,
    strictTuples: false,
    strictRequired: false,
    allErrors: true,
    allowUnionTypes: true,
    ...Object.fromEntries((options.relaxStrict ?? []).map((check) => [check, true])),
    keywords: [...new Set(options.keywords)],
    ...overrides,
  };
  const ajv = ajvFor(dialect, ajvOptions);
  const annotations = new Set<string>([...UNCHECKED_STANDARD_FORMATS, ...(options.checkIntegerFormats ? [] : INTEGER_FORMATS)]);
  for (const name of options.formats ?? []) {
    if (Object.hasOwn(formats, name) && !annotations.has(name)) throw new Error(`codegen.json: format "${name}" is one codegen checks; remove it from "formats"`);
    annotations.add(name);
  }
  for (const [name, format] of Object.entries(formats)) if (!annotations.has(name)) ajv.addFormat(name, format as never);
  // `true`: ajv knows the name and emits no check for it.
  for (const name of annotations) ajv.addFormat(name, true);
  return ajv;
}

/**
 * Ajv2019 and Ajv2020 always support $dynamicRef ($recursiveRef) and unevaluated*, which makes
 * every validator thread a dynamic-anchor object and evaluated-property records through each call:
 * validating a stepflow Flow ran 5-6x slower for it. For a schema set that uses neither, the roots
 * are compiled without them; the schemas were checked against their meta-schema as they were added.
 */
export function skipUnusedFeatures(ajv: Ajv, dialect: Dialect, schemas: readonly unknown[]): void {
  if (dialect !== "draft-2019-09" && dialect !== "draft-2020-12") return;
  const opts = ajv.opts as { dynamicRef: boolean; unevaluated: boolean };
  opts.dynamicRef = usesKeyword(schemas, DYNAMIC_KEYWORDS);
  opts.unevaluated = usesKeyword(schemas, UNEVALUATED_KEYWORDS);
}

/**
 * The module as TypeScript that builds with a plain `tsc` under any settings: the file is
 * `// @ts-nocheck` (ajv's code is untyped JavaScript) and each export is typed `CompiledValidator`,
 * which is all a declaration file then says of it. ajv exports each validator as
 * `export const <Root> = validateN;`, which declares `<Root>` in the module: a root named `Array`,
 * `Object` or `RegExp` would hide the global that ajv's code calls (`Array.isArray(data)`,
 * `new RegExp(...)`) and break every validator of the file. When the name is used anywhere else in
 * the code (outside string literals), it is declared as `<Root>_` (no root or ajv name ends in `_`)
 * and exported under its own name; other exports are left as they are.
 */
export function typedExports(code: string): string {
  const outsideStrings = codeOutsideStrings(code);
  // Root names are identifiers of letters and digits (see pascalCase and codegen.json's check).
  const body = code.replace(/^export const ([A-Za-z]\w*) = (validate\d+);$/gm, (_line, name: string, validate: string) => {
    const uses = outsideStrings.match(new RegExp(`(?<![\\w$.])${name}(?![\\w$])`, "g"))?.length ?? 0;
    return uses > 1 ? `const ${name}_: CompiledValidator = ${validate};\nexport { ${name}_ as ${name} };` : `export const ${name}: CompiledValidator = ${validate};`;
  });
  return `// @ts-nocheck\nimport type { CompiledValidator } from "@flowspec/runtime/validation";\n${body}`;
}

const DYNAMIC_KEYWORDS = new Set(["$dynamicRef", "$dynamicAnchor", "$recursiveRef", "$recursiveAnchor"]);
const UNEVALUATED_KEYWORDS = new Set(["unevaluatedProperties", "unevaluatedItems"]);

/** Whether any schema of the set has one of these keys anywhere (a property named so counts too: erring towards support is safe). */
function usesKeyword(schemas: readonly unknown[], keywords: ReadonlySet<string>): boolean {
  const has = (value: unknown): boolean => {
    if (Array.isArray(value)) return value.some(has);
    if (typeof value !== "object" || value === null) return false;
    return Object.entries(value).some(([key, inner]) => keywords.has(key) || has(inner));
  };
  return schemas.some(has);
}

/** ajv's standalone module is CommonJS: Node hands it over as the function, TypeScript as its namespace. */
function standaloneCode(ajv: Ajv, refs: Record<string, string>): string {
  const fn = (standalone as unknown as { default: typeof standalone.default }).default ?? standalone;
  return (fn as unknown as (ajv: Ajv, refs: Record<string, string>) => string)(ajv, refs);
}

/**
 * Replaces each `require()` ajv emitted by a named import from the runtime module (a format by its
 * own export, so that a bundle keeps only the formats it uses); any other `require(` in the code
 * (not in a string: descriptions may say anything) is an error.
 */
export function rewriteRequires(code: string): string {
  const used = new Set<string>();
  const formatsRequire = `require("${RUNTIME_MODULE}").formats`;
  let rewritten = "";
  let copied = 0;
  for (const found of codeOutsideStrings(code).matchAll(/\brequire\s*\(/g)) {
    REQUIRE.lastIndex = found.index;
    const match = REQUIRE.exec(code)?.[0];
    const name = match === undefined ? undefined : match.startsWith(formatsRequire) ? formatExport(match.slice(formatsRequire.length)) : RUNTIME_IMPORTS[match];
    if (!match || !name) throw new Error(`ajv emitted ${match ?? code.slice(found.index, found.index + 80)}, which codegen has no import for`);
    used.add(name);
    rewritten += code.slice(copied, found.index) + name;
    copied = found.index + match.length;
  }
  rewritten += code.slice(copied);
  const imports = used.size > 0 ? `import { ${[...used].sort().join(", ")} } from "${RUNTIME_MODULE}";\n` : "";
  return imports + rewritten.replace(/^"use strict";/, "");
}

/** A `require()` as ajv emits it, with the member it reads (`.default`, `.formats.uri`, `.formats["date-time"]`). */
const REQUIRE = /require\(("[^"]+")\)(?:\.[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*|\["[^"]+"\])?)?/y;

/**
 * The runtime module's export of a format ajv reached as `formats.name` or `formats["a-name"]`: its
 * name in camelCase plus `Format` (`dateTimeFormat`), checked against the module itself.
 */
function formatExport(access: string): string | undefined {
  const name = /^\.([A-Za-z_$][\w$]*)$/.exec(access)?.[1] ?? /^\["([^"]+)"\]$/.exec(access)?.[1];
  if (name === undefined) return undefined;
  const exportName = name.replace(/-([a-z0-9])/g, (_m, c: string) => c.toUpperCase()) + "Format";
  const value = (runtimeAjv as Record<string, unknown>)[exportName];
  if (value === undefined || value !== (formats as Record<string, unknown>)[name]) {
    throw new Error(`format "${name}" has no export ${exportName} in ${RUNTIME_MODULE}`);
  }
  return exportName;
}

/**
 * Marks what ajv builds at the top of the module from a call, a pattern's `new RegExp(...)`, as pure:
 * a bundler may then drop it with the validators that use it, instead of keeping it (and them) for
 * its possible side effects.
 */
export function markPure(code: string): string {
  return code.replace(/^(const pattern\d+ = )new RegExp\(/gm, "$1/* @__PURE__ */ new RegExp(");
}

/**
 * Makes error collection linear and bounded, without changing a verdict. ajv gathers errors in
 * `vErrors` and counts them in `errors`, and decides validity by that count alone; but it appends a
 * called validator's errors with `vErrors.concat(...)`, a copy of all the earlier ones per failing
 * item (quadratic: 80,000 bad array items took 26 s), and it keeps every error.
 *
 * Rewritten, each validator takes `maxErrors` (default `DEFAULT_MAX_ERRORS`) in its context
 * argument, passes it to the validators it calls, and stores at most that many error objects while
 * `errors` still counts every one: `vErrors` is always the first `min(errors, maxErrors)` errors of
 * what ajv would hold. Pushes stop at the cap; a callee's errors are appended up to it and its count
 * (`validateN.errorCount`, set beside `validateN.errors`) is added; ajv's resets of the count
 * (`vErrors.length = _errsN` after a failed `anyOf` branch, an `if`, a `not`) shorten the array only
 * when it is longer. Every statement of ajv's that touches `vErrors` must be one of these forms, or
 * generation fails: a form codegen does not know could otherwise break the count.
 */
export function limitErrors(code: string): string {
  const expect = (what: string, replaced: number, total: number) => {
    if (replaced !== total) throw new Error(`ajv emitted ${total - replaced} ${what} of a form codegen does not know`);
  };
  let count = 0;
  let rewritten = code.replace(/^function (validate\d+)\(data, \{instancePath="", parentData, parentDataProperty, rootData=data(, dynamicAnchors=\{\})?\}=\{\}\)\{$/gm, (_m, name: string, dynamic = "") => {
    count++;
    return `function ${name}(data, {instancePath="", parentData, parentDataProperty, rootData=data${dynamic}, maxErrors=${DEFAULT_MAX_ERRORS}}={}){`;
  });
  expect("validator function(s)", count, code.match(/^(?:async )?function /gm)?.length ?? 0);
  // The context of every call of another validator ends in `rootData}` (or `rootData,dynamicAnchors}`).
  rewritten = rewritten.replace(/,rootData(,dynamicAnchors)?\}/g, ",rootData$1,maxErrors}");
  count = 0;
  rewritten = rewritten.replace(/^else \{\nvErrors\.push\((err\d+)\);\n\}$/gm, (_m, err: string) => {
    count++;
    return `else if(errors < maxErrors){\nvErrors.push(${err});\n}`;
  });
  expect("push(es) of an error", count, code.match(/vErrors\.push\(/g)?.length ?? 0);
  count = 0;
  rewritten = rewritten.replace(
    new RegExp(`^vErrors = vErrors === null \\? (${CALLEE})\\.errors : vErrors\\.concat\\(\\1\\.errors\\);\nerrors = vErrors\\.length;$`, "gm"),
    (_m, callee: string) => {
      count++;
      return [
        "if(vErrors === null){",
        `vErrors = ${callee}.errors;`,
        "}",
        "else {",
        `for(const err of ${callee}.errors){if(vErrors.length >= maxErrors){break;} vErrors.push(err);}`,
        "}",
        `errors += ${callee}.errorCount;`,
      ].join("\n");
    },
  );
  expect("append(s) of a called validator's errors", count, code.match(/vErrors\.concat\(/g)?.length ?? 0);
  rewritten = rewritten.replace(/^vErrors\.length = (_errs\d+);$/gm, "if(vErrors.length > $1){\nvErrors.length = $1;\n}");
  count = 0;
  rewritten = rewritten.replace(/^(validate\d+)\.errors = (vErrors|null|\[.*\]);$/gm, (line, name: string, value: string) => {
    count++;
    const errorCount = value === "vErrors" ? "errors" : value === "null" ? "0" : "1";
    return `${line}\n${name}.errorCount = ${errorCount};`;
  });
  expect("result(s)", count, code.match(/\.errors = /g)?.length ?? 0);
  // The push of one error, as ajv writes it at every failing keyword, is one call of a helper the
  // module declares: about a fifth of a large module's text, and V8 compiles all of it on first use.
  count = 0;
  rewritten = rewritten.replace(/^if\(vErrors === null\)\{\nvErrors = \[(err\d+)\];\n\}\nelse if\(errors < maxErrors\)\{\nvErrors\.push\(\1\);\n\}\nerrors\+\+;$/gm, (_m, err: string) => {
    count++;
    return `vErrors = ${PUSH_ERROR}(vErrors, ${err}, errors++, maxErrors);`;
  });
  if (count > 0) rewritten += `\n${PUSH_ERROR_FUNCTION}\n`;
  const unknown = rewritten.split("\n").filter((line) => line.includes("vErrors") && !KNOWN_ERROR_LINES.some((known) => known.test(line)));
  if (unknown.length > 0) throw new Error(`ajv emitted error handling codegen does not know: ${unknown.slice(0, 3).join(" | ")}`);
  return rewritten;
}

/** Keeps the first `maxErrors` errors (`count` are kept or dropped before this one). */
const PUSH_ERROR_FUNCTION = `function ${PUSH_ERROR}(list, error, count, maxErrors){
if(list === null){
return [error];
}
if(count < maxErrors){
list.push(error);
}
return list;
}`;

/**
 * A validator ajv calls and appends the errors of: another of the module (`validateN`), a
 * recursive one through its wrapper (`wrapperN.validate`), an inlined one (`_vN`), or the root
 * a 2019-09 `$recursiveRef` lands on (`rootN.validate`).
 */
const CALLEE = String.raw`validate\d+|wrapper\d+\.validate|_v\d+|root\d+\.validate`;

/** Every statement about `vErrors` that `limitErrors` leaves, so none escapes it. */
const KNOWN_ERROR_LINES = [
  /^let vErrors = null;$/,
  /^if\(vErrors === null\)\{$/,
  /^vErrors = \[err\d+\];$/,
  /^vErrors\.push\(err\d+\);$/,
  new RegExp(`^vErrors = (?:${CALLEE})\\.errors;$`),
  new RegExp(`^for\\(const err of (?:${CALLEE})\\.errors\\)\\{if\\(vErrors\\.length >= maxErrors\\)\\{break;\\} vErrors\\.push\\(err\\);\\}$`),
  /^if\(vErrors !== null\)\{$/,
  /^if\(vErrors\.length > _errs\d+\)\{$/,
  /^vErrors\.length = _errs\d+;$/,
  /^vErrors = null;$/,
  /^validate\d+\.errors = vErrors;$/,
  new RegExp(`^vErrors = ${PUSH_ERROR}\\(vErrors, err\\d+, errors\\+\\+, maxErrors\\);$`),
];

/**
 * ajv checks `maxLength` and `minLength` by counting code points with `ucs2length`, a loop over
 * the whole string, on every check: that was half the cost of validating a stream envelope. The
 * string's length in UTF-16 units mostly decides the check already, because a string of L units
 * has between L/2 and L code points: more than N code points needs more than N units, and fewer
 * than N code points needs fewer than 2N units. Each check ajv emitted,
 * `if(funcK(x) > N){` or `if(funcK(x) < N){` where `x` is the value (`dataN`) or, under
 * `propertyNames`, the key (`keyN`), is guarded by that cheaper test, so the count only runs when
 * it can change the answer. Results are identical. A call of any other form is an error naming
 * the schema place it comes from.
 */
export function decideLengthsByUnits(code: string): string {
  const alias = /^const (func\d+) = ucs2length;$/m.exec(code)?.[1];
  if (!alias) return code;
  // A variable, or a property read of one (`data.name`, `data["a-b"]`): reading it twice is safe.
  const check = new RegExp(String.raw`\bif\(${alias}\(([A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*|\["[^"\\]*"\])*)\) ([<>]) (\d+)\)\{`, "y");
  const masked = codeOutsideStrings(code);
  let rewritten = "";
  let copied = 0;
  for (const found of masked.matchAll(new RegExp(String.raw`\b${alias}\(`, "g"))) {
    check.lastIndex = found.index - 3;
    const match = code.slice(found.index - 3, found.index) === "if(" ? check.exec(code) : null;
    if (!match) throw new Error(`ajv emitted a ${alias}() (ucs2length) call of a form codegen does not know, for ${schemaPlaceAfter(code, found.index)}: ${code.slice(found.index, found.index + 60)}`);
    const [whole, value, op, limit] = match as unknown as [string, string, string, string];
    const units = op === ">" ? limit : String(2 * Number(limit));
    rewritten += code.slice(copied, match.index) + `if(${value}.length ${op} ${units} && ${alias}(${value}) ${op} ${limit}){`;
    copied = match.index + whole.length;
  }
  return rewritten + code.slice(copied);
}
