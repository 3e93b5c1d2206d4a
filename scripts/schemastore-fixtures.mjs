#!/usr/bin/env node
// Rebuilds codegen/test/fixtures/schemastore/ from a SchemaStore git repository (a clone or a bare
// mirror: everything is read from git objects at one commit, never from a work tree), with a
// manifest giving every file's SchemaStore path, commit and sha256. Run it again to refresh the
// subset; the selection and its reasons are the tables below.
//
//   node scripts/schemastore-fixtures.mjs --repo PATH [--commit REV]
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { applyPatch, createPatch } from "diff";
import { register } from "tsx/esm/api";

register();
const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const { parseDocument, scanRefs } = await import("../codegen/test/schemastore/checkout.ts");
const { dialectOf, parseSchemaValidation } = await import("../codegen/test/schemastore/reference.ts");

const { values } = parseArgs({ options: { repo: { type: "string" }, commit: { type: "string", default: "HEAD" } } });
if (!values.repo) {
  console.error("Usage: node scripts/schemastore-fixtures.mjs --repo PATH [--commit REV]");
  process.exit(2);
}
const git = (...args) => {
  const run = spawnSync("git", ["-C", resolve(values.repo), ...args], { encoding: "buffer", maxBuffer: 64 * 1024 * 1024 });
  if (run.status !== 0) throw new Error(`git ${args.join(" ")}: ${run.stderr.toString()}`);
  return run.stdout;
};
const commit = git("rev-parse", values.commit).toString().trim();
const target = join(repoRoot, "codegen/test/fixtures/schemastore");

/**
 * The subset: each schema with why it is here. The schemas their `$ref`s reach come along (see
 * the manifest's `reachedBy`). F-codes are issue 23's.
 */
const SELECTED = {
  "package.json": "popular; F3 (properties matching patternProperties); $refs to ten other schemas",
  "eslintrc.json": "popular; F1 (`require(` in a description)",
  "tslint.json": "popular",
  "tsconfig.json": "popular; draft-04",
  "pyproject.json": "popular; F3, F10 (many unknown keywords); $refs to 26 other schemas",
  "pnpm-workspace.json": "popular; F2 (propertyNames maxLength)",
  "stylelintrc.json": "popular; F8 (type explosion)",
  "github-workflow.json": "popular",
  "github-action.json": "popular",
  "prettierrc.json": "popular",
  "dependabot-2.0.json": "popular",
  "babelrc.json": "popular",
  "jsconfig.json": "popular",
  "esmrc.json": "F1",
  "stylua.json": "F1",
  "claude-code-plugin-manifest.json": "F2",
  "eslint-suppressions.json": "F2",
  "revola.json": "F2",
  "browser.i18n.json": 'F4 ("i18n messages")',
  "venvironment-schema-v5.0.0.json": "F4 (…-uint32max)",
  "BizTalkServerApplicationSchema.json": "F5 ($id ending in #)",
  "ninjs-2.0.json": "F5",
  "specif-1.1.json": "F5; 2019-09",
  "cloudify.json": "F6 (stray $ref in a non-schema object)",
  "app-config.json": 'F7 (draft-07 "deprecated": "…")',
  "phrase.json": "F7",
  "jsone.json": "2019-09",
  "openweather.current.json": "2019-09",
  "openweather.roadrisk.json": "2019-09",
  "ctfd.json": "2020-12",
  "evidence-bundle.json": "2020-12",
  "license-report-config.json": "2020-12",
  "openhab-5.1.json": "2020-12, with negative tests",
  "pgrls.json": "2020-12",
  "yamllint.json": "2020-12",
  "zarf.json": "2020-12",
  "enonic-xp-site-8.0.0.json": "2020-12, with negative tests",
  "travis.json": "draft-04",
};
/** How many more schemas a deterministic sample adds (smaller than SAMPLE_MAX_BYTES, with test documents). */
const SAMPLE_COUNT = 48;
const SAMPLE_MAX_BYTES = 60_000;
/** Test documents: at most this many per folder, each at most this size (the rest are listed as capped). */
const MAX_DOCUMENTS = 10;
const MAX_DOCUMENT_BYTES = 64_000;

/** History pairs for `flowspec diff`: consecutive versions of these schemas, newest first. */
const HISTORY = { "package.json": 11, "github-workflow.json": 10, "eslintrc.json": 9, "pnpm-workspace.json": 9, "tslint.json": 9, "prettierrc.json": 9, "dependabot-2.0.json": 9, "github-action.json": 9, "stylelintrc.json": 9, "babelrc.json": 9 };

