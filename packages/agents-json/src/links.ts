/**
 * Where a link endpoint points (§3.2) and whether its root is allowed (§3.3), shared by the loader
 * (aliases), the linter and the executor's plan check.
 */

export type EndpointRole = "origin" | "target";

export interface RootVerdict {
  /** The segments after alias rewriting (equal to the input when nothing was rewritten). */
  segments: string[];
  /** Set when the root is not allowed (`link-origin-root`, `link-target-root`, `link-responses-success`). */
  code?: "link-origin-root" | "link-target-root" | "link-responses-success";
  /** Set when a compat alias rewrote the root (`response.`, `responseBody.`, `query.`). */
  alias?: { from: string; to: string };
  message?: string;
}

/** The node an endpoint addresses: null, absent and the flow id all mean the flow (§3.2 rule (a)). */
export function endpointNode(actionId: unknown, flowId: string): { kind: "flow" } | { kind: "action"; id: string } {
  if (actionId === null || actionId === undefined || actionId === flowId) return { kind: "flow" };
  return { kind: "action", id: String(actionId) };
}

/** Checks the first segment(s) of an endpoint path against §3.3 and applies the compat aliases. */
export function checkRoot(role: EndpointRole, node: "flow" | "action", segments: readonly string[]): RootVerdict {
  const [first, second] = segments;
  const rest = segments.slice(1);
  const responsesAllowed = (role === "origin") === (node === "action");
  if (responsesAllowed && first === "responses" && second !== undefined && second !== "success") {
    return {
      segments: [...segments],
      code: "link-responses-success",
      message: `"responses.${second}": the only key under responses is "success" (use responses.success.${second})`,
    };
  }
  if (role === "origin") {
    if (node === "flow") {
      if (first === "parameters" || first === "requestBody") return { segments: [...segments] };
      return {
        segments: [...segments],
        code: "link-origin-root",
        message: `a flow origin must start with parameters or requestBody, not "${first}" (the flow has no responses while actions run; name the action instead)`,
      };
    }
    if (first === "parameters" || first === "requestBody") return { segments: [...segments] };
    if (first === "responses" && second === "success") return { segments: [...segments] };
    if (first === "response" || first === "responseBody") {
      return {
        segments: ["responses", "success", ...rest],
        code: "link-origin-root",
        alias: { from: first, to: "responses.success" },
        message: `origin root "${first}" is an alias of responses.success`,
      };
    }
    return {
      segments: [...segments],
      code: "link-origin-root",
      message: `an action origin must start with responses.success, parameters or requestBody, not "${first}"`,
    };
  }
  if (node === "flow") {
    if (first === "responses") return { segments: [...segments] };
    return { segments: [...segments], code: "link-target-root", message: `a flow target must start with responses, not "${first}"` };
  }
  if (first === "parameters" || first === "requestBody") return { segments: [...segments] };
  if (first === "query") {
    return {
      segments: ["parameters", ...rest],
      code: "link-target-root",
      alias: { from: "query", to: "parameters" },
      message: `target root "query" is an alias of parameters`,
    };
  }
  return { segments: [...segments], code: "link-target-root", message: `an action target must start with parameters or requestBody, not "${first}"` };
}

/** `parameters.<N>…` or `…content.<media type>.schema…`: an OpenAPI schema path, not a value path. */
export function isSchemaStylePath(segments: readonly string[]): boolean {
  if (segments[0] === "parameters" && segments[1] !== undefined && /^\d+$/.test(segments[1])) return true;
  for (let i = 0; i + 2 < segments.length; i++) {
    if (segments[i] === "content" && segments[i + 1]!.includes("/") && segments[i + 2] === "schema") return true;
  }
  return false;
}
