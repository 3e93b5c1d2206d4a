import { expect } from "vitest";
import { diffSchemas, type DiffOptions, type SchemaInput } from "@flowspec/schema-diff";
import type { Dialect } from "@flowspec/schema-diff/schema-files";

/** A row of the diff's rule tables: two schemas, the kinds reported and who breaks. */
export interface Row {
  name: string;
  old: SchemaInput;
  new: SchemaInput;
  /** The kinds reported, sorted and without repeats. */
  kinds: string[];
  /** Whether any change breaks code generated from NEW reading OLD documents. */
  newReader: boolean;
  /** Whether any change breaks code generated from OLD reading NEW documents. */
  oldReader: boolean;
  /** Whether any change removes a type of the generated code (default false). */
  code?: boolean;
  options?: DiffOptions;
}

/** The row's kinds and directions, from the changes and from the summary alike. */
export function expectRow(row: Row, dialect: Dialect): void {
  const report = diffSchemas(row.old, row.new, { dialect, ...row.options });
  expect([...new Set(report.changes.map((c) => c.kind))].sort()).toEqual(row.kinds);
  expect({ newReader: report.changes.some((c) => c.breaking.forNewReader), oldReader: report.changes.some((c) => c.breaking.forOldReader) }).toEqual({ newReader: row.newReader, oldReader: row.oldReader });
  expect({ newReader: report.summary.breakingForNewReader > 0, oldReader: report.summary.breakingForOldReader > 0 }).toEqual({ newReader: row.newReader, oldReader: row.oldReader });
  expect({ changes: report.changes.some((c) => c.breaking.forCode), summary: report.summary.breakingForCode > 0 }).toEqual({ changes: row.code ?? false, summary: row.code ?? false });
}

/** With OLD and NEW swapped, the row's two directions swap. */
export function expectSwapped(row: Row, dialect: Dialect): void {
  const report = diffSchemas(row.new, row.old, { dialect, ...row.options });
  expect({ newReader: report.summary.breakingForNewReader > 0, oldReader: report.summary.breakingForOldReader > 0 }).toEqual({ newReader: row.oldReader, oldReader: row.newReader });
}
