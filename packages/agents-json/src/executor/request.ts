import type { Mode } from "../diagnostics.js";
import { MissingParameterError, NoServerError, UndeclaredParameterError, UnsupportedMediaTypeError } from "../errors.js";
import { isPlainObject } from "../fieldpath.js";
import { requestBodyOf, schemaProperties } from "../sources/media.js";
import type { OpenApiSource, OperationEntry } from "../sources/openapi.js";
import { BodyProblem, serializeBody } from "./body.js";
import type { OutgoingRequest } from "./options.js";
import { cookiePair, headerValue, pathValue, queryPairs } from "./serialize.js";

type Json = Record<string, unknown>;

/** The action record of §3.1. */
export interface ActionRecord {
  parameters: Record<string, unknown>;
  requestBody: unknown;
  responses: { success: unknown };
}

export interface BuildContext {
  actionId: string;
  entry: OperationEntry;
  source: OpenApiSource;
  record: ActionRecord;
  mode: Mode;
  /** Parameter names that arrived through a whole-root `parameters` copy. */
  wholeRootNames: ReadonlySet<string>;
  serverOverride?: string;
  /** Describes the links that should have fed a parameter, for error messages. */
  feeders(name: string): string;
  notes: string[];
}

/** Builds the HTTP request of one action from its operation and record (§4.5); security is added later. */
export function buildRequest(context: BuildContext): { request: OutgoingRequest; cookies: string[] } {
  const { entry, record, actionId } = context;
  const details = { actionId, operationId: entry.operationId };
  const body = requestBodyOf(entry.operation);
  let bodyValue: unknown = record.requestBody;
  const byName = new Map(entry.parameters.map((p) => [p.name, p]));
  const pathValues = new Map<string, string>();
  const query: string[] = [];
  const headers = new Headers();
  const cookies: string[] = [];

  for (const [name, value] of Object.entries(record.parameters)) {
    const parameter = byName.get(name);
    if (!parameter) {
      if (context.wholeRootNames.has(name)) {
        context.notes.push(`parameter "${name}" (from a whole-root parameters copy) is not declared by "${entry.operationId}" and was dropped`);
        continue;
      }
      const bodyNames = body ? schemaProperties(body.schema) : undefined;
      if (context.mode === "strict") {
        throw new UndeclaredParameterError(`action "${actionId}": operation "${entry.operationId}" declares no parameter "${name}"`, details);
      }
      if (bodyNames?.has(name)) {
        if (!isPlainObject(bodyValue)) bodyValue = {};
        Object.defineProperty(bodyValue, name, { value, enumerable: true, writable: true, configurable: true });
        context.notes.push(`parameter "${name}" is not declared by "${entry.operationId}"; moved into the request body (compat)`);
      } else if (value !== null && value !== undefined) {
        query.push(...queryPairs({ name, in: "query" }, value));
        context.notes.push(`parameter "${name}" is not declared by "${entry.operationId}"; sent as a query parameter (compat)`);
      }
      continue;
    }
    if (value === null || value === undefined) continue;
    switch (parameter.in) {
      case "path":
        pathValues.set(name, pathValue(parameter, value));
        break;
      case "query":
        query.push(...queryPairs(parameter, value));
        break;
      case "header":
        headers.set(name, headerValue(parameter, value));
        break;
      case "cookie":
        cookies.push(cookiePair(name, value));
        break;
    }
  }
  for (const parameter of entry.parameters) {
    const required = parameter.required === true || parameter.in === "path";
    const value = record.parameters[parameter.name];
    if (required && (value === null || value === undefined || !Object.hasOwn(record.parameters, parameter.name))) {
      throw new MissingParameterError(
        `action "${actionId}": required ${parameter.in} parameter "${parameter.name}" of "${entry.operationId}" has no value (${context.feeders(parameter.name)})`,
        details,
      );
    }
  }

  const path = entry.path.replace(/\{([^}]+)\}/g, (match, name: string) => {
    const value = pathValues.get(name);
    if (value === undefined) throw new MissingParameterError(`action "${actionId}": path parameter "${name}" of ${entry.path} has no value (${context.feeders(name)})`, details);
    return value;
  });
  const url = new URL(joinUrl(serverFor(context), path) + (query.length ? `?${query.join("&")}` : ""));

  const request: OutgoingRequest = { actionId, operationId: entry.operationId, method: entry.method.toUpperCase(), url, headers };
  const hasBody = bodyValue !== undefined && bodyValue !== null && !(isPlainObject(bodyValue) && Object.keys(bodyValue).length === 0);
  if (hasBody || body?.required) {
    if (!body) {
      if (context.mode === "strict" || request.method === "GET" || request.method === "HEAD") {
        throw new UnsupportedMediaTypeError(`action "${actionId}": operation "${entry.operationId}" (${request.method}) declares no request body, but the action has one`, details);
      }
      context.notes.push(`operation "${entry.operationId}" declares no request body; sent the action's body as JSON (compat)`);
      request.body = JSON.stringify(bodyValue);
      headers.set("content-type", "application/json");
    } else {
      const mediaType = body.mediaType ?? "application/json";
      try {
        request.body = serializeBody(hasBody ? bodyValue : {}, mediaType, body.schema, body.encoding);
      } catch (error) {
        if (error instanceof BodyProblem) throw new UnsupportedMediaTypeError(`action "${actionId}" (operation "${entry.operationId}"): ${error.message}`, details);
        throw error;
      }
      // FormData sets its own multipart boundary.
      if (!(request.body instanceof FormData)) headers.set("content-type", mediaType);
    }
  }
  headers.set("accept", acceptOf(entry.operation));
  return { request, cookies };
}

