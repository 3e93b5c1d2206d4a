import { InvalidArgumentError, type Command } from "commander";
import type { SourceDocument } from "@flowspec/runtime";
import {
  checkTask,
  checkTaskList,
  checkTaskTree,
  createExecutorRegistry,
  planTaskTree,
  registerBuiltinExecutors,
  runTaskTree,
  TaskTreeRunError,
  type CheckMode,
  type Issue,
  type Task,
  type TaskTreeNode,
} from "@flowspec/apflow";
import { readDocument } from "../read-document.js";
import { CliError, colours, EXIT, parseFormat, type CliIo, type Format } from "../io.js";

type Shape = "tree" | "list" | "task";

function parseMode(value: string): CheckMode {
  if (value !== "strict" && value !== "wire") throw new CliError(`--mode must be strict or wire, not "${value}"`);
  return value;
}

function parseConcurrency(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1) throw new InvalidArgumentError("must be a whole number of at least 1");
  return n;
}

/** A flat array is a task list, an object with `task` a TaskTreeNode, anything else a single Task. */
function shapeOf(value: unknown): Shape {
  if (Array.isArray(value)) return "list";
  if (typeof value === "object" && value !== null && "task" in value) return "tree";
  return "task";
}

/**
 * The value to check, plan or run: a flat list is read as v1's `tasks.create` reads it, where a
 * task without `status` is pending. Only that key is added, so every JSON Pointer still points
 * into the file.
 */
function asCreated(value: unknown): unknown {
  if (!Array.isArray(value)) return value;
  return value.map((task) => (typeof task === "object" && task !== null && !Array.isArray(task) && !("status" in task) ? { ...task, status: "pending" } : task));
}

function located(document: SourceDocument, issue: Issue) {
  return { ...issue, ...document.locate(issue.path) };
}

function printIssues(io: CliIo, document: SourceDocument, file: string, issues: readonly Issue[]): void {
  const c = colours(io);
  for (const issue of issues) {
    const where = document.locate(issue.path);
    const label = issue.severity === "error" ? c.red("error") : c.yellow("warning");
    io.stdout.write(`  ${file}:${where.line}:${where.column} ${label} ${issue.code} ${c.dim(issue.path || "/")}: ${issue.message}\n`);
  }
}

/** An invalid tree refused by run or plan: with --format json stdout stays JSON, shaped like check's report. */
function printRefused(io: CliIo, format: Format, document: SourceDocument, file: string, message: string, issues: readonly Issue[]): void {
  if (format === "json") {
    const errors = issues.filter((i) => i.severity === "error").map((i) => located(document, i));
    const warnings = issues.filter((i) => i.severity !== "error").map((i) => located(document, i));
    io.stdout.write(JSON.stringify({ file, ok: false, errors, warnings }, null, 2) + "\n");
    return;
  }
  io.stdout.write(`${colours(io).red("invalid")} ${file}: ${message}\n`);
  printIssues(io, document, file, issues);
}

function runnable(io: CliIo, file: string, mode: CheckMode): { document: SourceDocument; input: TaskTreeNode | Task[] } {
  const document = readDocument(io.cwd, file);
  const shape = shapeOf(document.value);
  if (shape === "task") throw new CliError(`${file}: expected a TaskTreeNode ({"task": …, "children": […]}) or a flat task list, not a single task; check it with flowspec apflow check`);
  return { document, input: asCreated(document.value) as TaskTreeNode | Task[] };
}

