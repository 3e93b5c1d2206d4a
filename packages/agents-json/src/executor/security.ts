import { isThenable } from "@flowspec/runtime/validation";
import { MissingCredentialsError, UnsupportedSecuritySchemeError } from "../errors.js";
import type { OpenApiSource, OperationEntry } from "../sources/openapi.js";
import type { Credential, OutgoingRequest, RunOptions, UpstreamAuth } from "./options.js";
import type { Redactor } from "./redact.js";
import { headerValueProblem, percentEncode, ValueProblem } from "./serialize.js";

type Json = Record<string, unknown>;
type SchemeDefinition = { type?: string; scheme?: string; in?: string; name?: string } & Json;

function schemesOf(source: OpenApiSource): Record<string, SchemeDefinition> {
  const components = source.document.components as { securitySchemes?: Record<string, SchemeDefinition> } | undefined;
  return components?.securitySchemes ?? {};
}

/** Upstream's single auth config → a credential for the first scheme it fits (§6). */
export function upstreamCredentials(source: OpenApiSource, auth: UpstreamAuth): Record<string, Credential | "sign"> {
  if (auth.type === "none") return {};
  for (const [name, scheme] of Object.entries(schemesOf(source))) {
    const bearerLike = (scheme.type === "http" && scheme.scheme?.toLowerCase() === "bearer") || scheme.type === "oauth2" || scheme.type === "openIdConnect";
    if ((auth.type === "bearer" || auth.type === "oauth2") && bearerLike) {
      return { [name]: auth.type === "bearer" ? { token: auth.token } : { accessToken: auth.accessToken } };
    }
    if (auth.type === "apiKey" && scheme.type === "apiKey") return { [name]: { value: auth.value } };
    if (auth.type === "basic" && scheme.type === "http" && scheme.scheme?.toLowerCase() === "basic") return { [name]: { username: auth.username, password: auth.password } };
    if (auth.type === "oauth1" && scheme.type === "http" && scheme.scheme?.toLowerCase() !== "bearer" && scheme.scheme?.toLowerCase() !== "basic") return { [name]: "sign" };
  }
  return {};
}

/**
 * Applies the operation's security (§6): the first requirement whose schemes all have credentials
 * wins; `{}` makes auth optional; none satisfiable is `MissingCredentialsError` before sending.
 * Returns a promise only when a credential function's promise or a sign hook has to be waited
 * for: most calls apply a static credential, and are done without one. A problem found before
 * anything is awaited is thrown, later ones reject.
 */
export function applySecurity(
  request: OutgoingRequest,
  cookies: string[],
  source: OpenApiSource,
  entry: OperationEntry,
  options: RunOptions,
  redactor: Redactor,
  /** The credentials given per source, worked out once per run (filled here). */
  givenBySource: Map<string, Record<string, unknown>> = new Map(),
): Promise<void> | undefined {
  const requirements = (entry.operation.security ?? source.document.security ?? []) as Record<string, unknown>[];
  if (!Array.isArray(requirements) || requirements.length === 0) return undefined;
  const schemes = schemesOf(source);
  const given = givenBySource.get(source.sourceId) ?? {
    ...(options.auth?.[source.sourceId] ? upstreamCredentials(source, options.auth[source.sourceId]!) : {}),
    ...(options.credentials?.[source.sourceId] ?? {}),
  };
  givenBySource.set(source.sourceId, given);
  // The first satisfiable requirement with schemes wins; `{}` (auth optional) only when none is, so
  // `[{}, {bearer: []}]` still sends the credentials the caller gave.
  let chosen: Record<string, unknown> | undefined;
  for (const requirement of requirements) {
    const names = Object.keys(requirement);
    if (!names.every((name) => given[name] !== undefined)) continue;
    chosen = requirement;
    if (names.length > 0) break;
  }
  if (!chosen) {
    const wanted = requirements.map((r) => Object.keys(r).join(" + ")).join(" | ");
    throw new MissingCredentialsError(
      `action "${request.actionId}" (operation "${entry.operationId}") needs credentials for source "${source.sourceId}": one of ${wanted}; pass credentials: {${source.sourceId}: {<scheme>: …}}`,
      { actionId: request.actionId, operationId: entry.operationId },
    );
  }
  const names = Object.keys(chosen);
  const applyFrom = (index: number): Promise<void> | undefined => {
    for (let i = index; i < names.length; i++) {
      const name = names[i]!;
      const definition = schemes[name];
      if (!definition) {
        throw new UnsupportedSecuritySchemeError(`source "${source.sourceId}" names security scheme "${name}" but does not define it`, { actionId: request.actionId, operationId: entry.operationId });
      }
      const apply = (credential: unknown) => applyScheme(request, cookies, name, definition, credential as Credential | "sign", source, options, redactor);
      const provided = given[name];
      // A credential function may answer with a promise; it and a sign hook are waited for, then
      // the remaining schemes are applied.
      const credential = typeof provided === "function" ? (provided as () => unknown)() : provided;
      const pending = isThenable(credential) ? Promise.resolve(credential).then(apply) : apply(credential);
      if (pending) return pending.then(() => applyFrom(i + 1));
    }
    return undefined;
  };
  return applyFrom(0);
}

