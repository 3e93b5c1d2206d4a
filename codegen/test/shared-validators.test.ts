import { describe, expect, it } from "vitest";
import { dropEqualFunctions, equalFunctions, exportShared, shareEqualFunctions } from "../src/shared-validators.js";

// A variant's validators equal to the default variant's are imported from its module. Equal means
// the same text but for the names they read, where those names are themselves equal: the
// greatest such relation, so recursive validators pair up, and nothing whose error paths, schema
// constants or callees differ does.

const module = (body: string) => `// @ts-nocheck\nimport type { CompiledValidator } from "@flowspec/runtime/validation";\nimport { ucs2length } from "@flowspec/runtime/ajv";\n\n${body}\n`;

/** A validator that checks `type` and calls `callee` on `data.next` (or nothing). */
const fn = (name: string, schemaPath: string, callee?: string, extra = "") =>
  [
    `function ${name}(data){`,
    "let errors = 0;",
    `if(typeof data !== "object"){errors++; ${name}.errors = [{schemaPath:${JSON.stringify(schemaPath)}}];}`,
    ...(callee ? [`else if(data.next !== undefined && !${callee}(data.next)){errors++; ${name}.errors = ${callee}.errors;}`] : []),
    extra,
    "return errors === 0;",
    "}",
  ].join("\n");

describe("equalFunctions", () => {
  it("pairs functions equal up to the names they call, recursion included", () => {
    const base = module([`export const A: CompiledValidator = validate1;`, fn("validate1", "#/a", "validate2"), fn("validate2", "#/b", "validate1")].join("\n\n"));
    const variant = module([`export const A: CompiledValidator = validate7;`, fn("validate7", "#/a", "validate9"), fn("validate9", "#/b", "validate7")].join("\n\n"));
    expect([...equalFunctions(variant, base)]).toEqual([
      ["validate7", "validate1"],
      ["validate9", "validate2"],
    ]);
  });

  it("does not pair a function whose error path differs, nor the ones that call it", () => {
    const base = module([fn("validate1", "#/a", "validate2"), fn("validate2", "#/b"), fn("validate3", "#/c")].join("\n\n"));
    const variant = module([fn("validate1", "#/a", "validate2"), fn("validate2", "#/B"), fn("validate3", "#/c")].join("\n\n"));
    expect([...equalFunctions(variant, base)]).toEqual([["validate3", "validate3"]]);
  });

  it("does not pair functions that read schema constants of different text", () => {
    const reads = (schema: string) => fn("validate1", "#/a", undefined, `if(!${schema}.enum.includes(data)){errors++;}`);
    const base = module([`const schema1 = {"enum":["a","b"]};`, reads("schema1")].join("\n"));
    const same = module([`const schema4 = {"enum":["a","b"]};`, reads("schema4")].join("\n"));
    const other = module([`const schema1 = {"enum":["a","b","c"]};`, reads("schema1")].join("\n"));
    expect([...equalFunctions(same, base)]).toEqual([["validate1", "validate1"]]);
    expect(equalFunctions(other, base).size).toBe(0);
  });

  it("does not pair a recursive cycle when one of its members differs", () => {
    const base = module([fn("validate1", "#/a", "validate2"), fn("validate2", "#/b", "validate1")].join("\n\n"));
    const variant = module([fn("validate1", "#/a", "validate2"), fn("validate2", "#/b", "validate1", "errors++;")].join("\n\n"));
    expect(equalFunctions(variant, base).size).toBe(0);
  });

  it("does not take a name inside a string for a call", () => {
    const base = module([fn("validate1", "#/validate2"), fn("validate2", "#/x")].join("\n\n"));
    const variant = module([fn("validate1", "#/validate3"), fn("validate3", "#/x")].join("\n\n"));
    expect([...equalFunctions(variant, base)]).toEqual([["validate3", "validate2"]]);
  });
});

