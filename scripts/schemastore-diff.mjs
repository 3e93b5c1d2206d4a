#!/usr/bin/env node
// Measures the precision of the built `flowspec diff` (--format json --witness) on SchemaStore
// history pairs: for every reader-break and writer-break flag it searches a witness, a document that
// OLD accepts and NEW rejects (reader) or the reverse (writer), checked with ajv set up as SchemaStore
// sets it up. Candidates are the documents `--witness` found (checked again here, so the measure does
// not rest on flowspec's own validation), the schema's test documents, instances generated from both
// schemas, and systematic mutations of all of them, aimed at what differs between the two schema texts. A
// witness counts for a flag when ajv's rejection lies at the flagged place (same file, one JSON
// Pointer inside the other, and the same property when both name one), or inside a schema the
// flagged place's $refs lead to, at the document place the flag is about. It prints flags, flags with
// a witness, precision, and the misses: witnesses that no flag of their direction explains.
//
//   node scripts/schemastore-diff.mjs [--schemas a.json,b.json]   # the fixture pairs (codegen/test/fixtures/schemastore), or those of some schemas
//   node scripts/schemastore-diff.mjs --repo PATH [--schemas a.json,b.json] [--versions N]   # a checkout's git history
//   add --strict to run `flowspec diff --strict`; --no-witness to leave out `--witness` (as before it existed);
//   --cli PATH to run another build of the `flowspec` bin
//
// Needs the built CLI: `npm run build` (the `flowspec` bin of packages/cli).
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { applyPatch } from "diff";
import { register } from "tsx/esm/api";

register();
const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const { parseDocument, scanRefs } = await import("../codegen/test/schemastore/checkout.ts");
const { dialectOf, referenceAjv } = await import("../codegen/test/schemastore/reference.ts");
const { changeHints, errorAtFlag, errorPlace, flaggedProperty, flagScopes, generatedInstances, mutants, schemaIndex } = await import("../codegen/test/schemastore/witness.ts");

const { values } = parseArgs({
  options: {
    fixtures: { type: "string", default: join(repoRoot, "codegen/test/fixtures/schemastore") },
    repo: { type: "string" },
    schemas: { type: "string" },
    versions: { type: "string", default: "10" },
    out: { type: "string" },
    "mutants-per-document": { type: "string", default: "1500" },
    shard: { type: "string" },
    "report-from": { type: "string", multiple: true },
    strict: { type: "boolean", default: false },
    cli: { type: "string" },
    "no-witness": { type: "boolean", default: false },
    help: { type: "boolean", short: "h", default: false },
  },
});
if (values.help) {
  console.log(
    "Usage: node scripts/schemastore-diff.mjs [--fixtures DIR | --repo PATH [--schemas a.json,b.json] [--versions N]] [--out DIR] [--mutants-per-document N] [--shard K/N]\n" +
      "       node scripts/schemastore-diff.mjs --report-from OUT1/results.json --report-from OUT2/results.json   (one report over shards run apart)",
  );
  process.exit(0);
}
const out = resolve(values.out ?? join(tmpdir(), "flowspec-schemastore-diff"));
const perDocument = Number(values["mutants-per-document"]);
// --cli: another build of the `flowspec` bin (a copy keeps a long run apart from rebuilds of the checkout).
const cli = values.cli ? resolve(values.cli) : join(repoRoot, "packages/cli/dist/bin.js");
if (!existsSync(cli)) {
  console.error("Build first: npm run build");
  process.exit(2);
}
const [shardIndex, shardCount] = (values.shard ?? "1/1").split("/").map(Number);
if (!values["report-from"]) {
  rmSync(out, { recursive: true, force: true });
  mkdirSync(out, { recursive: true });
}

