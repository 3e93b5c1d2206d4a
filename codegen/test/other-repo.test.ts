import { spawnSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { repoRoot } from "../../test/support.js";

const cli = join(repoRoot, "codegen/src/bin.ts");
const example = join(repoRoot, "examples/codegen-other-repo");
const tmp = mkdtempSync(join(tmpdir(), "flowspec-codegen-other-"));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

/** Runs `flowspec-codegen` from source as a user would run the bin, with the repository as cwd. */
function codegen(...args: string[]) {
  const run = spawnSync(process.execPath, ["--import", "tsx", cli, ...args], { cwd: repoRoot, encoding: "utf8", timeout: 120_000 });
  return { status: run.status, stdout: run.stdout, stderr: run.stderr };
}

describe("flowspec-codegen on schemas that are not the four specs", () => {
  it("--check passes on the committed example output", () => {
    const run = codegen("--schemas", "examples/codegen-other-repo/schemas", "--out", "examples/codegen-other-repo/src/generated", "--check");
    expect(run.stderr).toContain("examples/codegen-other-repo/src/generated is up to date");
    expect(run.status).toBe(0);
  });

  it("--check passes on a checkout with CRLF line endings (core.autocrlf), schemas and output alike", () => {
    const copy = join(tmp, "crlf");
    cpSync(example, copy, { recursive: true, filter: (path) => !path.includes("node_modules") });
    const toCrlf = (dir: string) => {
      for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true })) {
        if (!entry.isFile()) continue;
        const path = join(entry.parentPath, entry.name);
        writeFileSync(path, readFileSync(path, "utf8").replace(/\n/g, "\r\n"));
      }
    };
    expect(codegen("--schemas", join(copy, "schemas"), "--out", join(copy, "src/generated")).status).toBe(0);
    toCrlf(join(copy, "schemas"));
    toCrlf(join(copy, "src/generated"));
    expect(readFileSync(join(copy, "schemas/invoice.json"), "utf8")).toContain("\r\n");
    const run = codegen("--schemas", join(copy, "schemas"), "--out", join(copy, "src/generated"), "--check");
    expect(run.stdout).toBe("");
    expect(run.status).toBe(0);
  });

  it("--check gives the same answer from any working directory (headers name folders from the project, not the cwd)", () => {
    const copy = join(tmp, "cwd");
    cpSync(example, copy, { recursive: true, filter: (path) => !path.includes("node_modules") });
    // Generated from the repository root with absolute paths, checked from inside the copy and from
    // its src folder with relative ones, as `npm run -w` or a CI step's own cwd would.
    expect(codegen("--schemas", join(copy, "schemas"), "--out", join(copy, "src/generated")).status).toBe(0);
    for (const [cwd, schemas, out] of [
      [copy, "schemas", "src/generated"],
      [join(copy, "src"), "../schemas", "generated"],
    ] as const) {
      // tsx by its path: the copy's folder has no node_modules to find it in.
      const tsx = pathToFileURL(join(repoRoot, "node_modules/tsx/dist/loader.mjs")).href;
      const run = spawnSync(process.execPath, ["--import", tsx, cli, "--schemas", schemas, "--out", out, "--check"], { cwd, encoding: "utf8", timeout: 120_000 });
      expect(run.stdout).toBe("");
      expect(run.status).toBe(0);
    }
    expect(readFileSync(join(copy, "src/generated/types.ts"), "utf8")).toContain(" from schemas:");
  });

  it("--check fails with a diff and the fix command after a schema edit", () => {
    const copy = join(tmp, "edited");
    cpSync(example, copy, { recursive: true, filter: (path) => !path.includes("node_modules") });
    const invoicePath = join(copy, "schemas/invoice.json");
    const invoice = JSON.parse(readFileSync(invoicePath, "utf8"));
    invoice.properties.status.enum.push("uncollectible");
    writeFileSync(invoicePath, JSON.stringify(invoice, null, 2));
    const run = codegen("--schemas", join(copy, "schemas"), "--out", join(copy, "src/generated"), "--check");
    expect(run.status).toBe(1);
    expect(run.stdout).toMatch(/^\+.*"uncollectible"/m);
    expect(run.stdout).toContain("a/types.ts");
    expect(run.stderr).toMatch(/is stale against .*schemas \(\d+ changed file\(s\)\)/);
    expect(run.stderr).toContain("Fix: run `npm run codegen`, then commit the result.");
  });

  it("generates from a draft-07 folder without codegen.json: one root per schema file, named by title", () => {
    const copy = join(tmp, "no-config");
    cpSync(join(example, "schemas"), join(copy, "schemas"), { recursive: true });
    rmSync(join(copy, "schemas/codegen.json"));
    const out = join(copy, "generated");
    const run = codegen("--schemas", join(copy, "schemas"), "--out", out);
    expect(run.status).toBe(0);
    const index = readFileSync(join(out, "index.ts"), "utf8");
    for (const name of ["validateInvoice", "validateCustomer", "CustomerSchema"]) expect(index).toContain(`export const ${name}`);
    // common.json only holds definitions, so it is no root; its definitions still get types.
    expect(index).not.toContain("validateBillingCommonDefinitions");
    expect(readFileSync(join(out, "types.ts"), "utf8")).toContain('export type Currency = "EUR" | "USD" | "GBP";');
    expect(codegen("--schemas", join(copy, "schemas"), "--out", out, "--check").status).toBe(0);
  });

  it("generates working validators from a 2020-12 folder without codegen.json", async () => {
    const schemas = join(tmp, "events/schemas");
    mkdirSync(schemas, { recursive: true });
    const dialect = "https://json-schema.org/draft/2020-12/schema";
    writeFileSync(join(schemas, "point.json"), JSON.stringify({ $schema: dialect, $id: "https://events.example/point.json", title: "Point", type: "array", prefixItems: [{ type: "number" }, { type: "number" }], items: false, minItems: 2 }));
    writeFileSync(
      join(schemas, "event.json"),
      JSON.stringify({ $schema: dialect, $id: "https://events.example/event.json", title: "Event", type: "object", required: ["kind", "at"], properties: { kind: { enum: ["click", "scroll"] }, at: { $ref: "point.json" } }, additionalProperties: false }),
    );
    const out = join(tmp, "events/generated");
    expect(codegen("--schemas", schemas, "--out", out).status).toBe(0);
    expect(readFileSync(join(out, "types.ts"), "utf8")).toMatch(/export type Point = \[number, number\];/);
    const api = (await import(join(out, "index.ts"))) as Record<string, (value: unknown) => { ok: boolean; errors?: { path: string }[] }>;
    expect(api.validateEvent!({ kind: "click", at: [1, 2] }).ok).toBe(true);
    const bad = api.validateEvent!({ kind: "hover", at: [1, 2, 3] });
    expect(bad.ok).toBe(false);
    expect(bad.errors!.map((e) => e.path).sort()).toEqual(["/at", "/kind"]);
  });

  it.each([
    ["the schema folder itself", (dir: string) => join(dir, "schemas")],
    ["a folder that holds the schema folder", (dir: string) => dir],
  ])("refuses to write to %s: the output folder's other files are removed", (_name, outOf) => {
    const copy = join(tmp, `out-holds-schemas-${Math.random().toString(36).slice(2)}`);
    cpSync(join(example, "schemas"), join(copy, "schemas"), { recursive: true });
    const run = codegen("--schemas", join(copy, "schemas"), "--out", outOf(copy));
    expect(run.status).toBe(2);
    expect(run.stderr).toMatch(/--out .* holds the schema folder/);
    expect(existsSync(join(copy, "schemas/invoice.json"))).toBe(true);
  });

  it.each([
    ["a folder with no schemas", () => mkdirSync(join(tmp, "empty"), { recursive: true }), "empty", /no \.json schema files/],
    ["an unsupported dialect", () => writeFileSync(join(mkdirOf(tmp, "d6"), "a.json"), JSON.stringify({ $schema: "http://json-schema.org/draft-06/schema#", type: "string" })), "d6", /a\.json: "\$schema" is "http:\/\/json-schema\.org\/draft-06\/schema#", which flowspec does not read/],
    ["a codegen.json with an unknown key", () => writeFileSync(join(mkdirOf(tmp, "badcfg"), "codegen.json"), JSON.stringify({ root: {} })), "badcfg", /codegen\.json: unknown key "root"/],
  ])("exits 2 on %s, naming the file", (_name, setup, dir, message) => {
    setup();
    const run = codegen("--schemas", join(tmp, dir), "--out", join(tmp, `${dir}-out`));
    expect(run.status).toBe(2);
    expect(run.stderr).toMatch(message);
    expect(existsSync(join(tmp, `${dir}-out`))).toBe(false);
  });
});

function mkdirOf(base: string, name: string): string {
  mkdirSync(join(base, name), { recursive: true });
  return join(base, name);
}
