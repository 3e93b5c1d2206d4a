/**
 * `@flowspec/schema-diff/schema-files`: how flowspec reads a folder of JSON Schemas (dialect from
 * `$schema`, base URIs, subschema walks, JSON errors with line:column). The diff and
 * `@flowspec/codegen` share it, so both read a folder the same way.
 */
export { baseUri, CONFIG_FILE, dialectOf, parseJsonObject, readSchemaFiles, sha256, type Dialect, type JsonObject, type SchemaFile } from "./read-schemas.js";
export { findSchema, forEachSchema, getAt, mapSchema, escape, unescape } from "./walk.js";
export { isRecord, parseJsonText } from "./json-text.js";
export { withLf } from "./line-endings.js";
