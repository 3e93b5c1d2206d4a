import { readFileSync } from "node:fs";
import { Command, CommanderError } from "commander";
import { registerAgentsJson } from "./commands/agents-json.js";
import { registerApflow } from "./commands/apflow.js";
import { registerCodegen } from "./commands/codegen.js";
import { registerDiff } from "./commands/diff.js";
import { registerGraph } from "./commands/graph.js";
import { registerRuns } from "./commands/runs.js";
import { registerStepflowServe } from "./commands/stepflow-serve.js";
import { registerStepflow } from "./commands/stepflow.js";
import { registerValidate } from "./commands/validate.js";
import { CliError, EXIT, type CliIo } from "./io.js";

const VERSION = (JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8")) as { version: string }).version;

/**
 * Runs the `flowspec` command in-process and resolves with its exit code. Commands are registered
 * from `commands/`, one file each.
 */
export async function runCli(argv: readonly string[], io: CliIo): Promise<number> {
  let exitCode: number = EXIT.ok;
  const setExit = (code: number) => {
    exitCode = Math.max(exitCode, code);
  };
  const program = new Command("flowspec")
    .description("flowspec: typed documents, validators and runtimes for StepFlow, agents.json, apflow and Agent Service")
    .version(VERSION, "-V, --version")
    .exitOverride()
    .configureOutput({ writeOut: (text) => io.stdout.write(text), writeErr: (text) => io.stderr.write(text) })
    .showHelpAfterError("(add --help for usage)");
  registerValidate(program, io, setExit);
  registerDiff(program, io, setExit);
  registerCodegen(program, io, setExit);
  registerGraph(program, io, setExit);
  registerStepflow(program, io, setExit);
  registerStepflowServe(program, io);
  registerAgentsJson(program, io, setExit);
  registerApflow(program, io, setExit);
  registerRuns(program, io, setExit);
  const override = (command: Command): void => {
    command.exitOverride();
    command.commands.forEach(override);
  };
  program.commands.forEach(override);
  try {
    await program.parseAsync([...argv], { from: "user" });
  } catch (error) {
    if (error instanceof CommanderError) {
      // "commander.help" is also how a group given no subcommand ends (exitCode 1): a usage error.
      const asked = error.code === "commander.helpDisplayed" || error.code === "commander.version" || (error.code === "commander.help" && error.exitCode === 0);
      return asked ? EXIT.ok : EXIT.usage;
    }
    if (error instanceof CliError) {
      io.stderr.write(`flowspec: ${error.message}\n`);
      return error.exitCode;
    }
    throw error;
  }
  return exitCode;
}
