import { basename, dirname, isAbsolute, relative, resolve, sep } from "node:path";
import { readConfig, type CodegenConfig } from "./config.js";
import { buildGraph, bundleRoot, pascalCase, type RootSpec } from "./bundle.js";
import { formatCode, header, indexModule, jsonSchemasModule, type GeneratedFile, type Provenance, type VariantOutput } from "./emit.js";
import { readSchemaFiles, type SchemaFile } from "@flowspec/schema-diff/schema-files";
import { applyOverlays, readOverlay } from "./schema-set.js";
import { generateTypes, type GeneratedTypes } from "./types.js";
import { generateValidators, validatorOptionsOf } from "./validators.js";
import { exportShared, shareEqualFunctions } from "./shared-validators.js";

export interface GenerateOptions {
  /** The folder of JSON Schemas (with an optional `codegen.json`). */
  schemaDir: string;
  /** The folder the generated files are meant for; only used to phrase paths in the headers. */
  outDir: string;
  /** Overrides `codegen.json` entirely (for tests and library use). */
  config?: CodegenConfig;
}

/**
 * Generates types, standalone validators, JSON Schemas and the `index.ts` API for one folder of
 * schemas, in memory. Deterministic: the same inputs give byte-identical output.
 */
export interface GeneratedSet {
  files: GeneratedFile[];
  /** The command that regenerates these files, as the headers quote it. */
  regenerateCommand: string;
}

