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
