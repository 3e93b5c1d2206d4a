import type { Mode } from "../diagnostics.js";
import { FlowRunError, MissingParameterError, NoServerError, UndeclaredParameterError, UnsupportedMediaTypeError } from "../errors.js";
import { isPlainObject } from "../fieldpath.js";
import type { OpenApiSource, OperationEntry } from "../sources/openapi.js";
import { BodyProblem, serializeBody } from "./body.js";
import type { OutgoingRequest } from "./options.js";
import { prepareOperation } from "./prepared.js";
import { cookiePair, headerNameProblem, headerValue, headerValueProblem, pathValue, queryPairs, ValueProblem } from "./serialize.js";

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
  serverOverride: string | undefined;
  /** Describes the links that should have fed a parameter, for error messages. */
  feeders(name: string): string;
  notes: string[];
}

/** Builds the HTTP request of one action from its operation and record (§4.5); security is added later. */
export function buildRequest(context: BuildContext): { request: OutgoingRequest; cookies: string[] } {
  const { entry, record, actionId } = context;
  const prepared = prepareOperation(entry);
  const details = { actionId, operationId: entry.operationId };
  const body = prepared.body;
  let bodyValue: unknown = record.requestBody;
  const byName = prepared.byName;
  const pathValues = new Map<string, string>();
  const query: string[] = [];
  const headers = new Headers();
  const cookies: string[] = [];

  for (const name of Object.keys(record.parameters)) {
    const value = record.parameters[name];
    const parameter = byName.get(name);
    if (!parameter) {
      if (context.wholeRootNames.has(name)) {
        context.notes.push(`parameter "${name}" (from a whole-root parameters copy) is not declared by "${entry.operationId}" and was dropped`);
        continue;
      }
      const bodyNames = prepared.bodyNames();
      if (context.mode === "strict") {
        throw new UndeclaredParameterError(`action "${actionId}": operation "${entry.operationId}" declares no parameter "${name}"`, details);
      }
      if (bodyNames?.has(name)) {
        if (!isPlainObject(bodyValue)) bodyValue = {};
        Object.defineProperty(bodyValue, name, { value, enumerable: true, writable: true, configurable: true });
        context.notes.push(`parameter "${name}" is not declared by "${entry.operationId}"; moved into the request body (compat)`);
      } else if (value !== null && value !== undefined) {
        for (const pair of queryPairs({ name, in: "query" }, value)) query.push(pair);
        context.notes.push(`parameter "${name}" is not declared by "${entry.operationId}"; sent as a query parameter (compat)`);
      }
      continue;
    }
    if (value === null || value === undefined) continue;
    try {
      switch (parameter.in) {
        case "path":
          pathValues.set(name, pathValue(parameter, value));
          break;
        case "query":
          for (const pair of queryPairs(parameter, value)) query.push(pair);
          break;
        case "header": {
          if (prepared.badHeaders.has(name)) throw new FlowRunError(headerNameProblem(actionId, entry.operationId, name), details);
          const text = headerValue(parameter, value);
          const problem = headerValueProblem(text);
          if (problem) throw new FlowRunError(`action "${actionId}" (operation "${entry.operationId}"): header parameter "${name}" cannot be sent: its value ${problem}`, details);
          headers.set(name, text);
          break;
        }
        case "cookie":
          cookies.push(cookiePair(parameter, value));
          break;
      }
    } catch (error) {
      if (error instanceof ValueProblem) throw new FlowRunError(`action "${actionId}" (operation "${entry.operationId}"): ${parameter.in} parameter "${name}" cannot be sent: its value ${error.message}`, details);
      throw error;
    }
  }
  for (const parameter of prepared.required) {
    const value = record.parameters[parameter.name];
    if (value === null || value === undefined || !Object.hasOwn(record.parameters, parameter.name)) {
      throw new MissingParameterError(
        `action "${actionId}": required ${parameter.in} parameter "${parameter.name}" of "${entry.operationId}" has no value (${context.feeders(parameter.name)})`,
        details,
      );
    }
  }

  let path = prepared.literals[0]!;
  for (let i = 0; i < prepared.names.length; i++) {
    const name = prepared.names[i]!;
    const value = pathValues.get(name);
    if (value === undefined) throw new MissingParameterError(`action "${actionId}": path parameter "${name}" of ${entry.path} has no value (${context.feeders(name)})`, details);
    // URL parsing resolves a "." or ".." segment (even as %2e), so the request would go to another path.
    if ((value === "." || value === "..") && (path === "" || path.endsWith("/")) && /^(\/|$)/.test(prepared.literals[i + 1]!)) {
      throw new FlowRunError(`action "${actionId}": path parameter "${name}" of ${entry.path} is "${value}", a dot segment that would change the request path`, details);
    }
    path += value + prepared.literals[i + 1]!;
  }
  const url = new URL(joinUrl(serverFor(context), path) + (query.length ? `?${query.join("&")}` : ""));

  const request: OutgoingRequest = { actionId, operationId: entry.operationId, method: prepared.method, url, headers };
  const hasBody = bodyValue !== undefined && bodyValue !== null && !(isPlainObject(bodyValue) && isEmpty(bodyValue));
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
        if (error instanceof ValueProblem) throw new FlowRunError(`action "${actionId}" (operation "${entry.operationId}"): the request body cannot be sent: a value ${error.message}`, details);
        throw error;
      }
      // FormData sets its own multipart boundary.
      if (!(request.body instanceof FormData)) headers.set("content-type", mediaType);
    }
  }
  headers.set("accept", prepared.accept);
  return { request, cookies };
}

function isEmpty(value: Json): boolean {
  for (const key in value) if (Object.hasOwn(value, key)) return false;
  return true;
}

// The server an operation resolves to without an override depends only on the loaded source.
const resolvedServers = new WeakMap<OperationEntry, string>();

function serverFor(context: BuildContext): string {
  if (context.serverOverride) return context.serverOverride;
  let url = resolvedServers.get(context.entry);
  if (url === undefined) resolvedServers.set(context.entry, (url = resolveServer(context)));
  return url;
}

function resolveServer(context: BuildContext): string {
  const { entry, source } = context;
  const details = { actionId: context.actionId, operationId: entry.operationId };
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
  let end = server.length;
  while (end > 0 && server.charCodeAt(end - 1) === 47 /* "/" */) end--;
  return (end === server.length ? server : server.slice(0, end)) + (path.startsWith("/") ? path : `/${path}`);
}
