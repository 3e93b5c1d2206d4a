import type { Ajv, Options } from "ajv";
import { forEachSchema, type SchemaFile } from "@flowspec/schema-diff/schema-files";
import type { SchemaGraph } from "./bundle.js";

/**
 * Every unknown keyword and every unknown format of a schema set, each with the places that have
 * it, as one message. ajv's strict mode stops at the first of them, so a folder with eleven took
 * eleven runs to fix. Two more compiles, with ajv told to log instead of throw, find them all:
 * one with strict schemas logged (unknown keywords; formats not looked at), one with strict
 * schemas off (unknown formats are then logged). ajv decides what is unknown, exactly as the
 * real compile does; only the places come from a walk of the files (ajv names a keyword without
 * its place, and a format by a path within one schema resource).
 */
export function unknownKeywordsAndFormats(files: readonly SchemaFile[], graph: SchemaGraph, ajvWith: (overrides: Options) => Ajv): string {
  const keywords = new Set<string>();
  const formats = new Set<string>();
  const probe = (overrides: Options) => {
    const warn = (message: unknown) => {
      const text = String(message);
      const keyword = /unknown keyword: "([^"]+)"/.exec(text)?.[1];
      const format = /unknown format "([^"]+)"/.exec(text)?.[1];
      if (keyword !== undefined) keywords.add(keyword);
      if (format !== undefined) formats.add(format);
    };
    const ajv = ajvWith({ ...overrides, logger: { log() {}, warn, error() {} } });
    for (const root of graph.roots) {
      try {
        ajv.getSchema(`${root.file.uri}#${root.pointer}`);
      } catch {
        // Another error: the real compile reports it once these are fixed.
      }
    }
  };
  probe({ strictSchema: "log", validateFormats: false });
  probe({ strictSchema: false });
  const lines = [
    ...[...keywords].sort().map((keyword) => `unknown keyword: "${keyword}"${placesOf(files, (node) => Object.hasOwn(node, keyword))}`),
    ...[...formats].sort().map((format) => `unknown format "${format}"${placesOf(files, (node) => node.format === format)}`),
  ];
  if (lines.length === 0) return "";
  return `${lines.length} unknown keyword(s) and format(s); list the keywords that only annotate under "keywords" and your own formats under "formats" in codegen.json, or fix the typos:\n${lines.map((line) => `  ${line}`).join("\n")}`;
}

/** ` (at file#/pointer, ...)`: every subschema of the files for which `has` holds. */
function placesOf(files: readonly SchemaFile[], has: (node: Record<string, unknown>) => boolean): string {
  const places: string[] = [];
  for (const file of files) {
    forEachSchema(file.json, (node, pointer) => {
      if (has(node)) places.push(`${file.path}#${pointer}`);
    });
  }
  return places.length > 0 ? ` (at ${places.sort().join(", ")})` : "";
}
