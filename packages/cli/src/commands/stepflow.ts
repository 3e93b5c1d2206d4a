import { resolve } from "node:path";
import type { Command } from "commander";
import { createTwoFilesPatch, FILE_HEADERS_ONLY } from "diff";
import { DocumentParseError, stringifyJson, stringifyYaml } from "@flowspec/runtime";
import {
  checkFlow,
  formatDiagnostics,
  InvalidFlowError,
  normalizeResult,
  parseFlow,
  runFlow,
  type CaseReport,
  type ExecutionError,
  type FlowResult,
} from "@flowspec/stepflow";
import { createConfiguredRouter, loadConfigFile, resolveConfig, testPaths, updateTestOutputs, type LoadedOverlay, type TestSummary } from "@flowspec/stepflow/node";
import { readDocument, readText } from "../read-document.js";
import { registerStepflowList } from "./stepflow-list.js";
import { registerStepflowServe } from "./stepflow-serve.js";
import { collect, configError, loadOverlays, OVERLAY_HELP } from "./stepflow-options.js";
import { outputFormat, readRunInput, writeOutput, type InputOptions } from "./stepflow-io.js";
import { CliError, colours, EXIT, parseFormat, type CliIo } from "../io.js";

/** `flowspec stepflow test|check (validate)|run|list-components|serve`: test, check and run flows; list and serve components. */
export function registerStepflow(stepflow: Command, io: CliIo, setExit: (code: number) => void): void {
  stepflow
    .command("test")
    .description("Run the test cases of flows (files, or folders searched for .yaml/.yml flows) and compare their results")
    .argument("<paths...>", "flow files or folders")
    .option("--config <file>", "a stepflow-config for every flow (default: found next to each flow, as upstream)")
    .option("--overlay <file>", OVERLAY_HELP, collect, [])
    .option("--case <name>", "run only the test case(s) of this name; repeatable", collect, [])
    .option("--update", "write each failing case's actual result into the flow file as its expected output (comments and formatting kept)")
    .option("--diff", "show a failing case as a unified diff of expected against actual (YAML)")
    .option("--format <format>", "text or json", "text")
    .addHelpText(
      "after",
      `
Each flow uses its test.config, else stepflow-config(.test).yml next to it, else one in the current
directory, else a builtin-only config without routes. A case that needs a component no configured
plugin can serve (including components of nested flows, and plugins whose command is not installed)
is skipped with the reason. The last line is "N passed, N failed, N skipped".

--update rewrites, in place, the output of every case that failed or had none, with the result
normalised as the comparison sees it (keys sorted, run_id zeroed); the rest of the file is kept
byte for byte. The exit code still reports the run that found the differences.

Exit codes: 0 no failure, 1 any case failed or any flow could not be read, 2 usage error
(including a --case that names no case).

An --overlay's testServers replace the flow's test.servers of the same name.

Examples:
  flowspec stepflow test flows/
  flowspec stepflow test flow.yaml --config stepflow-config.yml --format json
  flowspec stepflow test upstream/tests --overlay python-overlay.yml
  flowspec stepflow test flow.yaml --case "first case" --diff
  flowspec stepflow test flows/ --update`,
    )
    .action(async (paths: string[], options: { config?: string; overlay: string[]; case: string[]; update?: boolean; diff?: boolean; format: string }) => {
      const format = parseFormat(options.format);
      // Named on the command line, so a config that cannot be read is a usage error, not a failure of every flow.
      if (options.config !== undefined) checkConfig(io, options.config);
      const overlays = loadOverlays(io, options.overlay);
      let summary: TestSummary;
      try {
        summary = await testPaths(paths, { configFile: options.config, overlays, cases: options.case, cwd: io.cwd, env: io.env, onFile: progress(io) });
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === "ENOENT") throw new CliError(`cannot read ${(error as NodeJS.ErrnoException).path ?? paths.join(", ")}`);
        throw error;
      }
      if (io.stderr.isTTY) io.stderr.write("\r\u001b[K");
      const updated = options.update ? updateOutputs(io, summary) : undefined;
      if (format === "json") {
        const diffs = options.diff ? { files: summary.files.map((file) => ({ ...file, cases: file.cases.map((c) => (c.status === "failed" ? { ...c, diff: caseDiff(c) } : c)) })) } : {};
        io.stdout.write(stringifyJson({ ...summary, ...diffs, ...(updated && { updated }) }, 2) + "\n");
      } else {
        printTests(io, summary, Boolean(options.diff));
        if (updated) io.stdout.write(`updated ${updated.reduce((n, f) => n + f.cases.length, 0)} expected output(s) in ${updated.length} file(s)\n`);
      }
      const found = new Set(summary.files.flatMap((file) => file.cases.map((c) => c.name)));
      const unmatched = options.case.filter((name) => !found.has(name));
      for (const name of unmatched) io.stderr.write(`flowspec: --case ${JSON.stringify(name)} names no test case\n`);
      setExit(unmatched.length > 0 ? EXIT.usage : summary.failed > 0 ? EXIT.failed : EXIT.ok);
    });

  stepflow
    .command("check")
    .alias("validate")
    .description("Statically check flows: structure of references, step ids, references to later or undefined steps, components, and warnings")
    .argument("[flows...]", "flow files (YAML or JSON)")
    .option("--flow <file>", "a flow file, as upstream's validate takes it; repeatable", collect, [])
    .option("--config <file>", "also report components that no route of this stepflow-config serves")
    .option("--format <format>", "text or json", "text")
    .addHelpText(
      "after",
      `
"validate" is another name for this command, as upstream calls it.

Exit codes: 0 no errors (warnings allowed), 1 any error, 2 usage error or an unreadable file.

Examples:
  flowspec stepflow check flow.yaml
  flowspec stepflow validate --flow flow.yaml --config stepflow-config.yml
  flowspec stepflow check flows/*.yaml --config stepflow-config.yml --format json`,
    )
    .action((positional: string[], options: { flow: string[]; config?: string; format: string }) => {
      const format = parseFormat(options.format);
      const files = [...positional, ...options.flow];
      if (files.length === 0) throw new CliError("name a flow file to check");
      const reports = files.map((file) => {
        const source = readDocument(io.cwd, file);
        const router = options.config ? routerFor(io, file, options.config, []) : undefined;
        const diagnostics = checkFlow(source.value, { source, router });
        return { file, valid: !diagnostics.some((d) => d.level === "error"), diagnostics };
      });
      if (format === "json") io.stdout.write(JSON.stringify({ valid: reports.every((r) => r.valid), files: reports }, null, 2) + "\n");
      else {
        const c = colours(io);
        for (const report of reports) {
          const errors = report.diagnostics.filter((d) => d.level === "error").length;
          const warnings = report.diagnostics.length - errors;
          io.stdout.write(`${report.valid ? c.green("ok") : c.red("error")}    ${report.file}: ${errors} error(s), ${warnings} warning(s)\n`);
          if (report.diagnostics.length > 0) io.stdout.write(formatDiagnostics(report.diagnostics).replace(/^/gm, "  ") + "\n");
        }
      }
      setExit(reports.every((r) => r.valid) ? EXIT.ok : EXIT.failed);
    });

  stepflow
    .command("run")
    .description("Run a flow with an input and print its FlowResult as JSON")
    .argument("[flow]", "flow file (YAML or JSON)")
    .option("--flow <file>", "the flow file, as upstream takes it")
    .option("--input <json>", "the input, as JSON")
    .option("--input-json <json>", "the input, as JSON (upstream's name for --input)")
    .option("--input-yaml <yaml>", "the input, as YAML")
    .option("--input-file <file>", "the input, from a JSON or YAML file (- for stdin)")
    .option("--stdin-format <format>", "json or yaml: how to read stdin (default: either)")
    .option("--output <file>", "write the FlowResult to this file instead of stdout (.json, or .yml/.yaml for YAML)")
    .option("--config <file>", "a stepflow-config (default: found next to the flow, then in the current directory)")
    .option("--overlay <file>", OVERLAY_HELP, collect, [])
    .addHelpText(
      "after",
      `
Without an input option the input is read from stdin when stdin is not a terminal (at most
16 MiB; empty stdin is null), else it is null. The FlowResult goes to stdout, or to --output.
When the run ends on an execution error, stderr says where (file:line:column, JSON Pointer) and why.

Exit codes: 0 success or skipped, 1 failed, 2 usage error, an unreadable or invalid flow or config.

Examples:
  flowspec stepflow run flow.yaml --input '{"text": "hi"}'
  flowspec stepflow run flow.yaml --input-yaml 'text: hi' --output result.yaml
  echo '{"text": "hi"}' | flowspec stepflow run --flow flow.yaml
  flowspec stepflow run flow.yaml --input-file input.json --config stepflow-config.yml`,
    )
    .action(async (positional: string | undefined, options: InputOptions & { flow?: string; output?: string; config?: string; overlay: string[] }) => {
      if (positional !== undefined && options.flow !== undefined) throw new CliError("name the flow once: as an argument or with --flow");
      const file = positional ?? options.flow;
      if (file === undefined) throw new CliError("name the flow file to run");
      if (options.output !== undefined) outputFormat(options.output);
      const input = await readRunInput(io, options);
      const text = readText(io.cwd, file);
      let parsed;
      try {
        parsed = parseFlow(text, { file });
      } catch (error) {
        if (error instanceof DocumentParseError || error instanceof InvalidFlowError) throw new CliError(error.message);
        throw error;
      }
      const router = routerFor(io, file, options.config, loadOverlays(io, options.overlay));
      let failure: ExecutionError | undefined;
      let result: FlowResult;
      try {
        result = await runFlow(parsed.flow, input, { router, onExecutionError: (error) => (failure = error) });
      } finally {
        await router.close();
      }
      if (options.output !== undefined) writeOutput(io, options.output, result);
      else io.stdout.write(stringifyJson(result, 2) + "\n");
      if (failure) {
        const where = failure.pointer ? `${parsed.source.describe(failure.pointer)} ${failure.pointer}: ` : "";
        io.stderr.write(`flowspec: ${where}${failure.message}\n`);
      }
      setExit(result.outcome === "failed" ? EXIT.failed : EXIT.ok);
    });

  registerStepflowList(stepflow, io, setExit);
  registerStepflowServe(stepflow, io);
}

