export { diffSchemas } from "./diff.js";
export type { Breaking, ChangeKind, DiffOptions, DiffReport, SchemaChange, SchemaInput } from "./types.js";
