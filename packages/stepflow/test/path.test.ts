import { describe, expect, it } from "vitest";
import { formatPath, normalizePath, parsePath, PathResolutionError, PathSyntaxError, selectPath, toDollarPath } from "../src/index.js";

describe("parsePath (protocol notes §6.1)", () => {
  it.each([
    { path: "", segments: [] },
    { path: "$", segments: [] },
    { path: "$.", segments: [] },
    { path: "name", segments: [{ field: "name" }] },
    { path: "a.b", segments: [{ field: "a.b" }] },
    { path: " a ", segments: [{ field: " a " }] },
    { path: "$.a.b", segments: [{ field: "a" }, { field: "b" }] },
    { path: "$['a'].b", segments: [{ field: "a" }, { field: "b" }] },
    { path: "$['a.b']", segments: [{ field: "a.b" }] },
    { path: '$["a.b"]', segments: [{ field: "a.b" }] },
    { path: '$[ "x y" ]', segments: [{ field: "x y" }] },
    { path: "$.items[0].name", segments: [{ field: "items" }, { index: 0 }, { field: "name" }] },
    { path: "$[ 0 ]", segments: [{ index: 0 }] },
    { path: "$[+5]", segments: [{ index: 5 }] },
    { path: "$..a", segments: [{ field: "a" }] },
    { path: "$.*", segments: [{ field: "*" }] },
    { path: "  $.a  ", segments: [{ field: "a" }] },
    { path: "$.a]b", segments: [{ field: "a]b" }] },
  ])("$path", ({ path, segments }) => {
    expect(parsePath(path)).toEqual(segments);
  });

  it.each([
    { path: "$field", reason: "Invalid character 'f' in JSON path after $ or ']'. Expected '.' or '['" },
    { path: "$[0]x", reason: "Invalid character 'x' in JSON path after $ or ']'. Expected '.' or '['" },
    { path: "$[abc]", reason: "Invalid index 'abc' in JSON path. Expected a number or a quoted string." },
    { path: "$.a[-1]", reason: "Invalid index '-1' in JSON path. Expected a number or a quoted string." },
    { path: '$["x', reason: "Unclosed bracket '[' in path" },
    { path: "$[5", reason: "Unclosed bracket '[' in path" },
    { path: "$[]", reason: "Invalid index '' in JSON path. Expected a number or a quoted string." },
  ])("$path is invalid", ({ path, reason }) => {
    expect(() => parsePath(path)).toThrow(new PathSyntaxError(path, reason));
  });

  it("serialises as the runtime does (lossy) and in $-form (exact)", () => {
    expect(formatPath(parsePath("field"))).toBe("$.field");
    expect(formatPath(parsePath('$["a.b"]'))).toBe("$.a.b");
    expect(toDollarPath(parsePath('$["a.b"]'))).toBe('$["a.b"]');
    expect(normalizePath("field")).toBe("$.field");
    expect(normalizePath("a.b")).toBe('$["a.b"]');
    expect(normalizePath('$[\'say "hi"\']')).toBe('$.say "hi"');
    expect(normalizePath('$[\'a."b"\']')).toBe("$['a.\"b\"']");
    expect(normalizePath("$.items[2]")).toBe("$.items[2]");
    expect(normalizePath("")).toBe("$");
    expect(() => toDollarPath([{ field: `a.]"'` }])).toThrow(/cannot be addressed/);
    expect(() => toDollarPath([{ field: "a[0]" }])).toThrow(/cannot be addressed/);
  });

  it("$-form round-trips every addressable key", () => {
    for (const key of ["a", "a.b", "a[0", "x y", "trailing ", "", "with]bracket", 'q"uote', "*", "$"]) {
      expect(parsePath(toDollarPath([{ field: key }]))).toEqual([{ field: key }]);
    }
  });
});

describe("selectPath", () => {
  const value = { a: { b: [10, { c: null }] }, "a.b": 1 };
  it("selects fields and indices; a present null is null", () => {
    expect(selectPath(value, parsePath("$.a.b[1].c"))).toBeNull();
    expect(selectPath(value, parsePath("a.b"))).toBe(1);
    expect(selectPath(value, [])).toBe(value);
  });
  it.each([
    ["$.missing", 'the object has no field "missing"'],
    ["$.a.b[2]", "index 2 is out of range (the array has 2 items)"],
    ["$.a[0]", "index 0 applied to an object"],
    ["$.a.b.c", 'field "c" applied to an array'],
    ["$.a.b[0].x", 'field "x" applied to a number'],
  ])("%s does not resolve", (path, reason) => {
    expect(() => selectPath(value, parsePath(path))).toThrow(PathResolutionError);
    expect(() => selectPath(value, parsePath(path))).toThrow(reason);
  });
});
