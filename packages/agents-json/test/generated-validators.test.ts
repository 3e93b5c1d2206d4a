import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { formatIssues } from "@flowspec/runtime";
import { describe, expect, it } from "vitest";
import { validateAgentsJson, validateAgentsJsonCompat } from "../src/index.js";
import { corpusDir } from "../../../test/support.js";

const corpus = corpusDir("agents-json");

/** The Schema column of the protocol notes' corpus table (§8): canonical-schema errors per file. */
const SCHEMA_ERRORS: Record<string, number> = {
  "agents_json__alpaca__agents.json": 7,
  "agents_json__devopness__agents.json": 1,
  "agents_json__facebook_marketing__agents.json": 0,
  "agents_json__giphy__agents.json": 0,
  "agents_json__googlecalendar__agents.json": 0,
  "agents_json__googledocs__agents.json": 1,
  "agents_json__googlesheets__agents.json": 0,
  "agents_json__hubspotcontacts__agents.json": 2,
  "agents_json__intercom__agents.json": 0,
  "agents_json__linkup__agents.json": 1,
  "agents_json__resend__agents.json": 0,
  "agents_json__rootly__agents.json": 0,
  "agents_json__slack__agents.json": 0,
  "agents_json__stripe__agents.json": 0,
  "agents_json__theodds__agents.json": 3,
  "agents_json__twitter__agents.json": 0,
  "history/e196d9b/agents_json__giphy__agents.json": 0,
  "history/e196d9b/agents_json__stripe__agents.json": 0,
  "history/fe26d2d/agents_json__twitter__agents.json": 0,
  "history/f034290/agents_json__googlecalendar__agents.json": 0,
};

const documents = (readdirSync(corpus, { recursive: true }) as string[])
  .map((p) => p.split("\\").join("/"))
  .filter((p) => p.endsWith("__agents.json"))
  .sort();

describe("agents.json corpus against the generated validators", () => {
  it("has the 20 documents of the corpus table", () => {
    expect(documents).toEqual(Object.keys(SCHEMA_ERRORS).sort());
  });

  it.each(documents)("%s: strict verdict and error count match the Schema column", (file) => {
    const result = validateAgentsJson(JSON.parse(readFileSync(join(corpus, file), "utf8")));
    const expected = SCHEMA_ERRORS[file]!;
    expect(result.ok ? 0 : result.errors.length, result.ok ? "" : `${file}:\n${formatIssues(result.errors)}`).toBe(expected);
  });

  it.each(documents)("%s: accepted by the compat variant", (file) => {
    const result = validateAgentsJsonCompat(JSON.parse(readFileSync(join(corpus, file), "utf8")));
    expect(result.ok, result.ok ? "" : `${file}:\n${formatIssues(result.errors)}`).toBe(true);
  });

  it("reports each canonical-schema deviation where it is", () => {
    const result = validateAgentsJson(JSON.parse(readFileSync(join(corpus, "agents_json__hubspotcontacts__agents.json"), "utf8")));
    expect(!result.ok && result.errors.map((e) => [e.path, e.keyword])).toEqual([
      ["/flows/1/fields/requestBody", "type"],
      ["/flows/5/fields/requestBody", "type"],
    ]);
  });

  it("compat reads overrides[].value as anyOf, so an integral value passes there only (defect D2)", () => {
    const doc = {
      agentsJson: "0.1.0",
      info: { title: "t", version: "1", description: "d" },
      sources: [{ id: "s", path: "openapi.yaml" }],
      overrides: [{ sourceId: "s", operationId: "op", fieldPath: "parameters.limit", value: 3 }],
      flows: [],
    };
    expect(validateAgentsJson(doc)).toMatchObject({ ok: false, errors: [{ path: "/overrides/0/value", keyword: "oneOf" }] });
    expect(validateAgentsJsonCompat(doc).ok).toBe(true);
  });
});
