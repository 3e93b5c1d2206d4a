import { Command, CommanderError, Help } from "commander";
import { CliError, EXIT, type CliIo } from "./io.js";
import { VERSION } from "./version.js";

/** Fills in a top-level command (arguments, options, subcommands, action) that `runCli` created. */
export type Register = (command: Command, io: CliIo, setExit: (code: number) => void) => void;

/** A top-level command: what `flowspec --help` lists, and the module that defines it. */
interface TopCommand {
  name: string;
  /** What follows the name in `flowspec --help`, as commander prints it once the command is defined. */
  usage: string;
  description: string;
  load(): Promise<Register>;
}

/**
 * The top-level commands, in the order `flowspec --help` lists them. Each command's module, and
 * the packages it needs, is imported only when that command runs or its help is asked for: `--version`
 * and `--help` load none of them, and `validate` never loads the HTTP clients of `runs`.
 */
export const COMMANDS: readonly TopCommand[] = [
  {
    name: "validate",
    usage: "[options] <files...>",
    description: "Validate JSON or YAML documents of the four specs against the generated validators",
    load: async () => (await import("./commands/validate.js")).registerValidate,
  },
  {
    name: "diff",
    usage: "[options] <old> <new>",
    description: "Compare two versions of a JSON Schema and classify every change as breaking or not, for each direction",
    load: async () => (await import("./commands/diff.js")).registerDiff,
  },
  {
    name: "codegen",
    usage: "[options...]",
    description: "Generate types and standalone validators from JSON Schemas (same as flowspec-codegen; --help for its options)",
    load: async () => (await import("./commands/codegen.js")).registerCodegen,
  },
  {
    name: "graph",
    usage: "[options] <file>",
    description: "Draw a StepFlow flow, an agents.json document or an apflow task tree as Mermaid, DOT or SVG",
    load: async () => (await import("./commands/graph.js")).registerGraph,
  },
  {
    name: "stepflow",
    usage: "",
    description: "StepFlow 0.2.x flows: run them, test them, check them",
    load: async () => (await import("./commands/stepflow.js")).registerStepflow,
  },
  {
    name: "agents-json",
    usage: "",
    description: "agents.json documents: lint, run a flow over HTTP, export LLM tools",
    load: async () => (await import("./commands/agents-json.js")).registerAgentsJson,
  },
  {
    name: "apflow",
    usage: "",
    description: "apflow v1 task trees: check, plan and run them locally",
    load: async () => (await import("./commands/apflow.js")).registerApflow,
  },
  {
    name: "runs",
    usage: "",
    description: "Create, inspect, cancel and watch Agent Service runs",
    load: async () => (await import("./commands/runs.js")).registerRuns,
  },
];

/**
 * The top-level command argv asks for (`help <command>` asks for it too), read before commander
 * parses: the root's only options, --version and --help, take no value, so it is the first operand.
 */
function commandNamed(argv: readonly string[]): string | undefined {
  const [first, second] = argv.filter((arg) => !arg.startsWith("-"));
  return first === "help" ? second : first;
}

/**
 * Runs the `flowspec` command in-process and resolves with its exit code. Only the command argv
 * names is defined in full (from `commands/`, one file each); the others are listed by name.
 */
export async function runCli(argv: readonly string[], io: CliIo): Promise<number> {
  let exitCode: number = EXIT.ok;
  const setExit = (code: number) => {
    exitCode = Math.max(exitCode, code);
  };
  const listedOnly = new Map<Command, string>();
  const defaultHelp = new Help();
  const program = new Command("flowspec")
    .description("flowspec: typed documents, validators and runtimes for StepFlow, agents.json, apflow and Agent Service")
    .version(VERSION, "-V, --version")
    .exitOverride()
    .configureOutput({ writeOut: (text) => io.stdout.write(text), writeErr: (text) => io.stderr.write(text) })
    // A command that is only listed has no arguments or options yet: show its usage as defined.
    .configureHelp({ subcommandTerm: (command) => listedOnly.get(command) ?? defaultHelp.subcommandTerm(command) })
    .showHelpAfterError("(add --help for usage)");
  const named = commandNamed(argv);
  for (const { name, usage, description, load } of COMMANDS) {
    const command = program.command(name).description(description);
    if (name === named) (await load())(command, io, setExit);
    else listedOnly.set(command, usage ? `${name} ${usage}` : name);
  }
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
