import type { TestDocument } from "./checkout.js";

/** One test document's verdicts: SchemaStore's label, its ajv set-up's, and the generated validator's. */
export interface Verdict {
  file: string;
  positive: boolean;
  reference: boolean | "error";
  generated: boolean | "error";
}

export interface VerdictSummary {
  documents: number;
  /**
   * Documents where the generated validator threw, or disagrees with the reference; where the
   * reference threw (ajv's deep equality does on objects without a prototype, as TOML parsers build
   * them), with SchemaStore's label instead.
   */
  disagreeing: Verdict[];
  /** Documents where the reference contradicts SchemaStore's label (its CI would fail). */
  referenceOffLabel: Verdict[];
}

/** The generated API's `validateX` of a root: `{ ok }` per value. */
export type GeneratedValidate = (value: unknown) => { ok: boolean };

export function compareVerdicts(documents: readonly TestDocument[], generated: GeneratedValidate, reference: (value: unknown) => boolean): VerdictSummary {
  const attempt = (run: () => boolean): boolean | "error" => {
    try {
      return run();
    } catch {
      return "error";
    }
  };
  const verdicts = documents.map((doc) => ({
    file: doc.file,
    positive: doc.positive,
    reference: attempt(() => reference(doc.value)),
    generated: attempt(() => generated(doc.value).ok),
  }));
  return {
    documents: verdicts.length,
    disagreeing: verdicts.filter((v) => v.generated === "error" || v.generated !== (v.reference === "error" ? v.positive : v.reference)),
    referenceOffLabel: verdicts.filter((v) => v.reference !== v.positive),
  };
}
