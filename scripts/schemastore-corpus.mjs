#!/usr/bin/env node
// Runs the built `flowspec-codegen` over a whole local SchemaStore checkout and prints the table of
// issue 23: per dialect, eligible / generated / compiled (tsc --strict) / agreeing (the generated
// validators' verdicts equal ajv's, set up as SchemaStore's CI sets it up, on every test document),
// the failures grouped by cause, and generation time and peak memory (median and worst).
//
// Outside `npm test`: it takes long (hours on a shared 2-core machine). It is resumable: results are
// kept per schema under --out, and a second run does only what is missing (--fresh starts over).
// Needs the built packages (`npm run build`): codegen's bin, and the runtime and schema-diff it imports.
import { spawn, spawnSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { parseArgs } from "node:util";
import { register } from "tsx/esm/api";

register();
const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const { checkoutLayout, readLimited, scanRefs } = await import("../codegen/test/schemastore/checkout.ts");
const { codegenFailureCause, compileFailureCause, writeCodegenCase } = await import("../codegen/test/schemastore/case.ts");
const { dialectOf, optionsFor, parseSchemaValidation } = await import("../codegen/test/schemastore/reference.ts");

const USAGE = `Usage: node scripts/schemastore-corpus.mjs --repo PATH [--out DIR] [--only NAME...] [--jobs N] [--fresh]

  --repo PATH    a SchemaStore checkout (src/schemas/json, src/test, src/negative_test)
  --out DIR      scratch folder for outputs and per-schema results (default: $TMPDIR/flowspec-schemastore-corpus)
  --only NAME    only these schemas (file names, .json optional); repeatable, or several after one --only
  --jobs N       parallel processes (default 2)
  --batch N      output folders per tsc program (default 25)
  --fresh        forget earlier results in --out
  --report       run nothing: print the report of the results kept in --out (of a run stopped half-way, say)`;

const { values, positionals } = parseArgs({
  options: {
    repo: { type: "string" },
    out: { type: "string" },
    only: { type: "string", multiple: true },
    jobs: { type: "string", default: "2" },
    batch: { type: "string", default: "25" },
    fresh: { type: "boolean", default: false },
    report: { type: "boolean", default: false },
    help: { type: "boolean", short: "h", default: false },
  },
  allowPositionals: true,
});
if (values.help || !values.repo) {
  console.log(USAGE);
  process.exit(values.help ? 0 : 2);
}
const repo = resolve(values.repo);
const out = resolve(values.out ?? join(tmpdir(), "flowspec-schemastore-corpus"));
const jobs = Math.max(1, Number(values.jobs));
const batchSize = Math.max(1, Number(values.batch));
const only = [...(values.only ?? []), ...positionals].map((name) => (name.endsWith(".json") ? name : `${name}.json`));
const CODEGEN_TIMEOUT_MS = 10 * 60_000;
const TSC_TIMEOUT_MS = 20 * 60_000;
const VERDICT_TIMEOUT_MS = 5 * 60_000;

const layout = checkoutLayout(repo);
const codegenBin = join(repoRoot, "codegen/dist/bin.js");
// The bin must start (a missing dist of a package it imports would fail all 909 schemas alike).
const started = spawnSync(process.execPath, [codegenBin, "--help"], { encoding: "utf8" });
if (started.status !== 0 || !existsSync(join(repoRoot, "packages/runtime/dist/validation.js"))) {
  console.error(`Build first (npm run build): ${codegenBin} --help ${started.status === 0 ? "runs, but packages/runtime/dist is missing" : `fails:\n${started.stderr || started.error}`}`);
  process.exit(2);
}
const { formats: checkedFormatTable } = await import(pathToFileURL(join(repoRoot, "packages/runtime/dist/ajv.js")).href);
const checkedFormats = new Set(Object.keys(checkedFormatTable));
const storeConfig = parseSchemaValidation(readFileSync(join(repo, "src/schema-validation.jsonc"), "utf8"));

if (values.fresh) rmSync(out, { recursive: true, force: true });
for (const dir of ["results", "work", "emit", "tsc", "measure", "node_modules/@flowspec"]) mkdirSync(join(out, dir), { recursive: true });
// Generated code imports @flowspec/runtime: outputs outside the repository find it as a user's would.
if (!existsSync(join(out, "node_modules/@flowspec/runtime"))) symlinkSync(join(repoRoot, "packages/runtime"), join(out, "node_modules/@flowspec/runtime"), "dir");

// ---- the schemas, classified -------------------------------------------------------------------
const resultPath = (file) => join(out, "results", `${file}.json`);
const load = (file) => (existsSync(resultPath(file)) ? JSON.parse(readFileSync(resultPath(file), "utf8")) : undefined);
const save = (record) => writeFileSync(resultPath(record.file), JSON.stringify(record, null, 2));

const parsed = new Map();
const schemaJson = (file) => {
  if (!parsed.has(file)) parsed.set(file, JSON.parse(readLimited(join(layout.schemaDir, file))));
  return parsed.get(file);
};
const allFiles = readdirSync(layout.schemaDir)
  .filter((f) => f.endsWith(".json"))
  .sort();
const files = only.length > 0 ? allFiles.filter((f) => only.includes(f)) : allFiles;
for (const name of only) if (!allFiles.includes(name)) console.error(`--only ${name}: no such schema in ${layout.schemaDir}`);

const records = files.map((file) => {
  const kept = load(file);
  if (kept) return kept;
  const record = { file };
  try {
    const json = schemaJson(file);
    record.dialect = dialectOf(json) ?? (typeof json.$schema === "string" ? `other (${json.$schema})` : "none");
    const refs = scanRefs(file, schemaJson, (f) => allFiles.includes(f));
    record.localRefs = refs.local;
    record.externalRefs = refs.external;
    record.eligible = refs.external.length === 0;
  } catch (error) {
    record.dialect = "unreadable";
    record.eligible = false;
    record.error = error.message.split("\n")[0];
  }
  save(record);
  return record;
});

// ---- phase 1: codegen, a process per schema -----------------------------------------------------
function run(command, args, options) {
  return new Promise((resolveRun) => {
    const started = performance.now();
    const child = spawn(command, args, {
      ...options,
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk) => (stdout = (stdout + chunk).slice(-200_000)));
    child.stderr.on("data", (chunk) => (stderr = (stderr + chunk).slice(-200_000)));
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      child.kill("SIGKILL");
    }, options.timeout);
    child.on("close", (code) => {
      clearTimeout(timer);
      resolveRun({
        code,
        stdout,
        stderr,
        timedOut,
        ms: Math.round(performance.now() - started),
      });
    });
  });
}

