import type { Mode, Severity } from "../diagnostics.js";

/** Every lint rule of protocol notes §7 with its default severity per mode. */
export const LINT_RULES = {
  "spec-version": { strict: "warning", compat: "warning", src: false },
  "id-unique": { strict: "error", compat: "error", src: false },
  "id-snake-case": { strict: "warning", compat: "warning", src: false },
  "source-path-portable": { strict: "warning", compat: "warning", src: false },
  "action-source-defined": { strict: "error", compat: "error", src: false },
  "action-id-shadows-flow": { strict: "error", compat: "error", src: false },
  "additional-properties-key": { strict: "error", compat: "warning", src: false },
  "parameter-extra-keys": { strict: "error", compat: "warning", src: false },
  "request-body-null": { strict: "error", compat: "warning", src: false },
  "override-integer-value": { strict: "error", compat: "warning", src: false },
  "link-action-defined": { strict: "error", compat: "error", src: false },
  "link-action-null": { strict: "info", compat: "info", src: false },
  "link-order": { strict: "error", compat: "error", src: false },
  "link-origin-root": { strict: "error", compat: "error", src: false },
  "link-responses-success": { strict: "error", compat: "error", src: false },
  "link-target-root": { strict: "error", compat: "error", src: false },
  "link-schema-style-path": { strict: "warning", compat: "warning", src: false },
  "flow-input-declared": { strict: "warning", compat: "warning", src: false },
  "flow-input-unused": { strict: "warning", compat: "warning", src: false },
  "fields-ref-defined": { strict: "error", compat: "error", src: false },
  "fields-self-contained": { strict: "warning", compat: "warning", src: false },
  "operation-resolved": { strict: "error", compat: "error", src: true },
  "action-param-declared": { strict: "warning", compat: "warning", src: true },
  "action-body-declared": { strict: "error", compat: "error", src: true },
  "action-body-property-declared": { strict: "warning", compat: "warning", src: true },
  "operation-required-inputs": { strict: "warning", compat: "warning", src: true },
} as const satisfies Record<string, { strict: Severity; compat: Severity; src: boolean }>;

export type LintRuleId = keyof typeof LINT_RULES;

export function defaultSeverity(rule: LintRuleId, mode: Mode): Severity {
  return LINT_RULES[rule][mode];
}

export const SNAKE_CASE = /^[a-z][a-z0-9]*(_[a-z0-9]+)*$/;
