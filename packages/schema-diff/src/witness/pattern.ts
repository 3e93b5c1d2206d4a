/**
 * Strings for `pattern`s: one a pattern matches (read from the pattern's own literals, classes and
 * quantifiers), and one it does not. Every answer is checked with the regular expression itself,
 * as ajv builds it (`u` flag); undefined when nothing found matches (or nothing fails to).
 */

const FALLBACKS = ["x", "a", "A", "0", "1", "a-b", "a.b", "a_b", "a/b", "@a/b", "x@1.0.0", "1.0.0", "https://example.com/", "#fff", "1px", "a:b", "$a", "-", "", " "];

/** The longest sample read off a pattern. */
const MAX_SAMPLE = 4096;

export function matching(pattern: string): string | undefined {
  const regex = compile(pattern);
  if (!regex) return undefined;
  for (const reps of ["min", "one"] as const) {
    const sample = sampleOf(pattern, reps);
    if (sample !== undefined && regex.test(sample)) return sample;
  }
  return FALLBACKS.find((s) => regex.test(s));
}

export function notMatching(pattern: string): string | undefined {
  const regex = compile(pattern);
  if (!regex) return undefined;
  const sample = matching(pattern);
  const variants = sample === undefined ? [] : [`${sample} `, ` ${sample}`, sample.slice(1), `${sample}!`, sample.toUpperCase(), sample.replace(/[0-9]/g, "a"), sample.replace(/[a-z]/gi, "0")];
  return [...FALLBACKS, "!!", "\n", ...variants].find((s) => !regex.test(s));
}

/**
 * Strings the pattern matches that take, in turn, each other alternative of each alternation and
 * each other member of each character class (`(npm|yarn|aube)@…` gives `yarn@…` and `aube@…`):
 * where a pattern gained an alternative, one of them is matched by the new pattern only.
 */
export function matchingEach(pattern: string, limit: number): string[] {
  const regex = compile(pattern);
  const counts: number[] = [];
  if (!regex || sampleOf(pattern, "min", undefined, counts) === undefined) return [];
  const out = new Set<string>();
  for (let point = 0; point < counts.length; point++) {
    for (let pick = 1; pick < counts[point]! && out.size < limit; pick++) {
      const sample = sampleOf(pattern, "min", { point, pick });
      if (sample !== undefined && regex.test(sample)) out.add(sample);
    }
  }
  return [...out];
}

function compile(pattern: string): RegExp | undefined {
  try {
    return new RegExp(pattern, "u");
  } catch {
    try {
      return new RegExp(pattern);
    } catch {
      return undefined;
    }
  }
}

/**
 * A string read off the pattern: first alternatives, fewest repetitions ("min") or one of each
 * optional part ("one"). `choice` takes another alternative (class member) at one choice point,
 * the alternations and classes numbered in the order they are read; `counts` receives how many
 * options each point has.
 */
