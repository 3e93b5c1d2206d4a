import type { Command } from "commander";
import type { CliIo } from "../io.js";

/**
 * `flowspec codegen`: the same command as `flowspec-codegen`, in the flowspec command tree. Its
 * options and help are codegen's own, passed through unchanged.
 */
export function registerCodegen(program: Command, io: CliIo, setExit: (code: number) => void): void {
  program
    .command("codegen")
    .description("Generate types and standalone validators from JSON Schemas (same as flowspec-codegen; --help for its options)")
    .helpOption(false)
    .allowUnknownOption()
    .allowExcessArguments()
    .argument("[options...]")
    .action(async (args: string[]) => {
      // Loaded on use: the generator (json-schema-to-typescript, ts-morph, prettier) is heavy.
      const { runCodegen } = await import("@flowspec/codegen");
      setExit(await runCodegen(args, io, { cwd: io.cwd }));
    });
}
