// Only the light `/validate` entries: the generated validators and their semantic additions,
// without builders, clients or engines, so that detecting and validating loads nothing more
// (`flowspec validate` starts fast with `@flowspec/documents/kinds`).
import * as agentService from "@flowspec/agent-service/validate";
import * as agentsJson from "@flowspec/agents-json/validate";
import * as apflow from "@flowspec/apflow/validate";
import type { ValidationResult } from "@flowspec/runtime";
import * as stepflow from "@flowspec/stepflow/validate";

/** A document kind: a generated root of one spec, in its variants (`flowspec validate --spec` names them). */
export interface DocumentKind {
  /** `spec:Root`, e.g. `stepflow:Flow`. */
  id: string;
  spec: string;
  root: string;
  variants: string[];
  defaultVariant: string;
  validate(value: unknown, variant: string): ValidationResult<unknown>;
}

type PackageModule = Record<string, unknown> & { schemaRoots: readonly { name: string; variant: string }[] };

const SPECS: Record<string, PackageModule> = {
  stepflow: stepflow as unknown as PackageModule,
  "agents-json": agentsJson as unknown as PackageModule,
  apflow: apflow as unknown as PackageModule,
  "agent-service": agentService as unknown as PackageModule,
};

/** The main document kind of each spec: what a spec name alone stands for (`--spec stepflow`). */
export const MAIN_KIND: Record<string, string> = {
  stepflow: "stepflow:Flow",
  "agents-json": "agents-json:AgentsJson",
  apflow: "apflow:TaskTreeNode",
  "agent-service": "agent-service:CreateRunCommand",
};

const pascal = (variant: string) => variant[0]!.toUpperCase() + variant.slice(1);

/**
 * Every kind, from each package's `schemaRoots`. Validation goes through the package's own
 * `validate<Root><Variant>` export, so a package's semantic additions (Agent Service's input-mode
 * message) apply here too.
 */
export const KINDS: DocumentKind[] = Object.entries(SPECS).flatMap(([spec, module]) => {
  const byRoot = new Map<string, string[]>();
  for (const { name, variant } of module.schemaRoots) byRoot.set(name, [...(byRoot.get(name) ?? []), variant]);
  return [...byRoot].map(([root, variants]) => {
    // Each variant's validator, looked up once: `flowspec validate` calls one per file.
    const validators = new Map(variants.map((variant, i) => [variant, module[`validate${root}${i === 0 ? "" : pascal(variant)}`] as (value: unknown) => ValidationResult<unknown>]));
    return {
      id: `${spec}:${root}`,
      spec,
      root,
      variants,
      defaultVariant: variants[0]!,
      validate(value: unknown, variant: string) {
        const validate = validators.get(variant);
        if (!validate) throw new Error(`${spec}:${root} has no variant "${variant}"; its variants: ${variants.join(", ")}`);
        return validate(value);
      },
    };
  });
});

const KINDS_BY_ID = new Map(KINDS.map((kind) => [kind.id.toLowerCase(), kind]));

/** Finds a kind by `spec:Root` (case-insensitive root) or by spec name alone (its main kind). */
export function findKind(name: string): DocumentKind | undefined {
  return KINDS_BY_ID.get((Object.hasOwn(MAIN_KIND, name) ? MAIN_KIND[name]! : name).toLowerCase());
}

const STEPFLOW_SCHEMA = "https://stepflow.org/schemas/v1/flow.json";
const APFLOW_STATUSES = ["pending", "in_progress", "completed", "failed", "cancelled"];

/**
 * Guesses a document's kind from its shape, or returns undefined. The rules look at the keys that
 * only one spec uses, so a broken document of a spec is still recognised as that spec's.
 */
export function detectKind(value: unknown): DocumentKind | undefined {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return undefined;
  const doc = value as Record<string, unknown>;
  const has = (key: string) => Object.hasOwn(doc, key);
  let id: string | undefined;
  if (has("agentsJson")) id = "agents-json:AgentsJson";
  else if (doc.schema === STEPFLOW_SCHEMA || (has("steps") && Array.isArray(doc.steps))) id = "stepflow:Flow";
  else if (has("outcome") && ["success", "skipped", "failed"].includes(String(doc.outcome))) id = "stepflow:FlowResult";
  else if (has("task") && Object.keys(doc).every((key) => key === "task" || key === "children")) id = "apflow:TaskTreeNode";
  else if (has("resourceType") && has("runId")) id = "agent-service:Run";
  else if (has("resourceType") && has("input")) id = "agent-service:CreateRunCommand";
  else if (has("id") && has("name") && APFLOW_STATUSES.includes(String(doc.status))) id = "apflow:Task";
  return id ? findKind(id) : undefined;
}