function sampleOf(pattern: string, reps: "min" | "one", choice?: { point: number; pick: number }, counts: number[] = []): string | undefined {
  let i = 0;
  let points = 0;
  const atEnd = () => i >= pattern.length;

  const alternatives = (): string => {
    const point = points++;
    const options = [sequence()];
    while (!atEnd() && pattern[i] === "|") {
      i++;
      options.push(sequence());
    }
    counts[point] = options.length;
    return options[choice?.point === point ? Math.min(choice.pick, options.length - 1) : 0]!;
  };

  const sequence = (): string => {
    let out = "";
    while (!atEnd() && pattern[i] !== "|" && pattern[i] !== ")") {
      const atom = atomOf();
      const [min, max] = quantifier();
      const count = reps === "min" ? min : Math.max(min, Math.min(1, max));
      // Bounded: `(a{1000}){1000}` is not written out; such a pattern falls back to the fixed samples.
      out += atom.repeat(Math.min(count, Math.floor(MAX_SAMPLE / Math.max(atom.length, 1))));
      if (out.length >= MAX_SAMPLE) return out;
    }
    return out;
  };

  const quantifier = (): [number, number] => {
    const c = pattern[i];
    let range: [number, number] = [1, 1];
    if (c === "*") range = [0, Infinity];
    else if (c === "+") range = [1, Infinity];
    else if (c === "?") range = [0, 1];
    else if (c === "{") {
      const m = /^\{(\d+)(,(\d*))?\}/.exec(pattern.slice(i));
      if (!m) return range;
      i += m[0].length;
      const min = Number(m[1]);
      if (pattern[i] === "?") i++;
      return [min, m[2] === undefined ? min : m[3] ? Number(m[3]) : Infinity];
    } else return range;
    i++;
    if (pattern[i] === "?" || pattern[i] === "+") i++;
    return range;
  };

  const atomOf = (): string => {
    const c = pattern[i++]!;
    if (c === "^" || c === "$") return "";
    if (c === ".") return "a";
    if (c === "\\") return escapeOf();
    if (c === "[") return classOf();
    if (c === "(") {
      if (pattern.startsWith("?=", i) || pattern.startsWith("?!", i) || pattern.startsWith("?<=", i) || pattern.startsWith("?<!", i)) {
        skipGroup();
        return "";
      }
      if (pattern.startsWith("?:", i)) i += 2;
      else if (pattern.startsWith("?<", i)) i = pattern.indexOf(">", i) + 1;
      const inner = alternatives();
      if (pattern[i] === ")") i++;
      return inner;
    }
    return c;
  };

  const skipGroup = () => {
    let depth = 1;
    while (!atEnd() && depth > 0) {
      const c = pattern[i++];
      if (c === "\\") i++;
      else if (c === "(") depth++;
      else if (c === ")") depth--;
    }
  };

  const escapeOf = (): string => {
    const c = pattern[i++];
    switch (c) {
      case "d":
        return "0";
      case "w":
        return "a";
      case "s":
        return " ";
      case "D":
      case "S":
        return "a";
      case "W":
        return "-";
      case "b":
      case "B":
        return "";
      case "n":
        return "\n";
      case "t":
        return "\t";
      case "u": {
        const m = /^\{([0-9a-fA-F]+)\}|^([0-9a-fA-F]{4})/.exec(pattern.slice(i));
        if (!m) return "u";
        i += m[0].length;
        return String.fromCodePoint(parseInt(m[1] ?? m[2]!, 16));
      }
      case "x": {
        const hex = pattern.slice(i, i + 2);
        i += 2;
        return String.fromCharCode(parseInt(hex, 16));
      }
      case "p":
      case "P": {
        const end = pattern.indexOf("}", i);
        if (end > 0) i = end + 1;
        return c === "p" ? "a" : "0";
      }
      default:
        return c ?? "";
    }
  };

  const classOf = (): string => {
    const negated = pattern[i] === "^";
    if (negated) i++;
    const members: [string, string][] = [];
    let first = true;
    while (!atEnd() && (pattern[i] !== "]" || first)) {
      first = false;
      let lo = pattern[i++]!;
      if (lo === "\\") lo = escapeOf();
      let hi = lo;
      if (pattern[i] === "-" && pattern[i + 1] !== "]" && i + 1 < pattern.length) {
        i++;
        hi = pattern[i++]!;
        if (hi === "\\") hi = escapeOf();
      }
      members.push([lo, hi]);
    }
    i++;
    const point = points++;
    counts[point] = negated ? 1 : members.length;
    if (!negated && choice?.point === point) return members[Math.min(choice.pick, members.length - 1)]![0];
    const inClass = (ch: string) => members.some(([lo, hi]) => (lo.length === 1 && hi.length === 1 ? ch >= lo && ch <= hi : ch === lo));
    if (negated) return [..."a0-_. xA"].find((ch) => !inClass(ch)) ?? "~";
    const preferred = [..."a0xA"].find((ch) => inClass(ch));
    return preferred ?? members[0]?.[0] ?? "a";
  };

  try {
    const out = alternatives();
    return atEnd() ? out : undefined;
  } catch {
    return undefined;
  }
}