/** Applies one scheme; returns a promise only for a sign hook. */
function applyScheme(
  request: OutgoingRequest,
  cookies: string[],
  name: string,
  definition: SchemeDefinition,
  credential: Credential | "sign",
  source: OpenApiSource,
  options: RunOptions,
  redactor: Redactor,
): Promise<void> | undefined {
  const fail = (why: string) =>
    new UnsupportedSecuritySchemeError(`security scheme "${name}" of source "${source.sourceId}": ${why}`, { actionId: request.actionId, operationId: request.operationId });
  const sign = async () => {
    if (!options.hooks?.sign) throw fail(`${definition.type}${definition.scheme ? `/${definition.scheme}` : ""} needs a sign(request) hook`);
    await options.hooks.sign(request, { sourceId: source.sourceId, name, definition });
  };
  if (credential === "sign") return sign();
  // Checked before reading fields: `"token" in "<a bare token>"` throws a TypeError whose message holds the secret.
  if (typeof credential !== "object" || credential === null) throw fail(`the credential must be an object such as {token: "…"} or {value: "…"}, got ${credential === null ? "null" : typeof credential}`);
  const secret = (value: string) => {
    redactor.secretValues.add(value);
    return value;
  };
  const field = (key: string, inHeader = false): string => {
    const value = (credential as Record<string, unknown>)[key];
    if (typeof value !== "string") throw fail(`the credential needs a string "${key}"`);
    // Checked here, as the TypeError Headers would throw shows the value.
    const problem = inHeader ? headerValueProblem(value) : undefined;
    if (problem) throw fail(`the credential's "${key}" cannot be sent in a header: it ${problem}`);
    return secret(value);
  };
  switch (definition.type) {
    case "http": {
      const scheme = definition.scheme?.toLowerCase();
      if (scheme === "bearer") request.headers.set("authorization", `Bearer ${field("token" in credential ? "token" : "accessToken", true)}`);
      else if (scheme === "basic") {
        const pair = `${field("username")}:${field("password")}`;
        request.headers.set("authorization", `Basic ${secret(base64(pair))}`);
      } else return sign();
      return undefined;
    }
    case "apiKey": {
      const keyName = definition.name ?? name;
      const value = field("value", definition.in === "header");
      if (definition.in === "header") {
        request.headers.set(keyName, value);
        redactor.secretHeaders.add(keyName.toLowerCase());
      } else if (definition.in === "query") {
        // Appended as text: a searchParams write would re-encode the whole query (allowReserved, %20).
        const search = request.url.search;
        request.url.search = `${search === "" ? "" : `${search}&`}${encodeURIComponent(keyName)}=${encodedCredential(value, "query", fail)}`;
        redactor.secretQuery.add(keyName);
      } else if (definition.in === "cookie") cookies.push(`${keyName}=${encodedCredential(value, "cookie", fail)}`);
      else throw fail(`apiKey "in" must be header, query or cookie, not ${JSON.stringify(definition.in)}`);
      return undefined;
    }
    case "oauth2":
    case "openIdConnect":
      request.headers.set("authorization", `Bearer ${field("accessToken" in credential ? "accessToken" : "token", true)}`);
      return undefined;
    case "mutualTLS":
      return undefined; // The caller's fetch (or agent) carries the client certificate.
    default:
      throw fail(`type ${JSON.stringify(definition.type)} is not supported`);
  }
}

/** A credential percent-encoded for a query or cookie; one that cannot be (a lone surrogate) fails without showing it. */
function encodedCredential(value: string, where: string, fail: (why: string) => Error): string {
  try {
    return percentEncode(value);
  } catch (error) {
    throw error instanceof ValueProblem ? fail(`the credential's "value" cannot be sent in a ${where}: it ${error.message}`) : error;
  }
}

function base64(text: string): string {
  let binary = "";
  for (const byte of new TextEncoder().encode(text)) binary += String.fromCharCode(byte);
  return btoa(binary);
}
