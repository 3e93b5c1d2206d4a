import type { Diagnostic } from "../diagnostics.js";
import { OverrideError } from "../errors.js";
import { lintDocument, reporter } from "../lint/document-rules.js";
import { lintSources } from "../lint/source-rules.js";
import type { LoadedAgentsJson } from "../loader/types.js";
import type { LoadedSources } from "../sources/load-sources.js";
import type { Compat } from "../validate.js";

const PLAN_RULES = new Set(["link-action-defined", "link-order", "link-origin-root", "link-target-root", "link-responses-success", "action-id-shadows-flow", "operation-resolved"]);

/**
 * The plan check of §4.3 for one flow: link, root and shadowing rules on the flow, and
 * operation-resolved on its actions and on the overrides of the sources it uses. Returns the errors.
 */
export function planCheck(loaded: LoadedAgentsJson, flowIndex: number, sources: LoadedSources): Diagnostic[] {
  const raw = loaded.raw;
  const flow = raw.flows[flowIndex]!;
  const used = new Set(flow.actions.map((a) => a.sourceId));
  const single: Compat.AgentsJson = {
    ...raw,
    sources: raw.sources.filter((s) => used.has(s.id)),
    overrides: (raw.overrides ?? []).filter((o) => used.has(o.sourceId)),
    flows: [flow],
  };
  const findings: Diagnostic[] = [];
  const report = reporter(findings, "strict");
  lintDocument(single, report);
  const usedSources: LoadedSources = new Map([...sources].filter(([id]) => used.has(id)));
  lintSources(single, usedSources, report);
  for (const [id, entry] of usedSources) {
    if (entry instanceof OverrideError) findings.push({ code: "operation-resolved", severity: "error", path: "/overrides", message: `source "${id}": ${entry.message}` });
  }
  return findings
    .filter((d) => PLAN_RULES.has(d.code) && d.severity === "error")
    .map((d) => ({ ...d, path: d.path.replace(/^\/flows\/0(?=\/|$)/, `/flows/${flowIndex}`) }));
}
