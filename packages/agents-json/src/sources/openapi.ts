import { $RefParser } from "@apidevtools/json-schema-ref-parser";
import { DocumentParseError, parseSourceDocument } from "@flowspec/runtime";
import { SourceFormatError, SourceResolutionError, type OverrideError } from "../errors.js";
import type { Override } from "../generated/types.js";
import { applyOverrides } from "./overrides.js";
import { effectiveParameters, type OpenApiParameter } from "./parameters.js";
import { isHttpUrl, isUrl, resolveLocation, type SourceResolver, type SourceText } from "./resolver.js";

export type Json = Record<string, unknown>;
export type { OpenApiParameter };

export const HTTP_METHODS = ["get", "put", "post", "delete", "options", "head", "patch", "trace"] as const;

/** One operation of a source, ready to call: its private copy after overrides and its effective parameters. */
export interface OperationEntry {
  operationId: string;
  method: (typeof HTTP_METHODS)[number];
  path: string;
  operation: Json;
  pathItem: Json;
  /** Path-item parameters overlaid by operation parameters, keyed by (name, in). */
  parameters: OpenApiParameter[];
}

/** A loaded OpenAPI 3.0/3.1 source. */
export interface OpenApiSource {
  sourceId: string;
  location: string;
  version: string;
  /** The dereferenced document (shared objects; operations with overrides have private copies in `operations`). */
  document: Json;
  operations: Map<string, OperationEntry>;
}

const isObject = (value: unknown): value is Json => typeof value === "object" && value !== null && !Array.isArray(value);

/**
 * Reads, checks and dereferences one source through the resolver (§4.2), indexes its operations
 * by `operationId` and applies the document's overrides for it (§5).
 */
export async function loadOpenApiSource(
  source: { id: string; path: string },
  options: { resolver: SourceResolver; documentLocation?: string; overrides?: readonly Override[]; onOverrideError?: (error: OverrideError) => void },
): Promise<OpenApiSource> {
  const location = resolveLocation(source.path, options.documentLocation);
  const referrer = options.documentLocation === undefined ? {} : { referrer: options.documentLocation };
  const read = await readSource(options.resolver, source.id, location, { sourceId: source.id, path: source.path, ...referrer });
  const parsed = parseSourceText(read, source.id);
  const version = checkOpenApi(parsed, source.id, read.location);
  checkRemoteRefs(parsed, read.location);
  // OpenAPI 3.0: "any properties added [to a Reference Object] SHALL be ignored" (schemas included);
  // the dereferencer would let them win over the target (`{$ref, required: false}`). 3.1 keeps them.
  const ignoreSiblings = version.startsWith("3.0.");
  if (ignoreSiblings) dropRefSiblings(parsed);
  const base = isUrl(read.location) ? read.location : `file://${encodeURI(absolute(read.location))}`;
  let document: Json;
  // The dereferencer wraps what a resolver throws in an error that drops its message: keep it here.
  let readError: Error | undefined;
  try {
    document = (await new $RefParser().dereference(base, parsed as Json, {
      resolve: {
        file: false,
        http: false,
        flowspec: {
          order: 1,
          canRead: true,
          read: async (file: { url: string }) => {
            try {
              return await readRef(file.url);
            } catch (error) {
              readError ??= error as Error;
              throw error;
            }
          },
        },
      },
      dereference: { circular: true },
      mutateInputSchema: true,
    })) as Json;
  } catch (error) {
    if (readError instanceof SourceResolutionError || readError instanceof SourceFormatError) throw readError;
    if (error instanceof SourceResolutionError) throw error;
    throw new SourceFormatError(`source "${source.id}" (${read.location}): cannot resolve $refs: ${(error as Error).message}`, { cause: error });
  }
  const operations = indexOperations(document, source.id);
  applyOverrides(operations, source.id, options.overrides ?? [], options.onOverrideError);
  return { sourceId: source.id, location: read.location, version, document, operations };

  /**
   * An external `$ref`, through the resolver. Parsed here, not by the dereferencer: its YAML errors
   * quote the file's lines, and it would take alias bombs that the document parser refuses.
   */
  async function readRef(url: string): Promise<string> {
    const read = await readSource(options.resolver, source.id, url);
    const value = parseSourceText(read, source.id);
    checkRemoteRefs(value, read.location);
    if (ignoreSiblings) dropRefSiblings(value);
    return JSON.stringify(value);
  }
}

/** A text through the resolver; bytes that are not UTF-8 are a SourceFormatError, as a syntax error is. */
async function readSource(resolver: SourceResolver, sourceId: string, location: string, request?: Parameters<SourceResolver["read"]>[1]): Promise<SourceText> {
  try {
    return await resolver.read(location, request);
  } catch (error) {
    throw formatError(error, sourceId);
  }
}

