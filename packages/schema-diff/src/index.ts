export { diffSchemas } from "./diff/diff.js";
export type { Breaking, ChangeKind, DiffOptions, DiffReport, SchemaChange, SchemaInput } from "./diff/types.js";