export async function generate(options: GenerateOptions): Promise<GeneratedSet> {
  const schemaDir = resolve(options.schemaDir);
  const config = options.config ?? readConfig(schemaDir);
  const setName = config.name ?? basename(schemaDir);
  const files = readSchemaFiles(schemaDir, setName);
  const roots = rootSpecs(config, files);
  const variantNames = Object.keys(config.variants ?? { default: [] });
  const defaultVariant = config.defaultVariant ?? variantNames[0]!;
  const ordered = [defaultVariant, ...variantNames.filter((v) => v !== defaultVariant)];
  const typeOverlays = (config.typeOverlays ?? []).map((path) => readOverlay(schemaDir, path));
  const validatorOptions = validatorOptionsOf(config);

  // The headers name folders relative to the folder that holds both the schemas and the output
  // (typically the project root), never to the working directory: `--check` run from elsewhere
  // (`npm run -w`, a CI step's own cwd) must regenerate the very same text.
  const outDir = resolve(options.outDir);
  const base = commonAncestor(schemaDir, outDir);
  const displayDir = posixRelative(base, schemaDir) || ".";
  const regenerateCommand = config.regenerateCommand ?? `flowspec-codegen --schemas ${displayDir} --out ${posixRelative(base, outDir) || "."}`;

  const out: GeneratedFile[] = [];
  const variants: VariantOutput[] = [];
  const overlaysUsed = new Map<string, string>();
  let defaultTypes: GeneratedTypes | undefined;
  /** Each variant's validators module, written out once every variant is generated (see below). */
  const validatorModules: { name: string; code: string; provenance: Provenance; importsDefault: boolean }[] = [];

  for (const name of ordered) {
    const overlays = (config.variants?.[name] ?? []).map((path) => readOverlay(schemaDir, path));
    for (const o of [...overlays, ...typeOverlays]) overlaysUsed.set(o.path, o.sha256);
    const variantFiles = applyOverlays(files, overlays);
    const graph = buildGraph(variantFiles, roots);
    // Validators first: ajv checks each schema against its dialect's meta-schema, and its errors
    // name the file, where the type generator would fail on the same schema without saying where.
    const validators = generateValidators(variantFiles, graph, validatorOptions);
    const isDefault = name === defaultVariant;
    const shared = config.sharedTypes?.includes(name) ?? false;
    const types = shared ? defaultTypes! : await generateTypes(buildGraph(applyOverlays(variantFiles, typeOverlays), roots));
    const typesModule = isDefault || types.source === defaultTypes?.source ? "./types.js" : `./types.${name}.js`;
    if (isDefault) defaultTypes = types;
    const variant: VariantOutput = { name, suffix: isDefault ? "" : pascalCase(name), graph, typesModule, rootTypes: types.rootTypes };
    variants.push(variant);

    const provenance = provenanceOf(displayDir, files, [...overlays, ...typeOverlays], regenerateCommand);
    if (typesModule !== "./types.js" || isDefault) {
      out.push({
        path: typesModule.replace(/^\.\//, "").replace(/\.js$/, ".ts"),
        content: header(provenance, `TypeScript types of the ${setName} schemas${isDefault ? "" : ` (${name} variant)`}.`) + (await formatCode(types.source, "typescript")),
      });
    }
    const bundles = new Map(graph.roots.map((root) => [root.name, bundleRoot(graph, root)]));
    out.push({
      path: `json-schemas.${name}.ts`,
      content: header(provenance, `Self-contained JSON Schemas of the ${setName} roots (${name} variant).`) + (await formatCode(jsonSchemasModule(variant, bundles), "typescript")),
    });
    validatorModules.push({ name, code: validators, provenance, importsDefault: false });
  }

  // A variant's validators that equal the default variant's (most do: an overlay changes a few
  // schemas) are imported from its module, not compiled again by every program that loads both.
  const [first, ...others] = validatorModules;
  const exported = new Set<string>();
  for (const variant of others) {
    const shared = shareEqualFunctions(variant.code, first!.code, `./validators.${first!.name}.js`);
    variant.code = shared.variant;
    for (const name of shared.imported) exported.add(name);
    variant.importsDefault = shared.imported.length > 0;
  }
  if (exported.size > 0) first!.code = exportShared(first!.code, exported);
  for (const { name, code, provenance, importsDefault } of validatorModules) {
    const note = importsDefault ? ` Its validators equal to the ${first!.name} variant's are imported from that module.` : "";
    out.push({
      // TypeScript, so that a plain `tsc` emits it beside the rest (it would not copy a `.js`).
      path: `validators.${name}.ts`,
      // Not run through prettier: ajv's own line-broken output is deterministic and a third smaller,
      // and every program that validates parses this file at start-up.
      content: header(provenance, `Standalone ajv validators of the ${setName} roots (${name} variant); they compile nothing at run time.${note}`) + code + "\n",
    });
  }

  const all = provenanceOf(displayDir, files, [...overlaysUsed].map(([path, sha256]) => ({ path, sha256 })), regenerateCommand);
  out.push({
    path: "index.ts",
    content: header(all, `The generated API of the ${setName} schemas: types, validateX, isX, assertX and XSchema per root.`) + (await formatCode(indexModule(variants), "typescript")),
  });
  return { files: out.sort((a, b) => (a.path < b.path ? -1 : 1)), regenerateCommand };
}

/** The deepest folder that contains both paths (absolute, resolved). */
function commonAncestor(a: string, b: string): string {
  let base = a;
  while (!isWithin(base, b) && dirname(base) !== base) base = dirname(base);
  return base;
}

function isWithin(folder: string, path: string): boolean {
  const rel = relative(folder, path);
  return rel !== ".." && !rel.startsWith(`..${sep}`) && !isAbsolute(rel);
}

const posixRelative = (from: string, to: string) => relative(from, to).split(sep).join("/");

function provenanceOf(schemaDir: string, files: readonly SchemaFile[], overlays: readonly { path: string; sha256: string }[], regenerateCommand: string): Provenance {
  const sources = [...files.map((f) => ({ path: f.path, sha256: f.sha256 })), ...overlays.map((o) => ({ path: o.path, sha256: o.sha256 }))];
  return { schemaDir, sources: sources.sort((a, b) => (a.path < b.path ? -1 : 1)), regenerateCommand };
}

/** The configured roots, or by default every file whose root is a schema (not just a `$defs` container). */
function rootSpecs(config: CodegenConfig, files: readonly SchemaFile[]): RootSpec[] {
  if (config.roots) return Object.entries(config.roots).map(([name, ref]) => ({ name, ref }));
  const roots = files
    .filter((file) => ["type", "properties", "$ref", "oneOf", "anyOf", "allOf", "enum", "const"].some((k) => k in file.json))
    .map((file) => ({
      name: pascalCase(typeof file.json.title === "string" ? file.json.title : basename(file.path, ".json").replace(/\.schema$/, "")),
      ref: file.path,
    }));
  if (roots.length === 0) throw new Error(`no root schemas found; list them under "roots" in codegen.json`);
  // Two roots of one name would declare every export twice (and one type would be lost).
  for (const [i, root] of roots.entries()) {
    const first = roots.findIndex((r) => r.name === root.name);
    if (first !== i) {
      throw new Error(`${roots[first]!.ref} and ${root.ref} both make a root named ${root.name}; give them distinct titles or name the roots in codegen.json ("roots")`);
    }
  }
  return roots;
}