// ---- the pairs: each version as { files: Map<name, text>, documents: [{file, positive, value}] } --------
function fixturePairs(dir) {
  const manifest = JSON.parse(readFileSync(join(dir, "manifest.json"), "utf8"));
  const texts = new Map();
  const fileText = (chain) => {
    const key = chain.join("|");
    if (!texts.has(key)) {
      let text = readFileSync(join(dir, chain[0]), "utf8");
      for (const patch of chain.slice(1)) {
        const next = applyPatch(text, readFileSync(join(dir, patch), "utf8"));
        if (next === false) throw new Error(`${patch} does not apply`);
        text = next;
      }
      texts.set(key, text);
    }
    return texts.get(key);
  };
  const documentsOf = (schema) => {
    const name = schema.replace(/\.json$/, "");
    return [
      ["src/test", true],
      ["src/negative_test", false],
    ].flatMap(([folder, positive]) =>
      existsSync(join(dir, folder, name)) ? readdirSync(join(dir, folder, name)).map((file) => ({ file, positive, value: parseDocument(readFileSync(join(dir, folder, name, file), "utf8"), file) })) : [],
    );
  };
  const version = (label) => {
    const v = manifest.history.versions[label];
    return { label, commit: v.commit, subject: v.subject, files: new Map(Object.entries(v.files).map(([f, entry]) => [f, fileText(entry.chain)])) };
  };
  const only = values.schemas ? new Set(values.schemas.split(",")) : undefined;
  return manifest.history.pairs.filter((pair) => !only || only.has(pair.schema)).map((pair) => ({ schema: pair.schema, old: version(pair.old), new: version(pair.new), documents: documentsOf(pair.schema) }));
}

function repoPairs(repo, schemas, versions) {
  const git = (...args) => spawnSync("git", ["-C", repo, ...args], { encoding: "utf8", maxBuffer: 256 * 1024 * 1024 });
  const show = (rev, path) => {
    const run = git("show", `${rev}:${path}`);
    if (run.status !== 0) throw new Error(`git show ${rev}:${path}: ${run.stderr}`);
    return run.stdout;
  };
  const pairs = [];
  for (const schema of schemas) {
    const commits = git("log", `-${versions + 1}`, "--format=%H %s", "--", `src/schemas/json/${schema}`).stdout.trim().split("\n").reverse();
    const list = commits.map((line) => {
      const [hash, ...subject] = line.split(" ");
      const exists = (g) => git("ls-tree", hash, "--", `src/schemas/json/${g}`).stdout.length > 0;
      const parsed = new Map();
      const read = (g) => {
        if (!parsed.has(g)) parsed.set(g, JSON.parse(show(hash, `src/schemas/json/${g}`)));
        return parsed.get(g);
      };
      const files = [schema, ...scanRefs(schema, read, exists).local];
      return { label: `${schema}@${hash.slice(0, 10)}`, commit: hash, subject: subject.join(" "), files: new Map(files.map((f) => [f, show(hash, `src/schemas/json/${f}`)])) };
    });
    const name = schema.replace(/\.json$/, "");
    const head = commits.length > 0 ? list[list.length - 1].commit : "HEAD";
    const documents = [
      ["src/test", true],
      ["src/negative_test", false],
    ].flatMap(([folder, positive]) =>
      git("ls-tree", "--name-only", head, `${folder}/${name}/`)
        .stdout.split("\n")
        .filter(Boolean)
        .map((path) => ({ file: path.split("/").pop(), positive, value: parseDocument(show(head, path), path) })),
    );
    for (let i = 1; i < list.length; i++) pairs.push({ schema, old: list[i - 1], new: list[i], documents });
  }
  return pairs;
}

/** In --repo mode, the schemas named by --schemas, else the ten of the fixture pairs. */
function historySchemas() {
  if (values.schemas) return values.schemas.split(",");
  const manifest = JSON.parse(readFileSync(join(values.fixtures, "manifest.json"), "utf8"));
  return [...new Set(manifest.history.pairs.map((pair) => pair.schema))];
}

