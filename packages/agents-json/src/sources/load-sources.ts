import type { LoadedAgentsJson } from "../loader/types.js";
import { SourceResolutionError } from "../errors.js";
import { loadOpenApiSource, type OpenApiSource } from "./openapi.js";
import { createSourceResolver, type SourceResolver, type SourceResolverOptions } from "./resolver.js";

/** Each source id mapped to its loaded OpenAPI document, or the error that kept it from loading. */
export type LoadedSources = Map<string, OpenApiSource | Error>;

export interface LoadSourcesOptions {
  /** A resolver, or options for the default one (local files, a map, opt-in URL fetching). */
  resolver?: SourceResolver | SourceResolverOptions;
  /** Only these source ids (default: all). */
  only?: readonly string[];
}

export function toResolver(resolver: SourceResolver | SourceResolverOptions | undefined): SourceResolver {
  return resolver && "read" in resolver && typeof resolver.read === "function" ? (resolver as SourceResolver) : createSourceResolver(resolver as SourceResolverOptions | undefined);
}

/**
 * Loads the OpenAPI sources of a document (§4.2). A source that cannot be loaded does not fail the
 * call: its entry is the error, which the *src* lint rules and the executor report.
 */
export async function loadSources(loaded: LoadedAgentsJson, options: LoadSourcesOptions = {}): Promise<LoadedSources> {
  const resolver = toResolver(options.resolver);
  const out: LoadedSources = new Map();
  for (const source of loaded.document.sources) {
    if (options.only && !options.only.includes(source.id)) continue;
    if (out.has(source.id)) continue;
    try {
      out.set(
        source.id,
        await loadOpenApiSource(source, {
          resolver,
          ...(loaded.location === undefined ? {} : { documentLocation: loaded.location }),
          overrides: loaded.document.overrides,
        }),
      );
    } catch (error) {
      out.set(source.id, sourceError(source.id, error));
    }
  }
  return out;
}

/** What loading a source threw, as an Error: a custom resolver may throw anything, and callers test `instanceof Error`. */
export function sourceError(sourceId: string, error: unknown): Error {
  return error instanceof Error ? error : new SourceResolutionError(`source "${sourceId}" cannot be read: ${String(error)}`);
}
