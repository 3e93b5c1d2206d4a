export { runCli } from "./program.js";
export { EXIT, type CliIo } from "./io.js";
// Kept for programs that imported them from here: they live in @flowspec/documents now.
export { detectKind, findKind, KINDS, type DocumentKind } from "@flowspec/documents/kinds";
