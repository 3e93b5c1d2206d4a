import { describe, expect, it } from "vitest";
import { DocumentParseError, parseSourceDocument } from "../src/index.js";

function reason(text: string): string | undefined {
  try {
    parseSourceDocument(text, { file: "doc.json" });
    return undefined;
  } catch (error) {
    expect(error).toBeInstanceOf(DocumentParseError);
    return (error as DocumentParseError).message;
  }
}

describe("JSON duplicate keys, checked from the parsed value", () => {
  it.each([
    { name: "a repeated key", text: '{"a": 1, "a": 2}', expected: 'doc.json:1:10: duplicate key "a"' },
    { name: "colons in keys and strings", text: '{"a:b": "c:d", "x": [{"y": "::"}], "a:b": 0}', expected: 'doc.json:1:36: duplicate key "a:b"' },
    // The escaped colon of the kept value stands in for the colon of the dropped key: counted, they match.
    { name: "an escaped colon that would hide the dropped key", text: '{"a": 1, "a": "\\u003a"}', expected: 'doc.json:1:10: duplicate key "a"' },
    { name: "an escaped colon, upper case", text: '{"a": 1, "a": "\\u003A"}', expected: 'doc.json:1:10: duplicate key "a"' },
    { name: "the same key written with an escape", text: '{"ab": 1, "a\\u0062": 2}', expected: 'doc.json:1:11: duplicate key "ab"' },
    { name: "a repeated key deep inside arrays", text: '[[[{"k": {"z": 1, "z": 2}}]]]', expected: 'doc.json:1:19: duplicate key "z"' },
    { name: "escaped colons and no duplicate", text: '{"a": "\\u003a", "b\\u003A": ":"}', expected: undefined },
    { name: "colons only in strings", text: '{"url": "https://x.test:8080/a:b", "list": ["::", ":"]}', expected: undefined },
    { name: "the same key in sibling objects", text: '[{"a": 1}, {"a": 2}]', expected: undefined },
    { name: "too deep", text: "[".repeat(300) + "]".repeat(300), expected: "doc.json:1:258: nested more than 256 levels deep" },
    { name: "deep but empty at the limit", text: "[".repeat(257) + "]".repeat(257), expected: undefined },
  ])("$name", ({ text, expected }) => {
    expect(reason(text)).toBe(expected);
  });

  it("costs a fraction of JSON.parse on a large document, not another JSON.parse", () => {
    const step = (i: number) => ({ id: `step_${i}`, component: "/mock/one_output", input: { input: { $from: { step: `step_${i - 1}` }, path: "output" } } });
    const text = JSON.stringify({ steps: Array.from({ length: 20_000 }, (_, i) => step(i)) }, null, 2);
    const time = (fn: () => unknown) => {
      const started = performance.now();
      fn();
      return performance.now() - started;
    };
    const ratios: number[] = [];
    parseSourceDocument(text); // warm up
    for (let round = 0; round < 9; round++) {
      // Alternating which runs first; the median of the rounds.
      let parse: number;
      let document: number;
      if (round % 2 === 0) {
        parse = time(() => JSON.parse(text));
        document = time(() => parseSourceDocument(text));
      } else {
        document = time(() => parseSourceDocument(text));
        parse = time(() => JSON.parse(text));
      }
      ratios.push(document / parse);
    }
    ratios.sort((a, b) => a - b);
    // With the scan that found duplicates, 3.4-3.5x on a loaded machine; 1.4-1.6x without it.
    expect(ratios[4]).toBeLessThan(2.5);
  });
});