const sha256 = (bytes) => createHash("sha256").update(bytes).digest("hex");
const treeAt = (rev, path) =>
  git("ls-tree", "-r", "-l", rev, "--", path)
    .toString()
    .split("\n")
    .filter(Boolean)
    .map((line) => {
      const [meta, name] = line.split("\t");
      const [, , blob, size] = meta.split(/\s+/);
      return { path: name, blob, size: Number(size) };
    });
const show = (rev, path) => git("show", `${rev}:${path}`);

const schemaFiles = new Map(treeAt(commit, "src/schemas/json/").map((e) => [e.path.slice("src/schemas/json/".length), e]));
const storeConfigText = show(commit, "src/schema-validation.jsonc").toString();
const storeConfig = parseSchemaValidation(storeConfigText);
const schemaCache = new Map();
const schemaAt = (rev, file) => {
  const key = `${rev}:${file}`;
  if (!schemaCache.has(key)) schemaCache.set(key, JSON.parse(show(rev, `src/schemas/json/${file}`).toString()));
  return schemaCache.get(key);
};

// Everything but the folder's README is rebuilt.
for (const name of ["src", "history", "manifest.json", "LICENSE", "NOTICE"]) rmSync(join(target, name), { recursive: true, force: true });
const manifest = {
  description: "A subset of SchemaStore (https://github.com/SchemaStore/schemastore), Apache-2.0, for flowspec's codegen and diff tests. Rebuild with scripts/schemastore-fixtures.mjs.",
  source: { repository: "https://github.com/SchemaStore/schemastore", commit, license: "Apache-2.0" },
  files: [],
  schemas: {},
  capped: [],
  history: { pairs: [], versions: {} },
};
const written = new Set();
function writeFixture(path, bytes, source, rev = commit) {
  if (written.has(path)) return;
  written.add(path);
  mkdirSync(dirname(join(target, path)), { recursive: true });
  writeFileSync(join(target, path), bytes);
  manifest.files.push({ path, source, commit: rev, sha256: sha256(bytes), bytes: bytes.length, license: "Apache-2.0" });
}

// ---- the schemas: chosen, sampled, and what their $refs reach ---------------------------------------
const hasTests = (name) => treeAt(commit, `src/test/${name}/`).length > 0;
const sample = [...schemaFiles.values()]
  .map((e) => e.path.slice("src/schemas/json/".length))
  .filter((f) => !(f in SELECTED) && schemaFiles.get(f).size <= SAMPLE_MAX_BYTES && !storeConfig.skiptest.includes(f))
  .sort((a, b) => sha256(a).localeCompare(sha256(b)))
  .filter((f) => {
    const json = schemaAt(commit, f);
    return dialectOf(json) !== undefined && scanRefs(f, (g) => schemaAt(commit, g), (g) => schemaFiles.has(g)).external.length === 0;
  })
  .filter((f) => hasTests(f.replace(/\.json$/, "")))
  .slice(0, SAMPLE_COUNT);

const roots = [...Object.keys(SELECTED), ...sample];
const reachedBy = new Map();
for (const file of roots) {
  if (!schemaFiles.has(file)) throw new Error(`${file} is not in src/schemas/json at ${commit}`);
  for (const ref of scanRefs(file, (g) => schemaAt(commit, g), (g) => schemaFiles.has(g)).local) {
    if (!reachedBy.has(ref)) reachedBy.set(ref, []);
    reachedBy.get(ref).push(file);
  }
}
const allSchemas = [...new Set([...roots, ...reachedBy.keys()])].sort();
for (const file of allSchemas) {
  const bytes = show(commit, `src/schemas/json/${file}`);
  writeFixture(`src/schemas/json/${file}`, bytes, `src/schemas/json/${file}`);
  const json = JSON.parse(bytes.toString());
  const name = file.replace(/\.json$/, "");
  const documents = { test: [], negative_test: [] };
  if (roots.includes(file)) {
    for (const kind of ["test", "negative_test"]) {
      const entries = treeAt(commit, `src/${kind}/${name}/`).sort((a, b) => (a.path < b.path ? -1 : 1));
      for (const [i, entry] of entries.entries()) {
        if (i >= MAX_DOCUMENTS || entry.size > MAX_DOCUMENT_BYTES) {
          manifest.capped.push({ path: entry.path, bytes: entry.size, why: i >= MAX_DOCUMENTS ? `over ${MAX_DOCUMENTS} documents in the folder` : `over ${MAX_DOCUMENT_BYTES} bytes` });
          continue;
        }
        const doc = show(commit, entry.path);
        parseDocument(doc.toString(), entry.path); // a fixture the tests cannot read is no fixture
        writeFixture(entry.path, doc, entry.path);
        documents[kind].push(entry.path.split("/").pop());
      }
    }
  }
  manifest.schemas[file] = {
    dialect: dialectOf(json) ?? null,
    why: SELECTED[file] ?? (sample.includes(file) ? "sample" : undefined),
    reachedBy: reachedBy.get(file),
    tests: documents.test.length,
    negativeTests: documents.negative_test.length,
  };
}

