/**
 * ajv compiling a spec's schema at run time with exactly what codegen compiles its validators with:
 * codegen's own `validatorCompiler` (options and formats from the spec's codegen.json) and
 * `skipUnusedFeatures`, so the options are read, never restated. Gives the compiled function for
 * in-process comparisons, and an ES module that does the same in a fresh process (for start-up).
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import type { FlowspecSchema } from "@flowspec/runtime";
import { readConfig } from "../../codegen/src/config.js";
import { skipUnusedFeatures, validatorCompiler, validatorOptionsOf } from "../../codegen/src/validators.js";

const repo = join(import.meta.dirname, "..", "..");
// As an ES module imports them (ajv itself is CommonJS either way).
const url = (specifier: string) => import.meta.resolve(specifier);

export function runtimeAjv(schema: FlowspecSchema<unknown>, schemaDir: string) {
  const ajv = validatorCompiler(schema.dialect, validatorOptionsOf(readConfig(join(repo, "schemas", schemaDir))));
  ajv.addSchema(schema.jsonSchema as object);
  skipUnusedFeatures(ajv, schema.dialect, [schema.jsonSchema]);
  // What a script needs to build the same ajv: the options as the instance holds them (less the
  // code and URI-resolver objects, left at their defaults), and the formats that are only names.
  const { code: _code, uriResolver: _uriResolver, ...options } = ajv.opts as unknown as Record<string, unknown>;
  const flags = { dynamicRef: ajv.opts.dynamicRef, unevaluated: ajv.opts.unevaluated };
  const namesOnly = Object.entries((ajv as unknown as { formats: Record<string, unknown> }).formats)
    .filter(([, format]) => format === true)
    .map(([name]) => name);
  return {
    validate: ajv.compile(schema.jsonSchema as object) as (value: unknown) => boolean,
    /**
     * Writes `schemaFile` and returns ES module text (absolute imports: it runs from anywhere) that
     * imports ajv, compiles the schema from that file, and leaves the function in `validate`.
     */
    script(schemaFile: string): string {
      writeFileSync(schemaFile, JSON.stringify(schema.jsonSchema));
      return `import { readFileSync } from "node:fs";
const { default: Ajv } = await import(${JSON.stringify(url(schema.dialect === "draft-07" ? "ajv" : "ajv/dist/2020.js"))});
const { formats } = await import(${JSON.stringify(url("@flowspec/runtime/ajv"))});
const ajv = new Ajv(${JSON.stringify(options)});
for (const [name, format] of Object.entries(formats)) ajv.addFormat(name, format);
for (const name of ${JSON.stringify(namesOnly)}) ajv.addFormat(name, true);
const schema = JSON.parse(readFileSync(${JSON.stringify(schemaFile)}, "utf8"));
ajv.addSchema(schema);
Object.assign(ajv.opts, ${JSON.stringify(flags)});
const validate = ajv.compile(schema);
`;
    },
  };
}
