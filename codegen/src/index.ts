export { generate, type GenerateOptions, type GeneratedSet } from "./generate.js";
export { checkDrift, writeGenerated, type DriftReport } from "./check.js";
export { readConfig, CONFIG_FILE, type CodegenConfig } from "./config.js";
export type { GeneratedFile } from "./emit.js";
export { dialectOf, type Dialect, type Overlay } from "./schema-set.js";
export { diffSchemas, type Breaking, type ChangeKind, type DiffOptions, type DiffReport, type SchemaChange, type SchemaInput } from "./diff/index.js";
export { runCodegen, type CodegenIo, type CodegenRunOptions } from "./cli.js";