async function pool(items, worker) {
  let next = 0;
  let done = 0;
  const lane = async () => {
    while (next < items.length) {
      const item = items[next++];
      await worker(item);
      done++;
      if (done % 25 === 0 || done === items.length) process.stderr.write(`  ${done}/${items.length}\n`);
    }
  };
  await Promise.all(Array.from({ length: jobs }, lane));
}

const workDir = (file) => join(out, "work", file.replace(/\.json$/, ""));

function hash(text) {
  let h = 2166136261;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 16777619) >>> 0;
  return h;
}

async function generateAll(chunk) {
  const toGenerate = chunk.filter((r) => r.codegen === undefined);
  console.error(`codegen: ${toGenerate.length} schema(s) to generate`);
  await pool(toGenerate, async (record) => {
    const dir = workDir(record.file);
    rmSync(dir, { recursive: true, force: true });
    const schemas = new Map([record.file, ...record.localRefs].map((f) => [f, readLimited(join(layout.schemaDir, f))]));
    const testCase = writeCodegenCase({
      schemaDir: join(dir, "schemas"),
      file: record.file,
      schemas,
      storeOptions: optionsFor(storeConfig, record.file),
      checkedFormats,
    });
    record.rootName = testCase.rootName;
    const measureFile = join(out, "measure", `${record.file}.json`);
    rmSync(measureFile, { force: true });
    const result = await run(
      process.execPath,
      ["--import", pathToFileURL(join(repoRoot, "scripts/schemastore/measure-child.mjs")).href, codegenBin, "--schemas", join(dir, "schemas"), "--out", join(dir, "out")],
      {
        cwd: dir,
        env: { ...process.env, FLOWSPEC_MEASURE_FILE: measureFile },
        timeout: CODEGEN_TIMEOUT_MS,
      },
    );
    const measured = existsSync(measureFile) ? JSON.parse(readFileSync(measureFile, "utf8")) : {};
    record.codegen = { exit: result.code, ms: result.ms, ...measured };
    if (result.timedOut)
      Object.assign(record.codegen, {
        cause: "timeout",
        message: `no result after ${CODEGEN_TIMEOUT_MS / 1000} s`,
      });
    else if (result.code !== 0)
      Object.assign(record.codegen, {
        cause: codegenFailureCause(result.stderr),
        message: firstMessage(result.stderr),
      });
    save(record);
  });
}

