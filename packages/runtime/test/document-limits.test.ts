import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { Composer, isScalar, LineCounter, Parser } from "yaml";
import { seededRandom } from "../../../test/support.js";
import fc from "fast-check";
import { DocumentParseError, parseSourceDocument } from "../src/index.js";
import { lineIndex, offsetLocation } from "../src/lines.js";

/** The DocumentParseError parsing `text` throws, or undefined when it parses. */
function parseError(text: string, file: string): DocumentParseError | undefined {
  try {
    parseSourceDocument(text, { file });
    return undefined;
  } catch (error) {
    expect(error).toBeInstanceOf(DocumentParseError);
    return error as DocumentParseError;
  }
}

describe("YAML duplicate keys, found in linear time", () => {
  it("reads one mapping of 10,000 keys about as fast as 100 mappings of 100, and still names a duplicate at its end", () => {
    let one = "";
    let many = "";
    for (let i = 0; i < 10_000; i++) {
      one += `key${i}: ${i}\n`;
      many += `${i % 100 === 0 ? `m${i}:\n` : ""}  key${i}: ${i}\n`;
    }
    const time = (text: string) => {
      const started = performance.now();
      parseSourceDocument(text, { format: "yaml" });
      return performance.now() - started;
    };
    time(many.slice(0, 2000));
    // The library's own check compared each key with every earlier one of its mapping: about ten
    // times slower for the one mapping (and 36 s for 40,000 keys, 469 KB), the slower the larger.
    const ratio = Math.min(time(one) / time(many), time(one) / time(many));
    expect(ratio).toBeLessThan(3);
    expect(parseError(`${one}key7: again\n`, "big.yaml")?.message).toBe('big.yaml:10001:1: duplicate key "key7"');
  });

  // The YAML library's uniqueKeys check, with the comparator parseSourceDocument once gave it: the
  // oracle for where the first duplicate is and what it is called.
  const reference = (text: string): string | undefined => {
    const lineCounter = new LineCounter();
    const names: string[] = [];
    const name = (key: unknown) => (isScalar(key) ? (key.value === null ? "" : String(key.value)) : undefined);
    const same = (a: unknown, b: unknown) => {
      const equal = a === b || (name(a) !== undefined && name(a) === name(b));
      if (equal) names.push(name(b) ?? "");
      return equal;
    };
    const [doc] = new Composer({ resolveKnownTags: false, uniqueKeys: same }).compose(new Parser(lineCounter.addNewLine).parse(text), true, text.length);
    // The first error in the text; each duplicate's name was recorded in the order of the errors.
    let duplicate = 0;
    let first: { offset: number; message: string } | undefined;
    for (const error of doc!.errors) {
      const message = error.code === "DUPLICATE_KEY" ? `duplicate key ${JSON.stringify(names[duplicate++])}` : error.message.split("\n")[0]!;
      if (!first || error.pos[0] < first.offset) first = { offset: error.pos[0], message };
    }
    if (!first) return undefined;
    const { line, col } = lineCounter.linePos(first.offset);
    return `x.yaml:${line}:${col}: ${first.message}`;
  };

  it("reports the first problem in the text that the library's check (and its other checks) finds, for scalar, null, numeric, tagged, anchored, merge and collection keys (differential)", () => {
    const random = seededRandom(23);
    const keys = ["a", "'a'", '"a"', "1", "'1'", "~", "null", "''", "!!str a", "&k a", "<<", "[a]", "{a: 1}", "? a", "*k"];
    let duplicates = 0;
    for (let n = 0; n < 1000; n++) {
      const block = (indent: string, depth: number): string => {
        let out = "";
        for (let i = random(4); i >= 0; i--) {
          const key = keys[random(keys.length)]!;
          const value = depth < 2 && random(3) === 0 ? `\n${block(`${indent}  `, depth + 1)}` : ` ${random(10)}\n`;
          out += key.startsWith("?") ? `${indent}${key}\n${indent}:${value}` : `${indent}${key}:${value}`;
        }
        return out;
      };
      const text = random(4) === 0 ? `{${Array.from({ length: random(4) + 1 }, () => `${keys[random(9)]}: ${random(9)}`).join(", ")}}\n` : block("", 0);
      const expected = reference(text);
      if (expected?.includes("duplicate key")) duplicates++;
      expect(parseError(text, "x.yaml")?.message, text).toBe(expected);
    }
    expect(duplicates).toBeGreaterThan(200);
  });
});

