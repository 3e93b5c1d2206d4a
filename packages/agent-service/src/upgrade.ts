/**
 * Reads a create-run body of the older spec generation (`input: {messages, tools}`, no `mode`) as
 * the current one (protocol notes §2.3, provisional): `input.mode` is set to `resourceType` when
 * absent, and `input.tools` is renamed `input.ephemeralTools` (the older ToolDescriptor has exactly
 * the shape of EphemeralToolDescriptor). Returns a new object; anything else is left as it is.
 */
export function upgradeCreateRunBody<T>(body: T): T {
  if (typeof body !== "object" || body === null || Array.isArray(body)) return body;
  const { resourceType, input } = body as { resourceType?: unknown; input?: unknown };
  if (typeof input !== "object" || input === null || Array.isArray(input)) return body;
  const upgraded: Record<string, unknown> = { ...(input as Record<string, unknown>) };
  if (upgraded.mode === undefined && typeof resourceType === "string") upgraded.mode = resourceType;
  if ("tools" in upgraded && !("ephemeralTools" in upgraded)) {
    upgraded.ephemeralTools = upgraded.tools;
    delete upgraded.tools;
  }
  return { ...body, input: upgraded };
}