const allPairs = values["report-from"] ? [] : values.repo ? repoPairs(resolve(values.repo), historySchemas(), Number(values.versions)) : fixturePairs(values.fixtures);
// --shard K/N: every N-th pair from the K-th, so that N processes share the work.
const pairs = allPairs.filter((_, i) => i % shardCount === shardIndex - 1);

// ---- each pair ---------------------------------------------------------------------------------
function materialize(dir, version) {
  mkdirSync(dir, { recursive: true });
  for (const [file, text] of version.files) writeFileSync(join(dir, file), text);
}

/**
 * The version's validator (ajv, SchemaStore's set-up, lenient to unknown keywords) and where each
 * of its schema objects is. The NEW of one pair is the OLD of the next: the last one is kept.
 */
let lastReference;
function referenceOf(version, schema) {
  if (lastReference?.label === version.label) return lastReference.value;
  const value = compileReference(version, schema);
  lastReference = { label: version.label, value };
  return value;
}

function compileReference(version, schema) {
  const parsed = Object.fromEntries([...version.files].map(([f, text]) => [f, JSON.parse(text)]));
  const dialect = dialectOf(parsed[schema]);
  if (!dialect) throw new Error(`${version.label}: no dialect SchemaStore validates`);
  const externals = Object.entries(parsed).filter(([f]) => f !== schema).map(([, json]) => json);
  const ajv = referenceAjv(dialect, { strict: "off", unknownFormats: [], unknownKeywords: [], externalSchemas: externals, allErrors: true, verbose: true });
  // Indexed before compiling: ajv may add properties to the objects, never replace them.
  const index = schemaIndex(parsed);
  return { validate: ajv.compile(parsed[schema]), index };
}