function checkConfig(io: CliIo, configFile: string): void {
  try {
    loadConfigFile(resolve(io.cwd, configFile));
  } catch (error) {
    throw configError(error, configFile);
  }
}

function routerFor(io: CliIo, flowFile: string, configFile: string | undefined, overlays: readonly LoadedOverlay[]) {
  try {
    return createConfiguredRouter(resolveConfig(flowFile, { configFile, overlays, cwd: io.cwd }), { env: io.env });
  } catch (error) {
    throw configError(error, configFile);
  }
}

function printTests(io: CliIo, summary: TestSummary, diff: boolean): void {
  const c = colours(io);
  const label: Record<CaseReport["status"], string> = { passed: c.green("PASS"), failed: c.red("FAIL"), skipped: c.yellow("SKIP") };
  for (const file of summary.files) {
    if (file.error) {
      io.stdout.write(`${c.red("ERROR")} ${file.file}: ${file.error}\n`);
      continue;
    }
    for (const testCase of file.cases) {
      io.stdout.write(`${label[testCase.status]}  ${file.file} › ${testCase.name}${testCase.status === "skipped" ? `: ${testCase.reason}` : ""}\n`);
      if (testCase.status !== "failed") continue;
      io.stdout.write(`      ${testCase.reason}\n`);
      if (diff) io.stdout.write(caseDiff(testCase).replace(/^(?=.)/gm, "      "));
      else {
        if (testCase.expected) io.stdout.write(`      expected: ${stringifyJson(testCase.expected)}\n`);
        if (testCase.actual) io.stdout.write(`      actual:   ${stringifyJson(testCase.actual)}\n`);
      }
      if (testCase.detail) io.stdout.write(`      error:    ${testCase.detail}\n`);
    }
  }
  io.stdout.write(`${summary.passed} passed, ${summary.failed} failed, ${summary.skipped} skipped\n`);
}