function firstMessage(stderr) {
  const lines = stderr.split("\n");
  // A crash's first line is a stack frame ("node:internal/…:283"); its Error line says what happened.
  const line = lines.find((l) => l.startsWith("flowspec-codegen:")) ?? lines.find((l) => /^\w*Error\b/.test(l)) ?? stderr.trim().split("\n")[0] ?? "";
  return line.replace(/^flowspec-codegen: /, "").slice(0, 600);
}

// ---- phase 2: tsc --strict, one program per batch of outputs ------------------------------------
const tscBin = join(repoRoot, "node_modules/typescript/bin/tsc");
async function compile(batch, label) {
  const config = join(out, "tsc", `${label}.json`);
  writeFileSync(
    config,
    JSON.stringify({
      compilerOptions: {
        strict: true,
        target: "ES2022",
        module: "NodeNext",
        moduleResolution: "NodeNext",
        skipLibCheck: true,
        types: [],
        rootDir: join(out, "work"),
        outDir: join(out, "emit"),
        pretty: false,
      },
      include: batch.map((r) => join(workDir(r.file), "out/**/*.ts")),
    }),
  );
  const result = await run(process.execPath, ["--max-old-space-size=6144", tscBin, "-p", config], { cwd: out, timeout: TSC_TIMEOUT_MS });
  const byFile = new Map(batch.map((r) => [r.file.replace(/\.json$/, ""), []]));
  let unattributed = 0;
  for (const line of result.stdout.split("\n")) {
    const m = /^work\/(.+?)\/out\/[^(]+\(\d+,\d+\): error TS\d+/.exec(line);
    if (m && byFile.has(m[1])) byFile.get(m[1]).push(line);
    else if (/error TS\d+/.test(line)) unattributed++;
  }
  return { result, byFile, unattributed };
}

function recordCompile(record, diagnostics, ms, batchOf) {
  const emitted = join(out, "emit", record.file.replace(/\.json$/, ""), "out");
  // tsc emits index.js; the standalone validators are JavaScript already and go beside it.
  if (existsSync(emitted)) {
    for (const name of readdirSync(join(workDir(record.file), "out"))) if (name.endsWith(".js")) cpSync(join(workDir(record.file), "out", name), join(emitted, name));
  }
  record.compile = {
    ok: diagnostics.length === 0,
    ms,
    batchOf,
    errors: diagnostics.length,
  };
  if (diagnostics.length > 0)
    Object.assign(record.compile, {
      cause: compileFailureCause(diagnostics.join("\n")),
      first: diagnostics.slice(0, 5).map((d) => d.slice(0, 400)),
    });
  save(record);
}

async function compileAll(chunk) {
  const toCompile = chunk.filter((r) => r.codegen?.exit === 0 && r.compile === undefined);
  const batches = [];
  for (let i = 0; i < toCompile.length; i += batchSize) batches.push(toCompile.slice(i, i + batchSize));
  console.error(`tsc: ${toCompile.length} output folder(s) in ${batches.length} program(s)`);
  await pool(batches, async (batch) => {
    const label = `batch-${batch[0].file}`;
    const { result, byFile, unattributed } = await compile(batch, label);
    if (!result.timedOut && result.code !== null && unattributed === 0 && (result.code === 0 || [...byFile.values()].some((d) => d.length > 0))) {
      for (const record of batch) recordCompile(record, byFile.get(record.file.replace(/\.json$/, "")), result.ms, batch.length);
      return;
    }
    // A crash, a timeout or errors tsc did not place: each folder on its own.
    for (const record of batch) {
      const single = await compile([record], `${label}-${record.file}`);
      if (single.result.timedOut) {
        record.compile = {
          ok: false,
          ms: single.result.ms,
          batchOf: 1,
          cause: "F8 type explosion (TS2590 or tsc too slow)",
          first: [`tsc gave no answer in ${TSC_TIMEOUT_MS / 1000} s`],
        };
        save(record);
      } else {
        const diagnostics = [...single.byFile.values()][0];
        if (diagnostics.length === 0 && single.result.code !== 0)
          diagnostics.push(single.result.stdout.split("\n").find((l) => l.trim()) ?? single.result.stderr.split("\n").find((l) => l.trim()) ?? `tsc exited ${single.result.code}`);
        recordCompile(record, diagnostics, single.result.ms, 1);
      }
    }
  });
}

// ---- phase 3: verdicts against SchemaStore's ajv set-up -----------------------------------------
async function judgeAll(chunk) {
  const toJudge = chunk.filter((r) => r.compile !== undefined && r.verdicts === undefined && existsSync(join(out, "emit", r.file.replace(/\.json$/, ""), "out/index.js")));
  console.error(`verdicts: ${toJudge.length} schema(s)`);
  await pool(toJudge, async (record) => {
    const job = {
      layout,
      file: record.file,
      rootName: record.rootName,
      indexJs: join(out, "emit", record.file.replace(/\.json$/, ""), "out/index.js"),
      options: optionsFor(storeConfig, record.file),
    };
    const result = await run(process.execPath, ["--import", "tsx", join(repoRoot, "codegen/test/schemastore/verdict-worker.ts"), JSON.stringify(job)], {
      cwd: repoRoot,
      timeout: VERDICT_TIMEOUT_MS,
    });
    const line = result.stdout.trim().split("\n").pop();
    try {
      record.verdicts = JSON.parse(line);
    } catch {
      record.verdicts = {
        error: result.timedOut ? "timed out" : (result.stderr.trim().split("\n").pop() ?? `exit ${result.code}`),
      };
    }
    delete record.verdicts.file;
    save(record);
  });
}

// Chunks of schemas go through all three phases in turn, in an order shuffled by name (the same in
// every run), so that a run stopped half-way has complete results for a sample of the corpus.
const CHUNK = 60;
const shuffled = records.filter((r) => r.eligible).sort((a, b) => hash(a.file) - hash(b.file) || (a.file < b.file ? -1 : 1));
for (let start = 0; start < (values.report ? 0 : shuffled.length); start += CHUNK) {
  const chunk = shuffled.slice(start, start + CHUNK);
  console.error(`chunk ${start / CHUNK + 1}/${Math.ceil(shuffled.length / CHUNK)}`);
  await generateAll(chunk);
  await compileAll(chunk);
  await judgeAll(chunk);
}

// ---- the report ------------------------------------------------------------------------------
const startupMs = (() => {
  const started = performance.now();
  spawnSync(process.execPath, [codegenBin, "--help"]);
  return Math.round(performance.now() - started);
})();
const report = buildReport(
  records.map((r) => load(r.file) ?? r),
  startupMs,
);
writeFileSync(join(out, "report.md"), report);
console.log(report);
console.error(`(per-schema results in ${join(out, "results")}; this report also in ${join(out, "report.md")})`);

function buildReport(everything, startupMs) {
  const lines = [];
  // A run stopped half-way: report the schemas that went through every phase (the shuffled order
  // makes them a sample of the corpus), and say so.
  const done = (r) => !r.eligible || (r.codegen !== undefined && (r.codegen.exit !== 0 || r.verdicts !== undefined));
  const all = everything.filter(done);
  const pending = everything.length - all.length;
  const dialects = [...new Set(all.map((r) => r.dialect))].sort();
  const agrees = (r) => r.verdicts !== undefined && !r.verdicts.error && !r.verdicts.referenceError && r.verdicts.disagreeing?.length === 0;
  const row = (label, rs) => {
    const eligible = rs.filter((r) => r.eligible);
    const generated = eligible.filter((r) => r.codegen?.exit === 0);
    const compiled = generated.filter((r) => r.compile?.ok);
    const agreeing = generated.filter(agrees);
    const docs = generated.reduce((n, r) => n + (r.verdicts?.documents ?? 0), 0);
    return `| ${label} | ${rs.length} | ${eligible.length} | ${generated.length} | ${compiled.length} | ${agreeing.length} | ${docs} |`;
  };
  lines.push("## SchemaStore corpus: flowspec-codegen", "");
  lines.push("| dialect | schemas | eligible | generated | compiled (tsc --strict) | agreeing | test documents compared |", "|---|---:|---:|---:|---:|---:|---:|");
  for (const d of dialects)
    lines.push(
      row(
        d,
        all.filter((r) => r.dialect === d),
      ),
    );
  lines.push(row("**all**", all));
  if (pending > 0) lines.push("", `**Partial run:** ${pending} of ${everything.filter((r) => r.eligible).length} eligible schemas not yet done; the table covers the ${all.filter((r) => r.eligible).length} done (a sample, in an order shuffled by name) and every ineligible one.`);
  lines.push(
    "",
    "Eligible: every `$ref` stays inside SchemaStore. Generated: `flowspec-codegen` exit 0. Compiled: the output type-checks with `tsc --strict`.",
    "Agreeing: generated, and the validator's verdict equals ajv's (SchemaStore's set-up) on every test document (schemas without test documents agree trivially).",
    "",
  );

  const failures = new Map();
  const add = (cause, r, message) => {
    if (!failures.has(cause)) failures.set(cause, []);
    failures.get(cause).push(`${r.file} (${r.dialect}): ${message}`);
  };
  for (const r of all.filter((r) => r.eligible)) {
    // Classified again from the kept message, so that a better classifier needs no new run.
    if (r.codegen && r.codegen.exit !== 0) add(r.codegen.cause === "timeout" ? "timeout" : codegenFailureCause(r.codegen.message), r, r.codegen.message);
    else if (r.compile && !r.compile.ok) add(r.compile.first?.[0]?.startsWith("tsc gave no answer") ? r.compile.cause : compileFailureCause((r.compile.first ?? []).join("\n")), r, (r.compile.first ?? [])[0] ?? "");
    if (r.verdicts?.error || r.verdicts?.referenceError) add("verdicts not measured", r, r.verdicts.error ?? `reference ajv: ${r.verdicts.referenceError}`);
    else if (r.verdicts?.disagreeing?.length)
      add(
        "verdicts disagree with ajv",
        r,
        r.verdicts.disagreeing.map((v) => `${v.positive ? "test" : "negative_test"}/${v.file}: generated ${v.generated}, ajv ${v.reference}`).join("; "),
      );
    if (r.verdicts?.referenceOffLabel?.length)
      add("reference ajv contradicts SchemaStore's label (not a codegen failure)", r, r.verdicts.referenceOffLabel.map((v) => (v.reference === "error" ? `${v.file} (ajv threw; the generated validator was held to the label)` : v.file)).join(", "));
  }
  lines.push("### Failures by cause", "");
  for (const [cause, items] of [...failures].sort((a, b) => (a[0] < b[0] ? -1 : 1))) {
    lines.push(`**${cause}** (${items.length})`, "");
    for (const item of items.sort()) lines.push(`- ${item.replace(/\s+/g, " ").slice(0, 400)}`);
    lines.push("");
  }
  const ineligible = all.filter((r) => !r.eligible);
  lines.push(`### Not eligible (${ineligible.length}): a $ref leaves SchemaStore`, "", ineligible.map((r) => `${r.file}${r.error ? ` (${r.error})` : ""}`).join(", "), "");

  const generatedRuns = all.filter((r) => r.codegen?.ms !== undefined && r.codegen.exit === 0);
  const stat = (values, unit, pick) => {
    const sorted = [...values].sort((a, b) => pick(a) - pick(b));
    if (sorted.length === 0) return "n/a";
    const mid = sorted[Math.floor(sorted.length / 2)];
    const worst = sorted[sorted.length - 1];
    return `median ${unit(pick(mid))}, worst ${unit(pick(worst))} (${worst.file})`;
  };
  lines.push("### Cost of generation (successful runs; one process each, wall time includes start-up)", "");
  lines.push(`- process start-up and import (\`flowspec-codegen --help\`): ${startupMs} ms`);
  lines.push(
    `- time: ${stat(
      generatedRuns,
      (ms) => `${(ms / 1000).toFixed(2)} s`,
      (r) => r.codegen.ms,
    )}`,
  );
  lines.push(`- CPU time (user + system, which a busy machine does not inflate): ${stat(generatedRuns.filter((r) => r.codegen.cpuMs !== undefined), (ms) => `${(ms / 1000).toFixed(2)} s`, (r) => r.codegen.cpuMs)}`);
  lines.push(
    `- peak memory (RSS): ${stat(
      generatedRuns.filter((r) => r.codegen.maxRssKb),
      (kb) => `${Math.round(kb / 1024)} MB`,
      (r) => r.codegen.maxRssKb,
    )}`,
  );
  const compiles = all.filter((r) => r.compile?.batchOf === 1 && r.compile.ms !== undefined);
  if (compiles.length > 0)
    lines.push(
      `- tsc on one output alone: ${stat(
        compiles,
        (ms) => `${(ms / 1000).toFixed(1)} s`,
        (r) => r.compile.ms,
      )}`,
    );
  lines.push("", "The machine may be shared: times are wall-clock under whatever else runs.");
  return lines.join("\n") + "\n";
}