describe("JSON nesting depth", () => {
  const jsonNested = (depth: number) => `{"a": ${"[".repeat(depth)}${"]".repeat(depth)}}`;
  const yamlNested = (depth: number) => `a: ${"[".repeat(depth)}${"]".repeat(depth)}\n`;

  it("refuses JSON nested deeper than 256 collections at the first value too deep, as YAML is refused", () => {
    expect(() => parseSourceDocument(jsonNested(3000), { file: "deep.json" })).toThrow(/^deep\.json:1:263: nested more than 256 levels deep$/);
    expect(() => parseSourceDocument(`{\n  "a": {\n    "b": ${"[".repeat(300)}1${"]".repeat(300)}\n  }\n}`, { file: "deep.json" })).toThrow(
      /^deep\.json:3:265: nested more than 256 levels deep$/,
    );
    // The same limit, at the same value, in both formats: the innermost array is 256 levels down.
    for (const depth of [255, 256, 257, 258]) {
      const json = parseError(jsonNested(depth), "x.json");
      const yaml = parseError(yamlNested(depth), "x.yaml");
      expect(json === undefined, `depth ${depth}`).toBe(yaml === undefined);
      expect(json?.reason).toBe(yaml?.reason);
    }
    expect(parseSourceDocument(jsonNested(256), { file: "ok.json" }).value).toEqual(JSON.parse(jsonNested(256)));
  });

  it("never exhausts the stack, however deep the text, valid or not", () => {
    const deep = "[".repeat(100_000) + "]".repeat(100_000);
    expect(() => parseSourceDocument(deep, { file: "deep.json" })).toThrow(/^deep\.json:1:258: nested more than 256 levels deep$/);
    expect(() => parseSourceDocument("[".repeat(100_000), { file: "open.json" })).toThrow(/^open\.json:1:100001: /);
  });
});

describe("JSON locations, found in the text", () => {
  it("locates every item of a long array in one pass over it", () => {
    const items = Array.from({ length: 100_000 }, (_, i) => ({ id: `s${i}`, input: { n: i } }));
    const text = JSON.stringify({ steps: items }, null, 1);
    const doc = parseSourceDocument(text, { file: "long.json" });
    const started = performance.now();
    for (let i = 0; i < items.length; i += 7) expect(doc.locate(`/steps/${i}/input/n`).line).toBe(6 * i + 6);
    expect(performance.now() - started).toBeLessThan(10_000);
  });

  it("locates every item of a long minified array, all on one line, in one pass", () => {
    const text = JSON.stringify({ steps: Array.from({ length: 100_000 }, (_, i) => ({ id: `s${i}`, input: { n: i } })) });
    const doc = parseSourceDocument(text, { file: "long.json" });
    const expected: string[] = [];
    for (let i = 0, at = 0; i < 100_000; i += 7) expected.push(`long.json:1:${(at = text.indexOf(`"n":${i}}`, at)) + 5}`);
    const started = performance.now();
    const located = expected.map((_, k) => doc.describe(`/steps/${k * 7}/input/n`));
    expect(performance.now() - started).toBeLessThan(10_000);
    expect(located).toEqual(expected);
  });

  it("counts lines from remembered positions exactly as from the start (property)", () => {
    fc.assert(
      fc.property(fc.string({ unit: fc.constantFrom("a", "\n", "\r", "\r\n", "é", "😀"), maxLength: 5000 }), fc.array(fc.nat(), { maxLength: 20 }), (text, offsets) => {
        const where = lineIndex(text);
        for (const offset of offsets.map((o) => o % (text.length + 1))) expect(where(offset)).toEqual(offsetLocation(text, offset));
      }),
      { numRuns: 300 },
    );
  });

  it("builds no tree of the whole text: a 24 MB document is located within a heap far smaller than the old 34 times its size", () => {
    const dir = mkdtempSync(join(tmpdir(), "flowspec-locate-"));
    try {
      const steps = Array.from({ length: 150_000 }, (_, i) => ({ id: `step${i}`, component: "/builtin/eval", input: { text: "some words of input text", n: i } }));
      writeFileSync(join(dir, "big.json"), JSON.stringify({ steps }, null, 2));
      const script = join(dir, "locate.ts");
      writeFileSync(
        script,
        `import { readFileSync } from "node:fs";
import { parseSourceDocument } from ${JSON.stringify(fileURLToPath(new URL("../src/index.ts", import.meta.url)))};
const doc = parseSourceDocument(readFileSync(${JSON.stringify(join(dir, "big.json"))}, "utf8"), { file: "big.json" });
console.log(doc.describe("/steps/149999/input/n"), doc.describe("/steps/0/id"));`,
      );
      // The text (24 MB), its parsed value and the file's bytes fit in 320 MB; a tree of the
      // whole text did not (it took about 800 MB).
      const run = spawnSync(process.execPath, ["--max-old-space-size=320", "--import", "tsx", script], { encoding: "utf8" });
      expect(run.stderr).toBe("");
      expect(run.stdout).toBe(`big.json:1200000:14 big.json:4:13\n`);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
