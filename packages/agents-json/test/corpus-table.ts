/**
 * The corpus table of protocol notes §8, one row per document: strict verdict, compat deviations
 * (warnings; alias roots under their rule id) and the remaining lint findings. `src` lists the lint
 * findings of the rules that need the OpenAPI source, for the five documents whose source is in the corpus.
 */
export interface CorpusRow {
  file: string;
  strict: boolean;
  deviations: Record<string, number>;
  lint: Record<string, number>;
  openapi?: string;
  src?: Record<string, number>;
}

export const corpusTable: CorpusRow[] = [
  { file: "agents_json__alpaca__agents.json", strict: false, deviations: { "parameter-extra-keys": 7, "link-target-root": 20 }, lint: { "flow-input-unused": 1 } },
  { file: "agents_json__devopness__agents.json", strict: false, deviations: { "parameter-extra-keys": 1 }, lint: { "link-responses-success": 2, "flow-input-unused": 2 } },
  { file: "agents_json__facebook_marketing__agents.json", strict: false, deviations: { "link-origin-root": 2 }, lint: { "spec-version": 1, "source-path-portable": 1 } },
  {
    file: "agents_json__giphy__agents.json",
    strict: false,
    deviations: { "additional-properties-key": 1 },
    lint: { "link-schema-style-path": 6 },
    openapi: "agents_json__giphy__openapi.yaml",
    src: { "action-param-declared": 1, "operation-required-inputs": 7 },
  },
  { file: "agents_json__googlecalendar__agents.json", strict: true, deviations: {}, lint: {} },
  { file: "agents_json__googledocs__agents.json", strict: false, deviations: { "parameter-extra-keys": 1 }, lint: { "link-origin-root": 1 } },
  { file: "agents_json__googlesheets__agents.json", strict: true, deviations: {}, lint: { "flow-input-unused": 6 } },
  {
    file: "agents_json__hubspotcontacts__agents.json",
    strict: false,
    deviations: { "request-body-null": 2 },
    lint: { "flow-input-unused": 4 },
    openapi: "agents_json__hubspotcontacts__openapi.yaml",
    src: {},
  },
  { file: "agents_json__intercom__agents.json", strict: true, deviations: {}, lint: { "flow-input-unused": 1 } },
  {
    file: "agents_json__linkup__agents.json",
    strict: false,
    deviations: { "parameter-extra-keys": 1 },
    lint: {},
    openapi: "agents_json__linkup__openapi.yaml",
    src: { "action-param-declared": 2, "operation-required-inputs": 1 },
  },
  {
    file: "agents_json__resend__agents.json",
    strict: true,
    deviations: {},
    lint: {},
    openapi: "agents_json__resend__openapi.yaml",
    src: { "action-body-declared": 1, "action-body-property-declared": 4 },
  },
  { file: "agents_json__rootly__agents.json", strict: true, deviations: {}, lint: {} },
  { file: "agents_json__slack__agents.json", strict: true, deviations: {}, lint: { "id-snake-case": 4 } },
  {
    file: "agents_json__stripe__agents.json",
    strict: false,
    deviations: { "additional-properties-key": 14, "link-origin-root": 8 },
    lint: { "link-origin-root": 1, "link-responses-success": 6, "action-id-shadows-flow": 1, "flow-input-unused": 17 },
  },
  {
    file: "agents_json__theodds__agents.json",
    strict: false,
    deviations: { "parameter-extra-keys": 3 },
    lint: {},
    openapi: "agents_json__theodds__openapi.yaml",
    src: { "operation-required-inputs": 3 },
  },
  {
    file: "agents_json__twitter__agents.json",
    strict: false,
    deviations: { "additional-properties-key": 1, "link-origin-root": 4 },
    lint: { "link-schema-style-path": 9, "flow-input-unused": 2 },
  },
  {
    file: "history/e196d9b/agents_json__giphy__agents.json",
    strict: false,
    deviations: { "additional-properties-key": 1 },
    lint: { "spec-version": 1, "link-action-null": 6 },
  },
  {
    file: "history/e196d9b/agents_json__stripe__agents.json",
    strict: false,
    deviations: { "additional-properties-key": 16, "link-origin-root": 10 },
    lint: {
      "spec-version": 1,
      "id-unique": 1,
      "action-source-defined": 1,
      "action-id-shadows-flow": 1,
      "link-origin-root": 1,
      "link-responses-success": 6,
      "flow-input-unused": 20,
    },
  },
  {
    file: "history/fe26d2d/agents_json__twitter__agents.json",
    strict: false,
    deviations: { "additional-properties-key": 1, "link-origin-root": 4 },
    lint: { "link-schema-style-path": 30, "link-action-null": 6, "flow-input-unused": 1 },
  },
  { file: "history/f034290/agents_json__googlecalendar__agents.json", strict: true, deviations: {}, lint: { "id-unique": 15, "flow-input-unused": 128 } },
];

/** Counts diagnostics by code. */
export function countByCode(items: readonly { code: string }[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const item of items) counts[item.code] = (counts[item.code] ?? 0) + 1;
  return counts;
}