export function registerApflow(apflow: Command, io: CliIo, setExit: (code: number) => void): void {
  apflow
    .command("check")
    .description("Check a Task, a TaskTreeNode or a flat task list: schema and every semantic rule")
    .argument("<file>", "JSON or YAML file")
    .option("--mode <mode>", "strict (the Spec) or wire (what a v1 server sends)", "strict")
    .option("--format <format>", "text or json", "text")
    .addHelpText(
      "after",
      `
The shape is detected: an array is a task list, an object with "task" a TaskTreeNode, anything
else a single Task. A task list is read as v1's tasks.create takes it: flat, linked by parent_id,
a task without status is pending, and different user_ids are an error (mixed-user-id). Each issue
has a rule id (uuid, dependency-cycle, root-count, …), a JSON Pointer and file:line:column.

Exit codes: 0 no errors (warnings allowed), 1 errors found, 2 usage error or unreadable file.

Examples:
  flowspec apflow check tree.json
  flowspec apflow check tasks.yaml --mode wire --format json`,
    )
    .action((file: string, options: { mode: string; format: string }) => {
      const mode = parseMode(options.mode);
      const format = parseFormat(options.format);
      const document = readDocument(io.cwd, file);
      const shape = shapeOf(document.value);
      const check = shape === "list" ? checkTaskList : shape === "tree" ? checkTaskTree : checkTask;
      const result = check(asCreated(document.value), { mode, checkInputs: true });
      if (format === "json") {
        io.stdout.write(
          JSON.stringify({ file, shape, mode, ok: result.ok, errors: result.errors.map((i) => located(document, i)), warnings: result.warnings.map((i) => located(document, i)) }, null, 2) + "\n",
        );
      } else {
        const c = colours(io);
        const counts = `${result.errors.length} error(s), ${result.warnings.length} warning(s)`;
        io.stdout.write(`${result.ok ? c.green("valid") : c.red("invalid")}   ${file}: apflow ${shape} (${mode}), ${counts}\n`);
        printIssues(io, document, file, [...result.errors, ...result.warnings]);
      }
      setExit(result.ok ? EXIT.ok : EXIT.failed);
    });

  apflow
    .command("run")
    .description("Run a task tree locally with the built-in executors (rest_executor, aggregate_results_executor)")
    .argument("<file>", "JSON or YAML file: a TaskTreeNode or a flat task list")
    .option("--concurrency <n>", "how many tasks may run at once (default: no bound)", parseConcurrency)
    .option("--mode <mode>", "validation mode: strict or wire", "strict")
    .option("--format <format>", "text (each task's status, result and error) or json (the final tree)", "text")
    .addHelpText(
      "after",
      `
Tasks are resolved by schemas.method, else params.executor_id, else name; any other executor
fails its task with "Executor '<key>' not found in registry", and its required dependents are
cancelled. A flat list is read as tasks.create takes it (see flowspec apflow check --help).

Exit codes: 0 every task completed, 1 the tree is invalid or a task failed or was cancelled,
2 usage error or unreadable file.

Examples:
  flowspec apflow run tree.json
  flowspec apflow run tasks.json --concurrency 2 --format json`,
    )
    .action(async (file: string, options: { concurrency?: number; mode: string; format: string }) => {
      const mode = parseMode(options.mode);
      const format = parseFormat(options.format);
      const { document, input } = runnable(io, file, mode);
      const registry = registerBuiltinExecutors(createExecutorRegistry());
      let result;
      try {
        result = await runTaskTree(input, { registry, mode, concurrency: options.concurrency ?? Infinity }).done;
      } catch (error) {
        if (!(error instanceof TaskTreeRunError)) throw error;
        printRefused(io, format, document, file, error.message.split("\n")[0]!, error.issues);
        setExit(EXIT.failed);
        return;
      }
      if (format === "json") {
        io.stdout.write(JSON.stringify({ status: result.status, tree: result.tree }, null, 2) + "\n");
      } else {
        const c = colours(io);
        const paint = (status: string) => (status === "completed" ? c.green : status === "failed" ? c.red : c.yellow)(status);
        for (const task of Object.values(result.tasks)) {
          io.stdout.write(`${paint(task.status).padEnd(9)} ${task.name} ${c.dim(task.id)}\n`);
          if (task.result) io.stdout.write(`  result: ${JSON.stringify(task.result)}\n`);
          if (task.error) io.stdout.write(`  error: ${task.error}\n`);
        }
        io.stdout.write(`run ${paint(result.status)}\n`);
      }
      setExit(result.status === "completed" ? EXIT.ok : EXIT.failed);
    });

  apflow
    .command("plan")
    .description("Print the order in which tasks become ready (every task assumed to complete; nothing runs)")
    .argument("<file>", "JSON or YAML file: a TaskTreeNode or a flat task list")
    .option("--mode <mode>", "validation mode: strict or wire", "strict")
    .option("--format <format>", "text or json (the plan: { steps, skipped })", "text")
    .addHelpText(
      "after",
      `
Each step is the set of tasks that become ready together, in the scheduler's start order
(priority 0 first, then input order). Tasks already terminal, and those rule (d) cancels
because a required dependency already failed, are listed as skipped. A flat list is read as
tasks.create takes it (see flowspec apflow check --help).

Exit codes: 0 planned, 1 the tree is invalid, 2 usage error or unreadable file.

Examples:
  flowspec apflow plan tree.json
  flowspec apflow plan tasks.json --mode wire --format json`,
    )
    .action((file: string, options: { mode: string; format: string }) => {
      const mode = parseMode(options.mode);
      const format = parseFormat(options.format);
      const { document, input } = runnable(io, file, mode);
      let plan;
      try {
        plan = planTaskTree(input, { mode });
      } catch (error) {
        if (!(error instanceof TaskTreeRunError)) throw error;
        printRefused(io, format, document, file, error.message, error.issues);
        setExit(EXIT.failed);
        return;
      }
      if (format === "json") {
        io.stdout.write(JSON.stringify(plan, null, 2) + "\n");
        setExit(EXIT.ok);
        return;
      }
      const c = colours(io);
      plan.steps.forEach((step, k) => {
        io.stdout.write(`step ${k + 1}: ${step.map((t) => `${t.name} ${c.dim(`(priority ${t.priority}, executor ${t.executor})`)}`).join(", ")}\n`);
      });
      for (const skipped of plan.skipped) io.stdout.write(`skipped: ${skipped.name} ${c.dim(skipped.id)}: ${skipped.reason}\n`);
      setExit(EXIT.ok);
    });
}
