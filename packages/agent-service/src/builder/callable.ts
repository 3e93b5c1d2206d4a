/**
 * Callable refs for an agent run's `additionalCallableRefs` (protocol notes §3.1): `bindingMode`
 * is derived from `resourceType` as LocalCallableRef's if/then/else requires (an MCP server is
 * injected, an agent or tool invoked), so it cannot be got wrong.
 */
import type { CallableBindingMode, GrantedCallableRef, LocalCallableRef, TaskResourceType } from "../generated/index.js";

export function bindingModeFor(resourceType: TaskResourceType): CallableBindingMode {
  return resourceType === "mcp_server" ? "inject" : "invoke";
}

type RefOptions = { includeToolNames?: string[]; metadata?: Record<string, unknown> };

export const callable = {
  /** A callable of the same organization, by resource id (optionally pinned to a release channel). */
  local(ref: { alias: string; resourceType: TaskResourceType; resourceId: string; releaseChannelId?: string } & RefOptions): LocalCallableRef {
    return { ...ref, bindingMode: bindingModeFor(ref.resourceType) };
  },
  /** A callable shared by another organization through a grant. */
  granted(ref: { alias: string; resourceType: TaskResourceType; grantId: string } & RefOptions): GrantedCallableRef {
    return { ...ref, bindingMode: bindingModeFor(ref.resourceType) };
  },
};
