/**
 * Whether every string `before` matches is matched by `after` too, decided in one narrow case only:
 * the two patterns are the same text but for one alternation (a group's, or the whole pattern's)
 * or one character class, and `after` keeps every alternative (class member) `before` had, adding
 * some (package.json `packageManager`: `(npm|pnpm|yarn|bun)@…` → `(npm|pnpm|yarn|bun|aube)@…`).
 * A regular expression accepts more when one of its parts does, except under a negative
 * lookaround or with back-references, which are refused. Anything else is undecided: false.
 */
export function patternWidens(before: string, after: string): boolean {
  if (before === after || /\\[1-9]|\\k</.test(before) || /\\[1-9]|\\k</.test(after)) return false;
  const [partsBefore, partsAfter] = [containers(before), containers(after)];
  if (!partsBefore || !partsAfter) return false;
  let prefix = 0;
  while (prefix < before.length && prefix < after.length && before[prefix] === after[prefix]) prefix++;
  let suffix = 0;
  while (suffix < Math.min(before.length, after.length) - prefix && before[before.length - 1 - suffix] === after[after.length - 1 - suffix]) suffix++;
  // The innermost container of `after` that holds every differing character.
  const holder = partsAfter
    .filter((c) => c.start <= prefix && after.length - suffix <= c.close)
    .sort((x, y) => y.start - x.start)[0];
  if (!holder || holder.negative) return false;
  const shift = after.length - before.length;
  const same = partsBefore.find((c) => c.kind === holder.kind && c.start === holder.start && c.close === holder.close - shift);
  if (!same || same.negative) return false;
  const [inner, outer] = [before.slice(same.start, same.close), after.slice(holder.start, holder.close)];
  const items = holder.kind === "group" ? alternatives : classMembers;
  const [kept, widened] = [items(inner), items(outer)];
  return kept !== undefined && widened !== undefined && kept.every((item) => widened.includes(item));
}

/**
 * The other case decided: one run of `before`'s atoms that `after` writes as an (optional) group
 * one of whose alternatives accepts at least that run: the same atoms, some made optional, some
 * classes with members added, optional atoms added (jscpd `maxSize`: `… *[kKmM…][bB]$` →
 * `… *([kKmM…]?[bB]|[kKmMgG])?$`). The run must be whole atoms of a sequence, outside any
 * negative lookaround, with no quantifier after it; back-references are refused (above).
 */
