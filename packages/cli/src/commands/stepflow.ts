import { resolve } from "node:path";
import type { Command } from "commander";
import { DocumentParseError, parseSourceDocument } from "@flowspec/runtime";
import { FileTooLargeError, NotAFileError } from "@flowspec/runtime/files";
import {
  checkFlow,
  ConfigError,
  formatDiagnostics,
  InvalidFlowError,
  parseFlow,
  runFlow,
  type CaseReport,
  type ExecutionError,
  type FlowResult,
} from "@flowspec/stepflow";
import { createConfiguredRouter, loadConfigFile, resolveConfig, testPaths, type TestSummary } from "@flowspec/stepflow/node";
import { readDocument, readText } from "../read-document.js";
import { CliError, colours, EXIT, parseFormat, type CliIo } from "../io.js";

export function registerStepflow(program: Command, io: CliIo, setExit: (code: number) => void): void {
  const stepflow = program.command("stepflow").description("StepFlow 0.2.x flows: run them, test them, check them");

  stepflow
    .command("test")
    .description("Run the test cases of flows (files, or folders searched for .yaml/.yml flows) and compare their results")
    .argument("<paths...>", "flow files or folders")
    .option("--config <file>", "a stepflow-config for every flow (default: found next to each flow, as upstream)")
    .option("--format <format>", "text or json", "text")
    .addHelpText(
      "after",
      `
Each flow uses its test.config, else stepflow-config(.test).yml next to it, else one in the current
directory, else a builtin-only config without routes. A case that needs a component no configured
plugin can serve (including components of nested flows, and plugins whose command is not installed)
is skipped with the reason. The last line is "N passed, N failed, N skipped".

Exit codes: 0 no failure, 1 any case failed or any flow could not be read, 2 usage error.

Examples:
  flowspec stepflow test flows/
  flowspec stepflow test flow.yaml --config stepflow-config.yml --format json`,
    )
    .action(async (paths: string[], options: { config?: string; format: string }) => {
      const format = parseFormat(options.format);
      // Named on the command line, so a config that cannot be read is a usage error, not a failure of every flow.
      if (options.config !== undefined) checkConfig(io, options.config);
      let summary: TestSummary;
      try {
        summary = await testPaths(paths, { configFile: options.config, cwd: io.cwd, env: io.env, onFile: progress(io) });
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === "ENOENT") throw new CliError(`cannot read ${(error as NodeJS.ErrnoException).path ?? paths.join(", ")}`);
        throw error;
      }
      if (io.stderr.isTTY) io.stderr.write("\r\u001b[K");
      if (format === "json") io.stdout.write(JSON.stringify(summary, null, 2) + "\n");
      else printTests(io, summary);
      setExit(summary.failed > 0 ? EXIT.failed : EXIT.ok);
    });

  stepflow
    .command("check")
    .description("Statically check flows: structure of references, step ids, references to later or undefined steps, components, and warnings")
    .argument("<flows...>", "flow files (YAML or JSON)")
    .option("--config <file>", "also report components that no route of this stepflow-config serves")
    .option("--format <format>", "text or json", "text")
    .addHelpText(
      "after",
      `
Exit codes: 0 no errors (warnings allowed), 1 any error, 2 usage error or an unreadable file.

Examples:
  flowspec stepflow check flow.yaml
  flowspec stepflow check flows/*.yaml --config stepflow-config.yml --format json`,
    )
    .action((files: string[], options: { config?: string; format: string }) => {
      const format = parseFormat(options.format);
      const reports = files.map((file) => {
        const source = readDocument(io.cwd, file);
        const router = options.config ? routerFor(io, file, options.config) : undefined;
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
    .argument("<flow>", "flow file (YAML or JSON)")
    .option("--input <json>", "the input, as JSON")
    .option("--input-file <file>", "the input, from a JSON or YAML file")
    .option("--config <file>", "a stepflow-config (default: found next to the flow, then in the current directory)")
    .addHelpText(
      "after",
      `
The FlowResult goes to stdout. When the run ends on an execution error, stderr says where
(file:line:column, JSON Pointer) and why.

Exit codes: 0 success or skipped, 1 failed, 2 usage error, an unreadable or invalid flow or config.

Examples:
  flowspec stepflow run flow.yaml --input '{"text": "hi"}'
  flowspec stepflow run flow.yaml --input-file input.json --config stepflow-config.yml`,
    )
    .action(async (file: string, options: { input?: string; inputFile?: string; config?: string }) => {
      if (options.input !== undefined && options.inputFile !== undefined) throw new CliError("give --input or --input-file, not both");
      const input = readInput(io, options);
      const text = readText(io.cwd, file);
      let parsed;
      try {
        parsed = parseFlow(text, { file });
      } catch (error) {
        if (error instanceof DocumentParseError || error instanceof InvalidFlowError) throw new CliError(error.message);
        throw error;
      }
      const router = routerFor(io, file, options.config);
      let failure: ExecutionError | undefined;
      let result: FlowResult;
      try {
        result = await runFlow(parsed.flow, input, { router, onExecutionError: (error) => (failure = error) });
      } finally {
        await router.close();
      }
      io.stdout.write(JSON.stringify(result, null, 2) + "\n");
      if (failure) {
        const where = failure.pointer ? `${parsed.source.describe(failure.pointer)} ${failure.pointer}: ` : "";
        io.stderr.write(`flowspec: ${where}${failure.message}\n`);
      }
      setExit(result.outcome === "failed" ? EXIT.failed : EXIT.ok);
    });
}

function readInput(io: CliIo, options: { input?: string; inputFile?: string }): unknown {
  if (options.inputFile !== undefined) {
    try {
      return parseSourceDocument(readText(io.cwd, options.inputFile), { file: options.inputFile }).value;
    } catch (error) {
      if (error instanceof DocumentParseError) throw new CliError(`--input-file ${error.message}`);
      throw error;
    }
  }
  if (options.input === undefined) return null;
  try {
    return JSON.parse(options.input);
  } catch (error) {
    throw new CliError(`--input is not valid JSON: ${(error as Error).message}`);
  }
}

function checkConfig(io: CliIo, configFile: string): void {
  try {
    loadConfigFile(resolve(io.cwd, configFile));
  } catch (error) {
    throw configError(error, configFile);
  }
}

function routerFor(io: CliIo, flowFile: string, configFile: string | undefined) {
  try {
    return createConfiguredRouter(resolveConfig(flowFile, { configFile, cwd: io.cwd }), { env: io.env });
  } catch (error) {
    throw configError(error, configFile);
  }
}

/** A config that cannot be read or is invalid, as a usage error naming it; anything else unchanged. */
function configError(error: unknown, configFile: string | undefined): unknown {
  if (error instanceof ConfigError || error instanceof DocumentParseError) return new CliError(`config: ${error.message}`);
  if (error instanceof NotAFileError || error instanceof FileTooLargeError) return new CliError(`cannot read config ${error.path}: ${error.reason}`);
  const code = (error as NodeJS.ErrnoException).code;
  if (code !== undefined && configFile !== undefined) return new CliError(`cannot read config ${configFile}: ${code}`);
  return error;
}

function printTests(io: CliIo, summary: TestSummary): void {
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
      if (testCase.expected) io.stdout.write(`      expected: ${JSON.stringify(testCase.expected)}\n`);
      if (testCase.actual) io.stdout.write(`      actual:   ${JSON.stringify(testCase.actual)}\n`);
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