const rows = [];
for (const [index, pair] of pairs.entries()) {
  const dir = join(out, "pairs", `${String(index).padStart(3, "0")}-${pair.schema}`);
  materialize(join(dir, "old"), pair.old);
  materialize(join(dir, "new"), pair.new);
  const row = { schema: pair.schema, old: pair.old.label, new: pair.new.label, subject: pair.new.subject, flags: [], misses: [], candidates: 0 };
  rows.push(row);
  const diffArgs = [...(values.strict ? ["--strict"] : []), ...(values["no-witness"] ? [] : ["--witness"])];
  const run = spawnSync(process.execPath, [cli, "diff", join(dir, "old", pair.schema), join(dir, "new", pair.schema), "--format", "json", "--fail-on", "none", ...diffArgs], { encoding: "utf8", maxBuffer: 64 * 1024 * 1024 });
  if (run.status !== 0) {
    row.refused = (run.stderr.trim().split("\n")[0] ?? `exit ${run.status}`).slice(0, 300);
    process.stderr.write(`${index + 1}/${pairs.length} ${pair.old.label} -> ${pair.new.label}: diff refused\n`);
    continue;
  }
  const changes = JSON.parse(run.stdout).changes;
  let oldRef, newRef;
  try {
    oldRef = referenceOf(pair.old, pair.schema);
    newRef = referenceOf(pair.new, pair.schema);
  } catch (error) {
    row.referenceError = error.message.split("\n")[0];
  }
  for (const change of changes) {
    for (const direction of ["reader", "writer"]) {
      if (!(direction === "reader" ? change.breaking.forNewReader : change.breaking.forOldReader)) continue;
      const found = change.witness?.[direction === "reader" ? "forNewReader" : "forOldReader"];
      row.flags.push({ direction, kind: change.kind, fileOld: change.fileOld, pointerOld: change.pointerOld, fileNew: change.fileNew, pointerNew: change.pointerNew, message: change.message, witness: undefined, cli: found ? (found.proven ? (found.schema ? "subschema" : "document") : "unproven") : undefined, cliDocument: found?.proven && !found.schema ? found.document : undefined });
    }
  }
  if (!oldRef) {
    process.stderr.write(`${index + 1}/${pairs.length} ${pair.old.label} -> ${pair.new.label}: ${row.flags.length} flag(s), no reference: ${row.referenceError}\n`);
    continue;
  }

  const oldFiles = Object.fromEntries([...pair.old.files].map(([f, t]) => [f, JSON.parse(t)]));
  const newFiles = Object.fromEntries([...pair.new.files].map(([f, t]) => [f, JSON.parse(t)]));
  const oldJson = oldFiles[pair.schema];
  const newJson = newFiles[pair.schema];
  const hints = changeHints(oldFiles, newFiles);
  // Where the errors a flag explains may lie, in the rejecting version: the flagged place and what its $refs lead to.
  const scopes = new Map(row.flags.map((flag) => [flag, flag.direction === "reader" ? flagScopes(newFiles, { file: flag.fileNew, pointer: flag.pointerNew }) : flagScopes(oldFiles, { file: flag.fileOld, pointer: flag.pointerOld })]));
  // Mutants are made of documents that (mostly) pass: the generated instances and the positive tests.
  const bases = [...generatedInstances(oldJson), ...generatedInstances(newJson), ...pair.documents.filter((d) => d.positive).map((d) => d.value)];
  const flagsOf = (direction) => row.flags.filter((f) => f.direction === direction);
  const missesSeen = new Set();
  const consider = (doc) => {
    row.candidates++;
    const oldOk = oldRef.validate(doc);
    const oldErrors = oldRef.validate.errors ?? [];
    const newOk = newRef.validate(doc);
    const newErrors = newRef.validate.errors ?? [];
    if (oldOk === newOk) return;
    const direction = oldOk ? "reader" : "writer";
    const { index } = direction === "reader" ? newRef : oldRef;
    const errors = (direction === "reader" ? newErrors : oldErrors).map((error) => ({ error, place: errorPlace(error, index, pair.schema) }));
    let explained = false;
    for (const flag of flagsOf(direction)) {
      const property = flaggedProperty([flag.pointerOld, flag.pointerNew]);
      if (errors.some((e) => errorAtFlag(e.place, e.error, scopes.get(flag), property))) {
        explained = true;
        flag.witness ??= JSON.stringify(doc).slice(0, 300);
      }
    }
    if (!explained) {
      const deepest = errors.map((e) => e.place).sort((a, b) => b.pointer.length - a.pointer.length)[0];
      const where = deepest ? `${deepest.file}#${deepest.pointer.replace(/\/[^/]*$/, "")}` : "?";
      if (!missesSeen.has(`${direction} ${where}`)) {
        missesSeen.add(`${direction} ${where}`);
        row.misses.push({ direction, where, errors: errors.slice(0, 3).map((e) => `${e.error.instancePath || "/"} ${e.error.message}`), witness: JSON.stringify(doc).slice(0, 300) });
      }
    }
  };
  // The documents `flowspec diff --witness` found first: a flag they show is proven by SchemaStore's ajv too.
  for (const flag of row.flags) if (flag.cliDocument !== undefined) consider(flag.cliDocument);
  for (const flag of row.flags) {
    flag.cliConfirmed = flag.witness !== undefined;
    delete flag.cliDocument;
  }
  for (const document of pair.documents.filter((d) => !d.positive)) consider(document.value);
  for (const base of bases) {
    consider(base);
    for (const mutant of mutants(base, hints, perDocument)) consider(mutant);
  }
  const proven = row.flags.filter((f) => f.witness).length;
  process.stderr.write(`${index + 1}/${pairs.length} ${pair.old.label} -> ${pair.new.label}: ${row.flags.length} flag(s), ${proven} with a witness, ${row.misses.length} miss(es), ${row.candidates} candidates\n`);
}

