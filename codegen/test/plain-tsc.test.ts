import { spawnSync } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { repoRoot } from "../../test/support.js";

// Generated code in a user's own project, built with nothing but `tsc` and the settings strict
// projects use, then run with `node`: no allowJs, no bundler, no copy step. The project lives
// outside the repository and reaches the runtime through node_modules, as an installed package
// (the workspace build: `npm test` builds before it runs this).

const tmp = mkdtempSync(join(tmpdir(), "flowspec-plain-tsc-"));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const DRAFT_07 = "http://json-schema.org/draft-07/schema#";
const DRAFT_2020 = "https://json-schema.org/draft/2020-12/schema";

/** A draft-07 folder with $refs across files (and into a subfolder), and a 2020-12 one. */
const SCHEMAS: Record<string, Record<string, object>> = {
  billing: {
    "common/money.json": {
      $schema: DRAFT_07,
      title: "Money",
      type: "object",
      required: ["amount", "currency"],
      properties: { amount: { type: "number", minimum: 0 }, currency: { $ref: "#/definitions/currency" } },
      additionalProperties: false,
      definitions: { currency: { enum: ["EUR", "USD"] } },
    },
    "order.json": {
      $schema: DRAFT_07,
      title: "Order",
      type: "object",
      required: ["id", "total", "lines"],
      properties: {
        id: { type: "string", format: "uuid" },
        placedAt: { type: "string", format: "date-time" },
        total: { $ref: "common/money.json" },
        lines: { type: "array", minItems: 1, items: { $ref: "#/definitions/line" } },
      },
      definitions: {
        line: { type: "object", required: ["sku", "price"], properties: { sku: { type: "string", pattern: "^[A-Z]{3}-\\d+$" }, price: { $ref: "common/money.json" } } },
      },
    },
  },
  events: {
    "point.json": { $schema: DRAFT_2020, title: "Point", type: "array", prefixItems: [{ type: "number" }, { type: "number" }], items: false, minItems: 2 },
    "event.json": {
      $schema: DRAFT_2020,
      title: "Event",
      type: "object",
      required: ["kind", "at"],
      properties: { kind: { enum: ["click", "scroll"] }, at: { $ref: "point.json" }, tags: { type: "array", prefixItems: [{ type: "string" }], items: { type: "integer" } } },
      unevaluatedProperties: false,
    },
  },
};

/** What a user writes against the generated API; it prints each verdict and where the errors are. */
const MAIN = `import { assertOrder, validateOrder, type Order } from "./generated/billing/index.js";
import { EventSchema, isEvent, validateEvent } from "./generated/events/index.js";

const money = { amount: 12.5, currency: "EUR" as const };
const order: Order = { id: "0b6f3a4e-8c1d-4f2a-9e3b-5d7c1a2b3c4d", placedAt: "2025-01-01T00:00:00Z", total: money, lines: [{ sku: "ABC-1", price: money }] };
const badOrder = { id: "nope", placedAt: "yesterday", total: { amount: -1, currency: "GBP" }, lines: [{ sku: "abc", price: money }] };
const paths = (result: { ok: boolean; errors?: { path: string }[] }): string[] => (result.ok ? [] : (result.errors ?? []).map((e) => e.path));
let thrown = "";
try {
  assertOrder(badOrder, { maxErrors: 2 });
} catch (error) {
  thrown = (error as Error).message;
}
console.log(JSON.stringify({
  order: validateOrder(order).ok,
  badOrder: paths(validateOrder(badOrder)),
  thrown,
  event: isEvent({ kind: "click", at: [1, 2], tags: ["a", 1] }),
  badEvent: paths(validateEvent({ kind: "hover", at: [1], tags: [1], extra: true })),
  standard: EventSchema["~standard"].vendor,
}));
`;

const EXPECTED = {
  order: true,
  badOrder: ["/id", "/placedAt", "/total/amount", "/total/currency", "/lines/0/sku"],
  thrown: 'Invalid Order:\n  /id: must be a valid "uuid"\n  /placedAt: must be a valid "date-time"\n  … and 3 more',
  event: true,
  badEvent: ["/kind", "/at", "/tags/0", "/extra"],
  standard: "flowspec",
};

