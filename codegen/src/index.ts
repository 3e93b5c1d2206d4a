export { generate, type GenerateOptions, type GeneratedSet } from "./generate.js";
export { checkDrift, writeGenerated, type DriftReport } from "./check.js";
export { readConfig, type CodegenConfig } from "./config.js";
export type { GeneratedFile } from "./emit.js";
export type { Overlay } from "./schema-set.js";
export { CONFIG_FILE, dialectOf, type Dialect } from "@flowspec/schema-diff/schema-files";
// The breaking-change diff lives in @flowspec/schema-diff (light: the `flowspec` command uses it); re-exported for existing imports.
export { diffSchemas, type Breaking, type ChangeKind, type DiffOptions, type DiffReport, type SchemaChange, type SchemaInput } from "@flowspec/schema-diff";
export { runCodegen, type CodegenIo, type CodegenRunOptions } from "./cli.js";
