import { spawnSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { pathToFileURL } from "node:url";
import type { ValidateFunction } from "ajv";
import { formats } from "@flowspec/runtime/ajv";
import type { Dialect } from "@flowspec/schema-diff/schema-files";
import { generate, writeGenerated, type CodegenConfig } from "../../src/index.js";
import { INTEGER_FORMATS, UNCHECKED_STANDARD_FORMATS } from "../../src/validators.js";
import { repoRoot } from "../../../test/support.js";
import { referenceAjv } from "./reference.js";

/** Each dialect's `$schema`. */
export const SCHEMA_URI: Record<Dialect, string> = {
  "draft-04": "http://json-schema.org/draft-04/schema#",
  "draft-07": "http://json-schema.org/draft-07/schema#",
  "draft-2019-09": "https://json-schema.org/draft/2019-09/schema",
  "draft-2020-12": "https://json-schema.org/draft/2020-12/schema",
};

export type Validators = Record<string, (data: unknown) => boolean>;

export interface GeneratedFolder {
  dir: string;
  out: string;
  dialect: Dialect;
  /** The schemas as written (`codegen.json` and overlays too), by path. */
  files: Record<string, object>;
  /** The text of a generated file. */
  text(path: string): string;
  types: string;
  validators: Validators;
}

/**
 * Writes the schemas under `<tmp>/case-N/schemas` (each `*.json` but `codegen.json` and overlays
 * gets the dialect's `$schema`), generates into `out/` and imports the validators.
 */
export async function generateFolder(tmp: string, files: Record<string, object>, options: { dialect?: Dialect } = {}): Promise<GeneratedFolder> {
  const dir = join(tmp, `case-${Math.random().toString(36).slice(2)}`);
  const dialect = options.dialect ?? "draft-07";
  for (const [path, schema] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, "schemas", path)), { recursive: true });
    const isSchema = path !== "codegen.json" && !path.startsWith("overlays/");
    writeFileSync(join(dir, "schemas", path), JSON.stringify(isSchema ? { $schema: SCHEMA_URI[dialect], ...schema } : schema));
  }
  const out = join(dir, "out");
  const { files: generated } = await generate({ schemaDir: join(dir, "schemas"), outDir: out });
  writeGenerated(generated, out);
  const validators = (await import(pathToFileURL(join(out, "validators.default.ts")).href)) as Validators;
  const text = (path: string) => generated.find((f) => f.path === path)!.content;
  return { dir, out, dialect, files, text, types: text("types.ts"), validators };
}

/** tsc (strict, this repository's settings) over the generated folder plus `use.ts` (code a user writes against the types); "" when it type-checks. */
export function typeCheck(dir: string, use = "export {};\n"): string {
  writeFileSync(join(dir, "package.json"), '{"type":"module"}');
  writeFileSync(join(dir, "use.ts"), use);
  writeFileSync(
    join(dir, "tsconfig.json"),
    JSON.stringify({
      extends: join(repoRoot, "tsconfig.base.json"),
      compilerOptions: {
        noEmit: true,
        types: [],
        paths: { "@flowspec/runtime/*": [join(repoRoot, "packages/runtime/src/*.ts")] },
      },
      include: ["out/**/*.ts", "use.ts"],
    }),
  );
  const run = spawnSync(process.execPath, [join(repoRoot, "node_modules/typescript/bin/tsc"), "-p", join(dir, "tsconfig.json")], { encoding: "utf8" });
  return run.stdout + run.stderr;
}

/**
 * ajv compiling the folder's schemas at run time, as a user of ajv would set it up: the dialect's
 * own ajv class, the runtime's formats (the integer ones only if codegen.json checks them), the
 * annotation keywords and formats of codegen.json.
 */
export function referenceFor(generated: GeneratedFolder, file: string, extra: { strict?: boolean } = {}): ValidateFunction {
  const config = (generated.files["codegen.json"] ?? {}) as CodegenConfig;
  const ajv = referenceAjv(generated.dialect, { allErrors: true, strict: extra.strict ?? false, keywords: config.keywords ?? [] });
  for (const [name, format] of Object.entries(formats)) ajv.addFormat(name, format as never);
  for (const name of [...UNCHECKED_STANDARD_FORMATS, ...(config.checkIntegerFormats ? [] : INTEGER_FORMATS), ...(config.formats ?? [])]) ajv.addFormat(name, true);
  const base = "https://user.example/";
  const id = generated.dialect === "draft-04" ? "id" : "$id";
  const uriOf = (path: string) => new URL(((generated.files[path] as Record<string, unknown>)[id] as string | undefined) ?? path, new URL(path, base)).href.replace(/#$/, "");
  for (const [path, schema] of Object.entries(generated.files)) {
    if (path === "codegen.json" || path.startsWith("overlays/")) continue;
    ajv.addSchema({ $schema: SCHEMA_URI[generated.dialect], ...schema, [id]: uriOf(path) });
  }
  return ajv.getSchema(uriOf(file))!;
}

/** Each sample's verdict from the generated validator of `root`, and from ajv compiling `file` at run time. */
export function verdicts(generated: GeneratedFolder, root: string, file: string, samples: unknown[]) {
  const atRunTime = referenceFor(generated, file);
  return {
    codegen: samples.map((sample) => generated.validators[root]!(sample)),
    ajv: samples.map((sample) => atRunTime(sample) as boolean),
  };
}
