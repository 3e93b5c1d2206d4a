import type { Command } from "commander";
import type { CliIo } from "../io.js";
import { importPeer } from "../optional.js";

/**
 * `flowspec codegen`: the same command as `flowspec-codegen`, in the flowspec command tree. Its
 * options and help are codegen's own, passed through unchanged.
 */
export function registerCodegen(command: Command, io: CliIo, setExit: (code: number) => void): void {
  command
    .helpOption(false)
    .allowUnknownOption()
    .allowExcessArguments()
    .argument("[options...]")
    .action(async (args: string[]) => {
      // An optional peer: the generator (json-schema-to-typescript, ts-morph, prettier) is heavy.
      const { runCodegen } = await importPeer("@flowspec/codegen", "codegen", () => import("@flowspec/codegen"));
      setExit(await runCodegen(args, io, { cwd: io.cwd }));
    });
}