// SchemaStore's ajv options for these schemas only, as its CI reads them.
const keep = (list) => list.filter((f) => allSchemas.includes(f));
const subsetConfig = {
  $comment: `The entries of SchemaStore's src/schema-validation.jsonc (commit ${commit}) for the schemas of this subset.`,
  ajvNotStrictMode: keep(storeConfig.ajvNotStrictMode),
  skiptest: keep(storeConfig.skiptest),
  options: Object.fromEntries(Object.entries(storeConfig.options).filter(([f]) => allSchemas.includes(f))),
};
const subsetText = Buffer.from(JSON.stringify(subsetConfig, null, 2) + "\n");
mkdirSync(join(target, "src"), { recursive: true });
writeFileSync(join(target, "src/schema-validation.jsonc"), subsetText);
manifest.files.push({ path: "src/schema-validation.jsonc", source: "src/schema-validation.jsonc (the entries of the schemas above)", commit, sha256: sha256(subsetText), bytes: subsetText.length, license: "Apache-2.0" });

// ---- history pairs -------------------------------------------------------------------------------
// Each version is the schema and the schemas its $refs reach at that commit. A file's first version
// is stored whole (history/files/<file>), each later one as a unified diff against the version
// before it (history/files/<file>@<commit>.patch): consecutive versions differ in a few lines, and
// applying the diffs gives back every version byte for byte (the manifest has each one's sha256).
const stored = new Map(); // file -> { text, path } of its latest stored version
for (const [file, versions] of Object.entries(HISTORY)) {
  const commits = git("log", "--format=%H %ad %s", "--date=short", `-${versions}`, commit, "--", `src/schemas/json/${file}`)
    .toString()
    .trim()
    .split("\n")
    .map((line) => {
      const [hash, date, ...subject] = line.split(" ");
      return { hash, date, subject: subject.join(" ") };
    })
    .reverse();
  const labels = [];
  for (const version of commits) {
    const exists = (g) => git("ls-tree", version.hash, "--", `src/schemas/json/${g}`).length > 0;
    const files = [file, ...scanRefs(file, (g) => schemaAt(version.hash, g), exists).local];
    const listed = {};
    for (const f of files) {
      const bytes = show(version.hash, `src/schemas/json/${f}`);
      const text = bytes.toString();
      const hash = sha256(bytes);
      const previous = stored.get(f);
      if (previous?.sha256 !== hash) {
        const patch = previous && createPatch(f, previous.text, text, "", "", { context: 2 });
        if (patch !== undefined && applyPatch(previous.text, patch) !== text) throw new Error(`${f} at ${version.hash}: the diff does not give the file back`);
        const path = previous ? `history/files/${f}@${version.hash.slice(0, 10)}.patch` : `history/files/${f}`;
        writeFixture(path, patch === undefined ? bytes : Buffer.from(patch), `src/schemas/json/${f}`, version.hash);
        stored.set(f, { text, sha256: hash, chain: [...(previous?.chain ?? []), path] });
      }
      listed[f] = { sha256: hash, chain: stored.get(f).chain };
    }
    const label = `${file}@${version.hash.slice(0, 10)}`;
    manifest.history.versions[label] = { schema: file, commit: version.hash, date: version.date, subject: version.subject, files: listed };
    labels.push(label);
  }
  for (let i = 1; i < labels.length; i++) manifest.history.pairs.push({ schema: file, old: labels[i - 1], new: labels[i] });
}

manifest.files.sort((a, b) => (a.path < b.path ? -1 : 1));
writeFileSync(join(target, "manifest.json"), JSON.stringify(manifest, null, 2) + "\n");
for (const [from, to] of [
  ["LICENSE", "LICENSE"],
  ["NOTICE", "NOTICE"],
]) {
  const bytes = show(commit, from);
  writeFileSync(join(target, to), bytes);
}
const total = manifest.files.reduce((n, f) => n + f.bytes, 0);
console.log(
  `${allSchemas.length} schemas (${roots.length} with their test documents, ${allSchemas.length - roots.length} reached by $ref), ` +
    `${manifest.files.filter((f) => /^src\/(negative_)?test\//.test(f.path)).length} test documents (${manifest.capped.length} capped), ` +
    `${manifest.history.pairs.length} history pairs; ${(total / 1024 / 1024).toFixed(2)} MB`,
);
