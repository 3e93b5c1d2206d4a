import { isAbsolute, relative, resolve, sep } from "node:path";
import { parseArgs } from "node:util";
import { checkDrift, writeGenerated } from "./check.js";
import { generate } from "./generate.js";

const USAGE = `Usage: flowspec-codegen --schemas DIR --out DIR [--schemas DIR --out DIR]... [--check]

Generates TypeScript types, standalone validators (no ajv compile at run time) and a typed API
(validateX, isX, assertX, XSchema) from a folder of JSON Schemas (draft-04, draft-07, 2019-09 or
2020-12, one per folder). An optional codegen.json in the folder names the roots, variants (RFC 6902
overlays), annotation keywords and formats, and the strict-mode checks to relax.
Repeat --schemas/--out to generate several folders; they pair up in order.

Options:
  --schemas DIR   folder of JSON Schemas
  --out DIR       folder to write (its files are replaced; nothing else should live there)
  --check         write nothing; exit 1 with a diff if the output folder is not up to date
  -h, --help      show this help

Exit codes: 0 done (or up to date), 1 stale output (--check), 2 usage or schema error.

Example:
  flowspec-codegen --schemas schemas/billing --out src/generated
  flowspec-codegen --schemas schemas/billing --out src/generated --check`;

/** Where the command writes (the process's streams, or a test's buffers). */
export interface CodegenIo {
  stdout: { write(text: string): unknown };
  stderr: { write(text: string): unknown };
}

export interface CodegenRunOptions {
  /** What `--schemas` and `--out` are relative to (default: the process's working directory). */
  cwd?: string;
}

/**
 * The `flowspec-codegen` command (also `flowspec codegen`): resolves with its exit code, 0 done or
 * up to date, 1 stale (--check), 2 usage or schema error.
 */
export async function runCodegen(argv: string[], io: CodegenIo = process, options: CodegenRunOptions = {}): Promise<number> {
  const console = { log: (text: string) => void io.stdout.write(`${text}\n`), error: (text: string) => void io.stderr.write(`${text}\n`) };
  try {
    return await main(argv, console, options.cwd ?? process.cwd());
  } catch (error) {
    console.error(`flowspec-codegen: ${(error as Error).message}`);
    return 2;
  }
}

async function main(argv: string[], console: { log(text: string): void; error(text: string): void }, cwd: string): Promise<number> {
  let values;
  try {
    ({ values } = parseArgs({
      args: argv,
      options: {
        schemas: { type: "string", multiple: true },
        out: { type: "string", multiple: true },
        check: { type: "boolean", default: false },
        help: { type: "boolean", short: "h", default: false },
      },
      strict: true,
    }));
  } catch (error) {
    console.error(`flowspec-codegen: ${(error as Error).message}\n\n${USAGE}`);
    return 2;
  }
  if (values.help) {
    console.log(USAGE);
    return 0;
  }
  const schemas = values.schemas ?? [];
  const outs = values.out ?? [];
  if (schemas.length === 0 || schemas.length !== outs.length) {
    console.error(`flowspec-codegen: give --schemas and --out in pairs\n\n${USAGE}`);
    return 2;
  }
  const fixes: string[] = [];
  for (const [i, schemaDir] of schemas.entries()) {
    const outDir = outs[i]!;
    const progress = `[${i + 1}/${schemas.length}]`;
    // Messages name the folders as given; the work uses them resolved against `cwd`.
    const schemaPath = resolve(cwd, schemaDir);
    const outPath = resolve(cwd, outDir);
    // The output folder is codegen's own: writing removes every file it does not generate.
    const fromOut = relative(outPath, schemaPath);
    if (fromOut === "" || (fromOut !== ".." && !fromOut.startsWith(`..${sep}`) && !isAbsolute(fromOut))) {
      console.error(`flowspec-codegen: --out ${outDir} holds the schema folder ${schemaDir}; codegen would remove the schemas. Choose an output folder of its own.`);
      return 2;
    }
    const { files, regenerateCommand } = await generate({ schemaDir: schemaPath, outDir: outPath });
    if (!values.check) {
      writeGenerated(files, outPath);
      console.error(`flowspec-codegen: ${progress} ${schemaDir} -> ${outDir} (${files.length} files)`);
      continue;
    }
    const report = checkDrift(files, outPath);
    if (report.upToDate) {
      console.error(`flowspec-codegen: ${progress} ${outDir} is up to date with ${schemaDir}`);
      continue;
    }
    if (!fixes.includes(regenerateCommand)) fixes.push(regenerateCommand);
    const parts = [
      report.changed.length ? `${report.changed.length} changed` : "",
      report.missing.length ? `${report.missing.length} missing` : "",
      report.extra.length ? `${report.extra.length} no longer generated` : "",
    ].filter(Boolean);
    console.log(report.diff);
    console.error(`flowspec-codegen: ${outDir} is stale against ${schemaDir} (${parts.join(", ")} file(s)); the diff above shows what codegen would write.`);
  }
  if (fixes.length > 0) console.error(`Fix: run ${fixes.map((c) => `\`${c}\``).join(" and ")}, then commit the result.`);
  return fixes.length > 0 ? 1 : 0;
}

