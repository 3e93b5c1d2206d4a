/**
 * `stepflow test --update`: writes new expected outputs into a flow file. Only the text of each
 * case's `output` entry changes; every other byte (comments, quoting, indentation, key order) stays
 * as written, which re-serialising the whole document would not do. JSON files are handled the same
 * way, since JSON is YAML in flow style.
 */
import { writeFileSync } from "node:fs";
import { stringifyJson, stringifyYaml } from "@flowspec/runtime";
import { readTextFileSync } from "@flowspec/runtime/files";
import { isMap, isScalar, isSeq, parseDocument, type Node, type Pair, type YAMLMap } from "@flowspec/runtime/yaml";

export interface OutputUpdate {
  /** The case's position in `test.cases` (a `CaseReport`'s `index`). */
  index: number;
  /** The new expected output (a FlowResult). */
  output: unknown;
}

/** Rewrites the `output` of the given test cases of a flow file in place. */
export function updateTestOutputs(path: string, updates: readonly OutputUpdate[]): void {
  if (updates.length === 0) return;
  writeFileSync(path, withTestOutputs(readTextFileSync(path), updates, path));
}

/** The flow text with each updated case's `output` replaced (or added after the case's last entry). */
export function withTestOutputs(text: string, updates: readonly OutputUpdate[], file = "<flow>"): string {
  const doc = parseDocument(text, { keepSourceTokens: false });
  if (doc.errors.length > 0) throw new Error(`${file}: cannot update: ${doc.errors[0]!.message}`);
  const cases = doc.getIn(["test", "cases"], true);
  if (!isSeq(cases)) throw new Error(`${file}: cannot update: it has no test.cases list`);
  const edits = updates.map(({ index, output }) => {
    const testCase = cases.items[index];
    if (!isMap(testCase) || !testCase.range) throw new Error(`${file}: cannot update: /test/cases/${index} is not a mapping`);
    return editFor(text, testCase, output);
  });
  // From the end of the text backwards, so earlier offsets stay valid.
  edits.sort((a, b) => b.start - a.start);
  let out = text;
  for (const edit of edits) out = out.slice(0, edit.start) + edit.text + out.slice(edit.end);
  return out;
}

interface Edit {
  start: number;
  end: number;
  text: string;
}

function editFor(text: string, testCase: YAMLMap, output: unknown): Edit {
  const pairs = testCase.items as Pair<Node, Node | null>[];
  const existing = pairs.find((pair) => isScalar(pair.key) && pair.key.value === "output");
  if (testCase.flow) {
    if (existing) {
      const [start, keyEnd] = existing.key.range!;
      return { start, end: existing.value?.range?.[1] ?? keyEnd, text: `${text.slice(start, keyEnd)}: ${stringifyJson(output)}` };
    }
    // Before the closing brace, after the last entry.
    let at = testCase.range![1] - 1;
    while (at > 0 && text[at] !== "}") at--;
    let before = at;
    while (/\s/.test(text[before - 1] ?? "")) before--;
    const quoted = pairs.some((pair) => isScalar(pair.key) && (pair.key.type === "QUOTE_DOUBLE" || pair.key.type === "QUOTE_SINGLE"));
    const separator = pairs.length > 0 ? ", " : "";
    return { start: before, end: before, text: `${separator}${quoted ? '"output"' : "output"}: ${stringifyJson(output)}` };
  }
  if (existing) {
    const start = existing.key.range![0];
    const end = existing.value?.range?.[1] ?? existing.key.range![1];
    return { start, end: trimEnd(text, start, end), text: blockEntry(output, columnOf(text, start)) };
  }
  const first = pairs[0]!.key.range![0];
  const last = pairs.at(-1)!;
  const lastEnd = trimEnd(text, first, last.value?.range?.[1] ?? last.key.range![1]);
  // After the line the last entry ends on, so a comment at its end stays with it.
  const lineEnd = text.indexOf("\n", lastEnd);
  const at = lineEnd === -1 ? text.length : lineEnd;
  const column = columnOf(text, first);
  return { start: at, end: at, text: `\n${" ".repeat(column)}${blockEntry(output, column)}` };
}

/** `output: …` in block style, its continuation lines indented to sit under a key at `column`. */
function blockEntry(output: unknown, column: number): string {
  const lines = stringifyYaml({ output }).trimEnd().split("\n");
  return lines.map((line, i) => (i === 0 || line === "" ? line : " ".repeat(column) + line)).join("\n");
}

function columnOf(text: string, offset: number): number {
  return offset - (text.lastIndexOf("\n", offset - 1) + 1);
}

/** A value's range can run over the line breaks and blank lines after it: stop at its last character. */
function trimEnd(text: string, start: number, end: number): number {
  while (end > start && /\s/.test(text[end - 1]!)) end--;
  return end;
}