describe("shareEqualFunctions", () => {
  const base = module(
    [`export const A: CompiledValidator = validate1;`, `const schema1 = {"enum":["a"]};`, fn("validate1", "#/a", "validate2"), fn("validate2", "#/b", undefined, "if(ucs2length(data) > 1 && schema1.enum){errors++;}")].join("\n\n"),
  );
  const variant = module(
    [`export const A: CompiledValidator = validate5;`, `const schema1 = {"enum":["a"]};`, fn("validate5", "#/A", "validate6"), fn("validate6", "#/b", undefined, "if(ucs2length(data) > 1 && schema1.enum){errors++;}")].join("\n\n"),
  );

  it("imports the equal functions from the default module and drops what only they read", () => {
    const shared = shareEqualFunctions(variant, base, "./validators.strict.js");
    expect(shared.imported).toEqual(["validate2"]);
    expect(shared.variant).toContain('import { validate2 as validate6 } from "./validators.strict.js";');
    expect(shared.variant).not.toContain("function validate6(");
    expect(shared.variant).not.toContain("const schema1");
    expect(shared.variant).not.toContain("ucs2length");
    expect(shared.variant).toContain("function validate5(");
    expect(exportShared(base, new Set(shared.imported))).toMatch(/\nexport \{ validate2 \};$/);
  });

  it("gives modules that validate as the unshared ones do", () => {
    const shared = shareEqualFunctions(variant, base, "./validators.strict.js");
    const load = (code: string, imports: Record<string, unknown>) => {
      const body = code
        .replace(/^\/\/ @ts-nocheck$/m, "")
        .replace(/^import type .*$/m, "")
        .replace(/^import \{ (.*) \} from "(.*)";$/gm, (_m, names: string, from: string) => `const { ${names.replace(/ as /g, ": ")} } = imports[${JSON.stringify(from)}];`)
        .replace(/^export \{ (.*) \};$/m, "exports.push($1);")
        .replace(/^export const A: CompiledValidator = /m, "const A = ");
      const exports: unknown[] = [];
      const A = new Function("imports", "exports", `${body}\nreturn A;`)(imports, exports);
      return { A, exports };
    };
    const runtime = { "@flowspec/runtime/ajv": { ucs2length: (s: unknown) => String(s).length } };
    const strict = load(exportShared(base, new Set(shared.imported)), runtime);
    const shared6 = load(shared.variant, { ...runtime, "./validators.strict.js": { validate2: strict.exports[0] } }).A;
    const own = load(variant, runtime).A;
    for (const data of [1, {}, { next: 1 }, { next: {} }, { next: { next: "x" } }]) {
      expect(shared6(data)).toBe(own(data));
      expect(JSON.stringify(shared6.errors)).toBe(JSON.stringify(own.errors));
    }
  });
});

describe("dropEqualFunctions", () => {
  // A format ajv emits as a regular-expression literal (uri-reference) holds brackets: the module was
  // once compared with a renamed copy of itself (formats0__copy), whose literal read as code, and
  // codegen failed.
  it("reads a format's regular-expression literal as a literal", () => {
    const format = "const formats0 = /^\\[v[0-9]+(?:\\/|$)/i;";
    const check = (name: string) => fn(name, "#/a", undefined, "if(!formats0.test(data)){errors++;}");
    const code = module([format, `export const A: CompiledValidator = validate1;`, `export const B: CompiledValidator = validate2;`, check("validate1"), check("validate2")].join("\n\n"));
    const dropped = dropEqualFunctions(code);
    expect(dropped).toContain(format);
    expect(dropped).toContain("export const B: CompiledValidator = validate1;");
    expect(dropped).not.toContain("function validate2(");
  });

  it("keeps the first of equal functions in a module and points every read of the others at it, strings left alone", () => {
    const code = module(
      [
        `export const A: CompiledValidator = validate1;`,
        `export const B: CompiledValidator = validate3;`,
        fn("validate1", "#/a", "validate2"),
        fn("validate2", "#/b"),
        fn("validate3", "#/b", undefined, 'const note = "validate3";'),
        fn("validate4", "#/c", "validate3"),
      ].join("\n\n"),
    );
    // validate3 differs from validate2 only by its string: not equal. Without it, they are.
    expect(dropEqualFunctions(code)).toBe(code);
    const equalCode = code.replace('const note = "validate3";', "");
    const dropped = dropEqualFunctions(equalCode);
    expect(dropped).not.toContain("function validate3(");
    expect(dropped).toContain("export const B: CompiledValidator = validate2;");
    expect(dropped).toContain("!validate2(data.next)){errors++; validate4.errors = validate2.errors;}");
    expect(dropped.match(/^function /gm)).toHaveLength(3);
  });
});