/** A source text parsed by its format; a syntax error is SourceFormatError naming the source and `file:line:column`. */
function parseSourceText(read: SourceText, sourceId: string): unknown {
  try {
    const file = read.file ?? read.location;
    return parseSourceDocument(read.text, { file, format: detectFormat(file, read.contentType, read.text) }).value;
  } catch (error) {
    throw formatError(error, sourceId);
  }
}

function formatError(error: unknown, sourceId: string): unknown {
  return error instanceof DocumentParseError ? new SourceFormatError(`source "${sourceId}": ${error.message}`, { cause: error }) : error;
}

/** Calls `visit` with every object of `value` that has a string `$ref`, then goes on into it. */
function forEachRef(value: unknown, visit: (reference: Json & { $ref: string }) => void, seen = new Set<object>()): void {
  if (typeof value !== "object" || value === null || seen.has(value)) return;
  seen.add(value);
  if (!Array.isArray(value) && typeof (value as Json).$ref === "string") visit(value as Json & { $ref: string });
  for (const child of Object.values(value)) forEachRef(child, visit, seen);
}

/**
 * A document from a URL may only refer to other URLs: a `file:` (or any other non-http) `$ref` in
 * it would let whoever serves an OpenAPI document read the caller's local files (§4.2).
 */
function checkRemoteRefs(value: unknown, location: string): void {
  if (!isHttpUrl(location)) return;
  forEachRef(value, ({ $ref }) => {
    const target = URL.canParse($ref, location) ? new URL($ref, location).href : $ref;
    if (!isHttpUrl(target)) throw new SourceResolutionError(`${location}: $ref ${JSON.stringify($ref)} is not an http(s) URL; a document from a URL cannot read local files`);
  });
}

/** Deletes, in place, every key next to a `$ref` (OpenAPI 3.0 Reference Objects take no other keys). */
function dropRefSiblings(value: unknown): void {
  forEachRef(value, (reference) => {
    for (const key of Object.keys(reference)) if (key !== "$ref") delete reference[key];
  });
}

function absolute(path: string): string {
  if (path.startsWith("/")) return path;
  const cwd = typeof process === "object" && typeof process.cwd === "function" ? process.cwd() : "";
  return `${cwd}/${path}`;
}

/** The format by extension, then content type, then sniffing (§4.2). */
function detectFormat(location: string, contentType: string | undefined, text: string): "json" | "yaml" {
  const path = location.split(/[?#]/)[0]!;
  if (/\.ya?ml$/i.test(path)) return "yaml";
  if (/\.json$/i.test(path)) return "json";
  if (contentType && /json/i.test(contentType)) return "json";
  if (contentType && /yaml/i.test(contentType)) return "yaml";
  return /^\s*[{[]/.test(text) ? "json" : "yaml";
}

function checkOpenApi(value: unknown, sourceId: string, location: string): string {
  const where = `source "${sourceId}" (${location})`;
  if (!isObject(value)) throw new SourceFormatError(`${where} is not an OpenAPI document (not an object)`);
  if (typeof value.swagger === "string") throw new SourceFormatError(`${where} is Swagger ${value.swagger}; only OpenAPI 3.0.x and 3.1.x are supported (convert it first)`);
  if (typeof value.discoveryVersion === "string") throw new SourceFormatError(`${where} is a Google API discovery document, not OpenAPI 3.0/3.1`);
  if (typeof value.openapi !== "string" || !/^3\.[01]\.\d+/.test(value.openapi)) {
    throw new SourceFormatError(`${where}: "openapi" must be a 3.0.x or 3.1.x version, found ${JSON.stringify(value.openapi ?? null)}`);
  }
  if (!isObject(value.paths) && value.paths !== undefined) throw new SourceFormatError(`${where}: "paths" must be an object`);
  return value.openapi;
}

function indexOperations(document: Json, sourceId: string): Map<string, OperationEntry> {
  const operations = new Map<string, OperationEntry>();
  const paths = isObject(document.paths) ? document.paths : {};
  for (const [path, pathItem] of Object.entries(paths)) {
    if (!isObject(pathItem)) continue;
    for (const method of HTTP_METHODS) {
      const operation = pathItem[method];
      if (!isObject(operation) || typeof operation.operationId !== "string") continue;
      const previous = operations.get(operation.operationId);
      if (previous) {
        throw new SourceFormatError(
          `source "${sourceId}": operationId "${operation.operationId}" is used twice (${previous.method.toUpperCase()} ${previous.path} and ${method.toUpperCase()} ${path})`,
        );
      }
      operations.set(operation.operationId, { operationId: operation.operationId, method, path, operation, pathItem, parameters: effectiveParameters(pathItem, operation) });
    }
  }
  return operations;
}

