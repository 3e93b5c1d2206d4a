import { join } from "node:path";
import { readTextFileSync } from "@flowspec/runtime/files";
import jsonPatch, { type Operation } from "fast-json-patch";
import { isRecord, parseJsonObject, sha256, withLf, type SchemaFile } from "@flowspec/schema-diff/schema-files";

/** A file of RFC 6902 patches, keyed by the schema file they apply to. */
export interface Overlay {
  path: string;
  sha256: string;
  description?: string;
  // By name, not `jsonPatch.Operation`: in the emitted .d.ts the default export is a value, not a namespace.
  patches: Record<string, Operation[]>;
}

export function readOverlay(schemaDir: string, path: string): Overlay {
  const text = withLf(readTextFileSync(join(schemaDir, path)));
  const json = parseJsonObject(text, join(schemaDir, path));
  if (!isRecord(json.patches)) {
    throw new Error(`${join(schemaDir, path)}: an overlay is {"description", "patches": {"<schema file>": [RFC 6902 operations]}}`);
  }
  for (const [file, ops] of Object.entries(json.patches)) {
    if (!Array.isArray(ops)) throw new Error(`${join(schemaDir, path)}: patches for "${file}" must be an array of RFC 6902 operations`);
  }
  return {
    path,
    sha256: sha256(text),
    description: typeof json.description === "string" ? json.description : undefined,
    patches: json.patches as Overlay["patches"],
  };
}

/** Applies overlays in order, returning patched copies; a failing operation names the overlay, file and operation. */
export function applyOverlays(files: readonly SchemaFile[], overlays: readonly Overlay[]): SchemaFile[] {
  const patched = new Map(files.map((file) => [file.path, { ...file }]));
  for (const overlay of overlays) {
    for (const [path, ops] of Object.entries(overlay.patches)) {
      const file = patched.get(path);
      if (!file) throw new Error(`${overlay.path}: patches "${path}", which is not a schema file of this folder`);
      ops.forEach((op, index) => {
        const where = `${overlay.path}: operation ${index} (${op.op} ${op.path}) on ${path}`;
        const problem = jsonPatch.validate([op], file.json);
        if (problem) throw new Error(`${where} cannot apply: ${firstLine(problem.message)}`);
        try {
          file.json = jsonPatch.applyPatch(file.json, [op], true, false).newDocument;
        } catch (error) {
          throw new Error(`${where} failed: ${firstLine((error as Error).message)}`);
        }
      });
    }
  }
  return files.map((file) => patched.get(file.path)!);
}

function firstLine(text: string): string {
  return text.split("\n")[0]!;
}