/** Compiler settings of strict projects; `verbatimModuleSyntax` only where the output is ESM (it refuses ESM syntax in a CommonJS file). */
const STRICT = {
  strict: true,
  noUnusedLocals: true,
  noUnusedParameters: true,
  noImplicitReturns: true,
  exactOptionalPropertyTypes: true,
  isolatedModules: true,
  declaration: true,
  target: "ES2022",
  outDir: "dist",
  rootDir: "src",
  types: [],
};

const PROJECTS = [
  { name: "nodenext, ESM", type: "module", options: { module: "nodenext", verbatimModuleSyntax: true } },
  { name: "node16, ESM", type: "module", options: { module: "node16", verbatimModuleSyntax: true } },
  { name: "bundler resolution, ESM", type: "module", options: { module: "esnext", moduleResolution: "bundler", verbatimModuleSyntax: true } },
  { name: "nodenext, CommonJS", type: "commonjs", options: { module: "nodenext" } },
  { name: "commonjs (node10 resolution)", type: "commonjs", options: { module: "commonjs" } },
] as const;

function run(command: string, args: string[], cwd: string) {
  const result = spawnSync(command, args, { cwd, encoding: "utf8", timeout: 180_000 });
  return { status: result.status, output: `${result.stdout}${result.stderr}` };
}

/** Each project's folder: the generated code, main.ts, its package.json and tsconfig.json. */
const folderOf = (name: string) => join(tmp, "projects", name.replace(/\W+/g, "-"));
let build: { status: number | null; output: string };

beforeAll(() => {
  for (const [set, files] of Object.entries(SCHEMAS)) {
    for (const [path, schema] of Object.entries(files)) {
      mkdirSync(join(tmp, "schemas", set, path, ".."), { recursive: true });
      writeFileSync(join(tmp, "schemas", set, path), JSON.stringify(schema, null, 2));
    }
  }
  // The codegen command as a user runs it, from the project's folder.
  const args = Object.keys(SCHEMAS).flatMap((set) => ["--schemas", `schemas/${set}`, "--out", `generated/${set}`]);
  const codegen = run(process.execPath, ["--import", join(repoRoot, "node_modules/tsx/dist/loader.mjs"), join(repoRoot, "codegen/src/bin.ts"), ...args], tmp);
  expect(codegen.output).toContain("[2/2]");
  expect(codegen.status).toBe(0);
  for (const { name, type, options } of PROJECTS) {
    const project = folderOf(name);
    mkdirSync(join(project, "node_modules", "@flowspec"), { recursive: true });
    symlinkSync(join(repoRoot, "packages/runtime"), join(project, "node_modules/@flowspec/runtime"), "dir");
    cpSync(join(tmp, "generated"), join(project, "src/generated"), { recursive: true });
    writeFileSync(join(project, "src/main.ts"), MAIN);
    writeFileSync(join(project, "package.json"), JSON.stringify({ name: "user-project", private: true, type }));
    writeFileSync(join(project, "tsconfig.json"), JSON.stringify({ compilerOptions: { ...STRICT, ...options }, include: ["src"] }, null, 2));
  }
  // One tsc for all the projects (each its own program, as `tsc -p` would build it): one start-up.
  build = run(process.execPath, [join(repoRoot, "node_modules/typescript/bin/tsc"), "-b", ...PROJECTS.map(({ name }) => folderOf(name))], tmp);
}, 300_000);

describe("generated code built with a plain tsc, then run with node", () => {
  it("type-checks and emits in every project, the runtime's declarations checked too (no skipLibCheck)", () => {
    expect(build.output).toBe("");
    expect(build.status).toBe(0);
  });

  it.each(PROJECTS)("$name: runs, validating good and bad documents", ({ name }) => {
    const node = run(process.execPath, ["dist/main.js"], folderOf(name));
    expect(node.status, node.output).toBe(0);
    expect(JSON.parse(node.output)).toEqual(EXPECTED);
  });
});
