import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { runCli, type CliIo } from "@flowspec/cli";
import { corpusDir, repoRoot } from "../../../test/support.js";

function capture(cwd = repoRoot): CliIo & { out: () => string; err: () => string } {
  let out = "";
  let err = "";
  return {
    stdout: { write: (text: string) => (out += text) },
    stderr: { write: (text: string) => (err += text) },
    cwd,
    env: {},
    out: () => out,
    err: () => err,
  };
}

const canonical = join(corpusDir("agents-json"), "agents_json__agentsJson.schema.json");
const variant = join(corpusDir("agents-json"), "static__schema.agents.json");
const dir = mkdtempSync(join(tmpdir(), "flowspec-cli-diff-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const file = (name: string, json: unknown) => {
  writeFileSync(join(dir, name), typeof json === "string" ? json : JSON.stringify(json));
  return join(dir, name);
};
const draft07 = "http://json-schema.org/draft-07/schema#";
const narrow = file("narrow.json", { $schema: draft07, type: "string" });
// NEW drops a definition that an unchanged file still $refs: codegen could not read NEW.
const folder = (name: string, defs: Record<string, unknown>) => {
  mkdirSync(join(dir, name));
  file(`${name}/enums.json`, { $schema: draft07, definitions: defs });
  file(`${name}/task.json`, { $schema: draft07, properties: { status: { $ref: "enums.json#/definitions/status" } } });
  return join(dir, name);
};
const withDef = folder("with-def", { status: { enum: ["a"] } });
const withoutDef = folder("without-def", {});
const narrowNumber = file("number.json", { $schema: draft07, type: "number" });
const wide = file("wide.json", { $schema: draft07, type: ["string", "null"] });

describe("flowspec diff", () => {
  it.each([
    { name: "agents.json upstream, --fail-on both", args: [canonical, variant], exit: 1, shows: /breaks new readers +required-added/ },
    { name: "agents.json upstream, --fail-on reader", args: [canonical, variant, "--fail-on", "reader"], exit: 1, shows: /--fail-on reader: 3 breaking change\(s\); exit 1/ },
    { name: "agents.json upstream, --fail-on writer", args: [canonical, variant, "--fail-on", "writer"], exit: 0, shows: /--fail-on writer: nothing breaking; exit 0/ },
    { name: "agents.json upstream, --fail-on none", args: [canonical, variant, "--fail-on", "none"], exit: 0, shows: /3 breaking for new readers/ },
    { name: "widening fails writers", args: [narrow, wide, "--fail-on", "writer"], exit: 1, shows: /breaks old readers +type-widened +#\/type/ },
    { name: "widening passes readers", args: [narrow, wide, "--fail-on", "reader"], exit: 0, shows: /type string became string \| null/ },
    { name: "a folder against itself", args: ["schemas/apflow", "schemas/apflow"], exit: 0, shows: /0 change\(s\)/ },
  ])("$name", async ({ args, exit, shows }) => {
    const io = capture();
    expect(await runCli(["diff", ...args], io)).toBe(exit);
    expect(io.out()).toMatch(shows);
    expect(io.err()).toBe("");
  });

  it("--format json gives the changes with both pointers and both directions", async () => {
    const io = capture();
    expect(await runCli(["diff", canonical, variant, "--format", "json", "--no-annotations"], io)).toBe(1);
    const report = JSON.parse(io.out());
    expect(report).toMatchObject({ failOn: "both", failed: true, summary: { changes: 3, breakingForNewReader: 3, breakingForOldReader: 0 } });
    expect(report.changes[0]).toEqual({
      kind: "required-added",
      fileOld: "agents_json__agentsJson.schema.json",
      pointerOld: "/properties/flows/items/properties/links/items/properties/origin/required",
      fileNew: "static__schema.agents.json",
      pointerNew: "/properties/flows/items/properties/links/items/properties/origin/required",
      breaking: { forNewReader: true, forOldReader: false, forCode: false },
      message: 'property "actionId" is now required: NEW rejects documents without it',
    });
  });

  // github-workflow's `container` definition: removed, and no document changes verdict.
  const defined = file("defined.json", { $schema: draft07, type: "string", definitions: { container: { type: "object" } } });
  const undefinedDef = file("undefined.json", { $schema: draft07, type: "string", definitions: {} });

  it.each([
    { name: "by default", args: [], exit: 1, shows: /breaks code +def-removed +#\/definitions\/container -> #[\s\S]*1 breaking for code[\s\S]*--fail-on both: 1 breaking change\(s\); exit 1/ },
    { name: "under --fail-on writer", args: ["--fail-on", "writer"], exit: 1, shows: /--fail-on writer: 1 breaking change\(s\); exit 1/ },
    { name: "with --ignore-code-breaks", args: ["--ignore-code-breaks"], exit: 0, shows: /breaks code +def-removed[\s\S]*nothing breaking; exit 0/ },
    { name: "under --fail-on none", args: ["--fail-on", "none"], exit: 0, shows: /breaks code +def-removed/ },
  ])("a removed definition breaks code, not documents: exit $exit $name", async ({ args, exit, shows }) => {
    const io = capture();
    expect(await runCli(["diff", defined, undefinedDef, ...args], io)).toBe(exit);
    expect(io.out()).toMatch(shows);
    expect(io.out()).toMatch(/0 breaking for new readers .*, 0 breaking for old readers/);
  });

  it("--format json says whether code breaks fail the run", async () => {
    const io = capture();
    expect(await runCli(["diff", defined, undefinedDef, "--format", "json", "--ignore-code-breaks"], io)).toBe(0);
    expect(JSON.parse(io.out())).toMatchObject({ failOn: "both", failOnCode: false, failed: false, summary: { breakingForNewReader: 0, breakingForOldReader: 0, breakingForCode: 1 } });
  });

  it("shows a keyword no dialect defines as changed, breaking nothing (tslint's `min`)", async () => {
    const io = capture();
    const withMin = file("with-min.json", { $schema: draft07, type: "number", min: 1 });
    expect(await runCli(["diff", narrowNumber, withMin], io)).toBe(0);
    expect(io.out()).toMatch(/compatible +unknown-keyword-changed +#\/min[\s\S]*no JSON Schema dialect defines it/);
  });

  it.each([
    { name: "an unknown --fail-on", args: [narrow, wide, "--fail-on", "clients"], message: /--fail-on must be one of reader, writer, both, none, not "clients"/ },
    { name: "an unknown --format", args: [narrow, wide, "--format", "yaml"], message: /--format must be text or json/ },
    { name: "a missing file", args: [narrow, join(dir, "missing.json")], message: /NEW .*missing\.json: cannot read: ENOENT/ },
    { name: "a file that is not JSON", args: [file("broken.json", "{ nope"), wide], message: /broken\.json:1:3: not valid JSON: Expected property name/ },
    { name: "a schema without $schema", args: [file("bare.json", { type: "string" }), wide], message: /bare\.json: no "\$schema"/ },
    { name: "a missing argument", args: [narrow], message: /missing required argument 'new'/ },
    { name: "a file against a folder", args: [narrow, withDef], message: /OLD .*narrow\.json is a file and NEW .*with-def is a folder/ },
    { name: "a $ref left dangling in an unchanged file", args: [withDef, withoutDef, "--fail-on", "writer"], message: /NEW task\.json#\/properties\/status: \$ref "enums\.json#\/definitions\/status": enums\.json has nothing at/ },
  ])("exits 2 on $name, saying what is wrong", async ({ args, message }) => {
    const io = capture();
    expect(await runCli(["diff", ...args], io)).toBe(2);
    expect(io.err()).toMatch(message);
  });

  // package.json `sideEffects` (SchemaStore f4d7fd9): a typed property added to an object that allows undeclared properties.
  const open = file("open.json", { $schema: draft07, type: "object", properties: { name: { type: "string" } } });
  const typed = file("typed.json", { $schema: draft07, type: "object", properties: { name: { type: "string" }, sideEffects: { type: "boolean" } } });

  it("explains the open-object convention in the default mode, and --strict flags it", async () => {
    const lenient = capture();
    expect(await runCli(["diff", open, typed], lenient)).toBe(0);
    expect(lenient.out()).toMatch(/compatible +property-added[\s\S]*breaking only under --strict/);
    expect(lenient.out()).toMatch(/1 change\(s\) add or remove a typed property of an object that allows undeclared properties[\s\S]*--strict counts them as breaking/);
    const strict = capture();
    expect(await runCli(["diff", open, typed, "--strict", "--fail-on", "reader"], strict)).toBe(1);
    expect(strict.out()).toMatch(/breaks new readers +property-added +# -> #\/properties\/sideEffects/);
    expect(strict.out()).not.toMatch(/--strict counts them/);
  });

  it("--witness prints a document for each breaking change, or marks it unproven", async () => {
    const io = capture();
    expect(await runCli(["diff", open, typed, "--strict", "--witness"], io)).toBe(1);
    expect(io.out()).toMatch(/witness for new readers: \{"sideEffects":"x"\}, rejected at \/sideEffects must be boolean \(typed\.json#\/properties\/sideEffects\/type\)/);
    expect(io.out()).toMatch(/Witnesses: 1 breaking flag\(s\) shown by a document, 0 unproven/);
    const same = capture();
    const before = file("pattern-old.json", { $schema: draft07, type: "string", pattern: "^a+$" });
    const after = file("pattern-new.json", { $schema: draft07, type: "string", pattern: "^a{1,}$" });
    expect(await runCli(["diff", before, after, "--witness", "--format", "json"], same)).toBe(1);
    const report = JSON.parse(same.out());
    expect(report.summary).toMatchObject({ proven: 0, unproven: 2 });
    expect(report.changes[0].witness.forNewReader).toMatchObject({ proven: false, reason: expect.stringMatching(/^no document that OLD accepts and NEW rejects/) });
  });

  it("--help lists the directions, the exit codes and examples", async () => {
    const io = capture();
    expect(await runCli(["diff", "--help"], io)).toBe(0);
    expect(io.out()).toMatch(/Directions:[\s\S]*Exit codes: 0 no breaking change[\s\S]*Examples:\n  flowspec diff/);
  });
});
