export * from "./validate.js";
export * from "./diagnostics.js";
export * from "./errors.js";
export { load, loadFile, inspectAgentsJson, type LoadOptions, type Inspection } from "./loader/load.js";
export type * from "./loader/types.js";
export { splitFieldPath, readPath, writePath } from "./fieldpath.js";
export { createSourceResolver, resolveLocation, type SourceResolver, type SourceResolverOptions, type SourceText } from "./sources/resolver.js";
export { loadOpenApiSource, HTTP_METHODS, type OpenApiSource, type OperationEntry, type OpenApiParameter } from "./sources/openapi.js";
export { loadSources, type LoadedSources, type LoadSourcesOptions } from "./sources/load-sources.js";