// ---- the report ----------------------------------------------------------------------------------
if (values["report-from"]) rows.push(...values["report-from"].flatMap((file) => JSON.parse(readFileSync(file, "utf8"))));
else writeFileSync(join(out, "results.json"), JSON.stringify(rows, null, 2));
const lines = ["## SchemaStore history pairs: flowspec diff", ""];
lines.push("| schema | pairs | refused | reader flags | with witness | writer flags | with witness | precision | pairs with misses |", "|---|---:|---:|---:|---:|---:|---:|---:|---:|");
const summarize = (label, rs) => {
  const flags = rs.flatMap((r) => r.flags);
  const reader = flags.filter((f) => f.direction === "reader");
  const writer = flags.filter((f) => f.direction === "writer");
  const proven = flags.filter((f) => f.witness).length;
  const precision = flags.length > 0 ? `${((100 * proven) / flags.length).toFixed(0)}%` : "n/a";
  return `| ${label} | ${rs.length} | ${rs.filter((r) => r.refused).length} | ${reader.length} | ${reader.filter((f) => f.witness).length} | ${writer.length} | ${writer.filter((f) => f.witness).length} | ${precision} (${proven}/${flags.length}) | ${rs.filter((r) => r.misses.length > 0).length} |`;
};
for (const schema of [...new Set(rows.map((r) => r.schema))]) lines.push(summarize(schema, rows.filter((r) => r.schema === schema)));
lines.push(summarize("**all**", rows), "");
lines.push(`Candidates: ${rows.reduce((n, r) => n + r.candidates, 0)} documents (test documents, generated instances, and up to ${perDocument} mutants of each).`, "");
const allFlags = rows.flatMap((r) => r.flags);
if (allFlags.some((f) => f.cli !== undefined)) {
  const count = (what) => allFlags.filter((f) => f.cli === what).length;
  lines.push(
    `\`flowspec diff --witness${values.strict ? " --strict" : ""}\`: ${count("document")} flags shown by a document (SchemaStore's ajv, run here, confirms ${allFlags.filter((f) => f.cliConfirmed).length} flags with them), ` +
      `${count("subschema")} by a document for a subschema no path from the root reaches (not counted above), ${count("unproven")} unproven.`,
    "",
  );
}
const unproven = rows.flatMap((r) => r.flags.filter((f) => !f.witness).map((f) => ({ ...f, pair: `${r.old} -> ${r.new}` })));
lines.push(`### Flags without a witness (${unproven.length}), by kind`, "");
const byKind = new Map();
for (const f of unproven) byKind.set(`${f.direction} ${f.kind}`, [...(byKind.get(`${f.direction} ${f.kind}`) ?? []), f]);
for (const [kind, list] of [...byKind].sort((a, b) => b[1].length - a[1].length)) {
  lines.push(`- **${kind}** (${list.length}): ${list.slice(0, 4).map((f) => `${f.pair} ${f.direction === "reader" ? f.pointerNew : f.pointerOld}: ${f.message}`.slice(0, 260)).join("; ")}${list.length > 4 ? "; …" : ""}`);
}
lines.push("", `### Misses: witnesses no flag of their direction explains (${rows.reduce((n, r) => n + r.misses.length, 0)} places in ${rows.filter((r) => r.misses.length > 0).length} pairs)`, "");
for (const r of rows.filter((r) => r.misses.length > 0)) {
  lines.push(`- ${r.old} -> ${r.new} (${r.subject.slice(0, 80)}):`);
  for (const m of r.misses.slice(0, 6)) lines.push(`  - ${m.direction} at ${m.where}: ${m.errors.join(" | ").slice(0, 200)}; witness ${m.witness.slice(0, 160)}`);
  if (r.misses.length > 6) lines.push(`  - … and ${r.misses.length - 6} more`);
}
const refused = rows.filter((r) => r.refused);
if (refused.length > 0) lines.push("", `### Refused pairs (${refused.length})`, "", ...refused.map((r) => `- ${r.old} -> ${r.new}: ${r.refused}`));
const report = lines.join("\n") + "\n";
if (!values["report-from"]) writeFileSync(join(out, "report.md"), report);
console.log(report);
console.error(`(details in ${join(out, "results.json")})`);
