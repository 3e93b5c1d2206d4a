import type { Diagnostic } from "../diagnostics.js";
import { lintDocument, reporter } from "../lint/document-rules.js";
import { lintSources } from "../lint/source-rules.js";
import type { LoadedAgentsJson } from "../loader/types.js";
import type { LoadedSources } from "../sources/load-sources.js";
import type { Compat } from "../validate.js";

const PLAN_RULES = new Set(["link-action-defined", "link-order", "link-origin-root", "link-target-root", "link-responses-success", "action-id-shadows-flow", "action-source-defined", "operation-resolved"]);

/**
 * The plan check of §4.3 for one flow: link, root and shadowing rules on the flow, and
 * operation-resolved on its actions and on the overrides of the sources it uses. Returns the errors.
 */
export function planCheck(loaded: LoadedAgentsJson, flowIndex: number, sources: LoadedSources): Diagnostic[] {
  const raw = loaded.raw;
  const flow = raw.flows[flowIndex]!;
  const used = new Set(flow.actions.map((a) => a.sourceId));
  const single: Compat.AgentsJson = { ...raw, flows: [flow] };
  const findings: Diagnostic[] = [];
  const report = reporter(findings, "strict");
  lintDocument(single, report);
  lintSources(single, new Map([...sources].filter(([id]) => used.has(id))), report);
  flow.actions.forEach((action, a) => {
    if (raw.sources.some((s) => s.id === action.sourceId) && !sources.has(action.sourceId)) {
      report("operation-resolved", ["flows", 0, "actions", a, "sourceId"], `source "${action.sourceId}" was not loaded (missing from the sources passed in)`);
    }
  });
  const overrides = raw.overrides ?? [];
  const concerns = (d: Diagnostic) => {
    const match = /^\/overrides\/(\d+)/.exec(d.path);
    return !match || used.has(overrides[Number(match[1])]?.sourceId ?? "");
  };
  return findings
    .filter((d) => PLAN_RULES.has(d.code) && d.severity === "error" && concerns(d))
    .map((d) => ({ ...d, path: d.path.replace(/^\/flows\/0(?=\/|$)/, `/flows/${flowIndex}`) }));
}
