export { diffSchemas } from "./diff/diff.js";
export type { Breaking, ChangeKind, DiffOptions, DiffReport, SchemaChange, SchemaInput, Witness } from "./diff/types.js";
