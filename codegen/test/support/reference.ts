import { join } from "node:path";
import { Ajv, type Options, type ValidateFunction } from "ajv";
import { Ajv2019 } from "ajv/dist/2019.js";
import { Ajv2020 } from "ajv/dist/2020.js";
import AjvDraft04 from "ajv-draft-04";
import { formats } from "@flowspec/runtime/ajv";
import type { Dialect } from "@flowspec/schema-diff/schema-files";
import { INTEGER_FORMATS, UNCHECKED_STANDARD_FORMATS } from "../../src/validators.js";
import { readConfig } from "../../src/config.js";
import { readSchemaFiles } from "@flowspec/schema-diff/schema-files";
import { applyOverlays, readOverlay } from "../../src/schema-set.js";
import { buildGraph } from "../../src/bundle.js";
import { repoRoot } from "../../../test/support.js";

/** A folder of schemas codegen generates, and where its output is committed. */
export interface SchemaSet {
  name: string;
  schemaDir: string;
  outDir: string;
}

/** The four specs and the codegen-other-repo example, as `npm run codegen` generates them. */
export const SCHEMA_SETS: readonly SchemaSet[] = [
  ...["stepflow", "agents-json", "apflow", "agent-service"].map((spec) => ({
    name: spec,
    schemaDir: join(repoRoot, "schemas", spec),
    outDir: join(repoRoot, "packages", spec, "src", "generated"),
  })),
  { name: "codegen-other-repo", schemaDir: join(repoRoot, "examples/codegen-other-repo/schemas"), outDir: join(repoRoot, "examples/codegen-other-repo/src/generated") },
];

/** One root of one variant: ajv compiling the verbatim schemas (overlays applied) at run time. */
export interface ReferenceRoot {
  set: string;
  variant: string;
  root: string;
  reference: ValidateFunction;
}

/**
 * Every root of every variant of a schema set, compiled by ajv at run time from the verbatim schema
 * files with the variant's overlays applied, and with the options that decide verdicts as codegen
 * sets them: all errors, union types, the runtime's formats, the unchecked formats (and the
 * integer formats, unless codegen.json checks them) as annotations and the annotation keywords of
 * codegen.json. Written apart from codegen's own ajv set-up on purpose: it is what the generated
 * code is checked against.
 */
export function referenceRoots(set: SchemaSet): ReferenceRoot[] {
  const config = readConfig(set.schemaDir);
  const files = readSchemaFiles(set.schemaDir, config.name ?? set.name);
  if (!config.roots) throw new Error(`${set.schemaDir}: the reference needs the roots named in codegen.json`);
  const roots = Object.entries(config.roots).map(([name, ref]) => ({ name, ref }));
  const out: ReferenceRoot[] = [];
  for (const [variant, overlayPaths] of Object.entries(config.variants ?? { default: [] })) {
    const variantFiles = applyOverlays(files, overlayPaths.map((path) => readOverlay(set.schemaDir, path)));
    const graph = buildGraph(variantFiles, roots);
    const ajv = referenceAjv(graph.dialect, { allErrors: true, strict: false, allowUnionTypes: true, keywords: config.keywords ?? [] });
    for (const [name, format] of Object.entries(formats)) ajv.addFormat(name, format as never);
    for (const name of [...UNCHECKED_STANDARD_FORMATS, ...(config.checkIntegerFormats ? [] : INTEGER_FORMATS), ...(config.formats ?? [])]) ajv.addFormat(name, true);
    for (const file of variantFiles) ajv.addSchema({ ...file.json, [graph.dialect === "draft-04" ? "id" : "$id"]: file.uri });
    for (const root of graph.roots) {
      out.push({ set: set.name, variant, root: root.name, reference: ajv.getSchema(`${root.file.uri}#${root.pointer}`)! });
    }
  }
  return out;
}

/** ajv's own class for a dialect (ajv-draft-04 for draft-04). */
export function referenceAjv(dialect: Dialect, options: Options): Ajv {
  switch (dialect) {
    case "draft-04":
      return new (AjvDraft04 as unknown as new (options: Options) => Ajv)(options);
    case "draft-07":
      return new Ajv(options);
    case "draft-2019-09":
      return new Ajv2019(options);
    case "draft-2020-12":
      return new Ajv2020(options);
  }
}