export function patternWrapsWidened(before: string, after: string): boolean {
  if (before === after || /\\[1-9]|\\k</.test(before) || /\\[1-9]|\\k</.test(after)) return false;
  const [partsBefore, partsAfter] = [containers(before), containers(after)];
  if (!partsBefore || !partsAfter) return false;
  // The differing runs, widened to whole atoms: from the start of an atom to the end of one.
  const starts = atomStarts(before);
  const startsAfter = atomStarts(after);
  if (!starts || !startsAfter) return false;
  let prefix = 0;
  while (prefix < before.length && prefix < after.length && before[prefix] === after[prefix]) prefix++;
  while (prefix > 0 && !(starts.has(prefix) && startsAfter.has(prefix))) prefix--;
  let suffix = 0;
  while (suffix < Math.min(before.length, after.length) - prefix && before[before.length - 1 - suffix] === after[after.length - 1 - suffix]) suffix++;
  while (suffix > 0 && !(starts.has(before.length - suffix) && startsAfter.has(after.length - suffix))) suffix--;
  const run = before.slice(prefix, before.length - suffix);
  const wrapped = after.slice(prefix, after.length - suffix);
  if (run === "" || /^[?*+{]/.test(before.slice(before.length - suffix))) return false;
  const group = /^\((?:\?:)?([^]*)\)\??$/.exec(wrapped);
  if (!group || containers(group[1]!) === undefined || !closesAtEnd(wrapped)) return false;
  // Neither side's run may sit under a negative lookaround or in a class; `atoms` below takes whole atoms only.
  const inside = (parts: Container[], end: number) => parts.filter((c) => c.start <= prefix && end <= c.close);
  const holderBefore = inside(partsBefore, before.length - suffix).sort((x, y) => y.start - x.start)[0];
  const holderAfter = inside(partsAfter, after.length - suffix).sort((x, y) => y.start - x.start)[0];
  if (!holderBefore || holderBefore.negative || holderBefore.kind !== "group" || !holderAfter || holderAfter.negative) return false;
  const old = atoms(run);
  if (!old || alternatives(run).length > 1) return false;
  return alternatives(group[1]!).some((alternative) => {
    const next = atoms(alternative);
    return next !== undefined && covers(next, old);
  });
}

/** A quantifier, greedy or lazy, at the start of a string. */
const QUANTIFIER = /^(?:[?*+]|\{\d+(?:,\d*)?\})\??/;

interface Atom {
  /** The atom as written, without its quantifier. */
  text: string;
  /** "", "?", "*", "+", or a `{…}` bound. */
  quantifier: string;
}

/** Whether the atoms `wide` accept every string the atoms `narrow` do: each narrow atom covered in order, the rest optional. */
function covers(wide: Atom[], narrow: Atom[]): boolean {
  let j = 0;
  for (const atom of wide) {
    if (j < narrow.length && atomCovers(atom, narrow[j]!)) j++;
    else if (atom.quantifier !== "?" && atom.quantifier !== "*") return false;
  }
  return j === narrow.length;
}

function atomCovers(wide: Atom, narrow: Atom): boolean {
  const quantified = wide.quantifier === narrow.quantifier || wide.quantifier === "*" || (wide.quantifier === "?" && narrow.quantifier === "") || (wide.quantifier === "+" && narrow.quantifier === "");
  if (!quantified) return false;
  if (wide.text === narrow.text) return true;
  if (!wide.text.startsWith("[") || !narrow.text.startsWith("[")) return false;
  const [members, kept] = [classMembers(wide.text.slice(1, -1)), classMembers(narrow.text.slice(1, -1))];
  return members !== undefined && kept !== undefined && kept.every((member) => members.includes(member));
}

/** A sequence's atoms with their quantifiers; undefined when it is not a plain sequence. */
function atoms(sequence: string): Atom[] | undefined {
  const out: Atom[] = [];
  for (let i = 0; i < sequence.length; ) {
    const end = atomEnd(sequence, i);
    if (end === undefined) return undefined;
    const quantifier = QUANTIFIER.exec(sequence.slice(end))?.[0] ?? "";
    // A lazy quantifier matches the same strings as the greedy one.
    out.push({ text: sequence.slice(i, end), quantifier: quantifier.replace(/(.)\?$/, "$1") });
    i = end + quantifier.length;
  }
  return out;
}

/** Where the atom starting at `i` ends: an escape, a class, a group, or one character. */
function atomEnd(pattern: string, i: number): number | undefined {
  const c = pattern[i];
  if (c === "\\") {
    const escape = /^\\(?:u\{[0-9a-fA-F]+\}|u[0-9a-fA-F]{4}|x[0-9a-fA-F]{2}|[pP]\{[^}]*\}|c[A-Za-z]|[^])/.exec(pattern.slice(i))?.[0];
    return escape ? i + escape.length : undefined;
  }
  if (c === "[") {
    let j = i + 1;
    while (j < pattern.length && pattern[j] !== "]") j += pattern[j] === "\\" ? 2 : 1;
    return j < pattern.length ? j + 1 : undefined;
  }
  if (c === "(") {
    let depth = 0;
    for (let j = i; j < pattern.length; j++) {
      if (pattern[j] === "\\") j++;
      else if (pattern[j] === "[") {
        while (j < pattern.length && pattern[j] !== "]") j += pattern[j] === "\\" ? 2 : 1;
      } else if (pattern[j] === "(") depth++;
      else if (pattern[j] === ")" && --depth === 0) return j + 1;
    }
    return undefined;
  }
  if (c === ")" || c === "|" || c === undefined || /[?*+{]/.test(c)) return undefined;
  return i + 1;
}

/** Where atoms may start in a pattern: after each whole atom (with its quantifier), and after `(`, `|`. */
function atomStarts(pattern: string): Set<number> | undefined {
  const starts = new Set<number>([0, pattern.length]);
  for (let i = 0; i < pattern.length; ) {
    const c = pattern[i];
    if (c === "(" || c === "|" || c === ")") {
      i += c === "(" ? 1 + (/^\?(?::|=|!|<=|<!|<[A-Za-z_$][\w$]*>)/.exec(pattern.slice(i + 1))?.[0].length ?? 0) : 1;
      if (c === ")") i += QUANTIFIER.exec(pattern.slice(i))?.[0].length ?? 0;
      starts.add(i);
      continue;
    }
    const end = atomEnd(pattern, i);
    if (end === undefined) return undefined;
    i = end + (QUANTIFIER.exec(pattern.slice(end))?.[0].length ?? 0);
    starts.add(i);
  }
  return starts;
}

/** Whether the group opening at 0 closes at the last `)` (so `(a)(b)` is not one group). */
function closesAtEnd(wrapped: string): boolean {
  const end = atomEnd(wrapped, 0);
  return end !== undefined && (end === wrapped.length || (end === wrapped.length - 1 && wrapped.endsWith("?")));
}

interface Container {
  kind: "group" | "class";
  /** Where the content starts (after `(?:`, `(?<name>`, `[`) and where its closing character is. */
  start: number;
  close: number;
  /** Under a negative lookaround (or a negated class), where more inside means less outside. */
  negative: boolean;
}

/** The groups and classes of a pattern, and the pattern itself as the outermost group; undefined if unbalanced. */
function containers(pattern: string): Container[] | undefined {
  const out: Container[] = [];
  const open: Container[] = [];
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i];
    if (c === "\\") {
      i++;
    } else if (c === "[") {
      let j = i + 1;
      while (j < pattern.length && pattern[j] !== "]") j += pattern[j] === "\\" ? 2 : 1;
      if (j >= pattern.length) return undefined;
      out.push({ kind: "class", start: i + 1, close: j, negative: pattern[i + 1] === "^" || (open.at(-1)?.negative ?? false) });
      i = j;
    } else if (c === "(") {
      const head = /^\?(?::|=|!|<=|<!|<[A-Za-z_$][\w$]*>)/.exec(pattern.slice(i + 1))?.[0] ?? "";
      const negative = head === "?!" || head === "?<!" || (open.at(-1)?.negative ?? false);
      open.push({ kind: "group", start: i + 1 + head.length, close: -1, negative });
      i += head.length;
    } else if (c === ")") {
      const group = open.pop();
      if (!group) return undefined;
      out.push({ ...group, close: i });
    }
  }
  if (open.length > 0) return undefined;
  out.push({ kind: "group", start: 0, close: pattern.length, negative: false });
  return out;
}