/** On a terminal, `[i/n] file` on one stderr line while the flows of a long `test` run. */
function progress(io: CliIo): ((file: string, index: number, total: number) => void) | undefined {
  if (!io.stderr.isTTY) return undefined;
  return (file, index, total) => void io.stderr.write(`\r\u001b[K[${index + 1}/${total}] ${file}`);
}

/**
 * A failing case as a unified diff of the expected against the actual result, both as YAML and
 * normalised as the comparison sees them (upstream's --diff).
 */
function caseDiff(testCase: CaseReport): string {
  const yaml = (result: FlowResult | undefined) => (result ? stringifyYaml(normalizeResult(result)) : "");
  return createTwoFilesPatch("expected", "actual", yaml(testCase.expected), yaml(testCase.actual), undefined, undefined, { headerOptions: FILE_HEADERS_ONLY });
}

/** --update: each failing case that has a result gets it as its expected output. */
function updateOutputs(io: CliIo, summary: TestSummary): { file: string; cases: string[] }[] {
  const updated: { file: string; cases: string[] }[] = [];
  for (const report of summary.files) {
    const failing = report.cases.filter((c) => c.status === "failed" && c.actual);
    if (failing.length === 0) continue;
    try {
      updateTestOutputs(resolve(io.cwd, report.file), failing.map((c) => ({ index: c.index, output: normalizeResult(c.actual!) })));
    } catch (error) {
      throw new CliError(`--update: ${(error as Error).message}`, EXIT.failed);
    }
    updated.push({ file: report.file, cases: failing.map((c) => c.name) });
  }
  return updated;
}