function serverFor(context: BuildContext): string {
  const { entry, source } = context;
  const details = { actionId: context.actionId, operationId: entry.operationId };
  if (context.serverOverride) return context.serverOverride;
  const server = [entry.operation.servers, entry.pathItem.servers, source.document.servers]
    .map((list) => (Array.isArray(list) ? (list[0] as Json | undefined) : undefined))
    .find((candidate) => candidate && typeof candidate.url === "string");
  if (!server) {
    throw new NoServerError(`source "${source.sourceId}" declares no server for "${entry.operationId}"; pass servers: {${source.sourceId}: "https://…"}`, details);
  }
  let url = (server.url as string).replace(/\{([^}]+)\}/g, (match, name: string) => {
    const variable = (server.variables as Record<string, { default?: unknown }> | undefined)?.[name];
    return variable?.default === undefined ? match : String(variable.default);
  });
  if (!/^https?:\/\//i.test(url)) {
    if (!/^https?:\/\//i.test(source.location)) {
      throw new NoServerError(`source "${source.sourceId}" has the relative server "${url}" and was not read from a URL; pass servers: {${source.sourceId}: "https://…"}`, details);
    }
    url = new URL(url, source.location).href;
  }
  return url;
}

/** Joins a server URL and a path without doubling the slash (hubspot's server ends in /). */
export function joinUrl(server: string, path: string): string {
  return server.replace(/\/+$/, "") + (path.startsWith("/") ? path : `/${path}`);
}

const acceptCache = new WeakMap<Json, string>();

function acceptOf(operation: Json): string {
  let accept = acceptCache.get(operation);
  if (accept === undefined) acceptCache.set(operation, (accept = computeAccept(operation)));
  return accept;
}

function computeAccept(operation: Json): string {
  const responses = isPlainObject(operation.responses) ? operation.responses : {};
  const types = new Set<string>();
  for (const [status, response] of Object.entries(responses)) {
    if (!/^2(\d\d|XX)$/i.test(status) || !isPlainObject(response) || !isPlainObject(response.content)) continue;
    for (const type of Object.keys(response.content)) types.add(type);
  }
  return types.size ? [...types].join(", ") : "application/json";
}