/** A group's top-level alternatives, as written. */
function alternatives(content: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let from = 0;
  for (let i = 0; i < content.length; i++) {
    const c = content[i];
    if (c === "\\") i++;
    else if (c === "[") {
      while (i < content.length && content[i] !== "]") i += content[i] === "\\" ? 2 : 1;
    } else if (c === "(") depth++;
    else if (c === ")") depth--;
    else if (c === "|" && depth === 0) {
      out.push(content.slice(from, i));
      from = i + 1;
    }
  }
  out.push(content.slice(from));
  return out;
}

/** A class's members (single characters, escapes, ranges), as written; undefined for a negated class. */
function classMembers(content: string): string[] | undefined {
  if (content.startsWith("^")) return undefined;
  const atom = /\\u\{[0-9a-fA-F]+\}|\\u[0-9a-fA-F]{4}|\\x[0-9a-fA-F]{2}|\\[pP]\{[^}]*\}|\\c[A-Za-z]|\\.|[^\\]/y;
  const out: string[] = [];
  for (let i = 0; i < content.length; ) {
    atom.lastIndex = i;
    const lo = atom.exec(content)?.[0];
    if (!lo) return undefined;
    i += lo.length;
    if (content[i] === "-" && i + 1 < content.length) {
      atom.lastIndex = i + 1;
      const hi = atom.exec(content)?.[0];
      if (!hi) return undefined;
      out.push(`${lo}-${hi}`);
      i += 1 + hi.length;
    } else out.push(lo);
  }
  return out;
}
