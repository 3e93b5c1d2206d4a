// Lints every publishable package as npm would ship it:
// - the metadata every package shares comes from ONE place, the root package.json (`license`,
//   `repository.url`, `bugs`, `engines`); each package carries those values, its own
//   `repository.directory` and a `homepage` at its folder, a description and keywords;
// - the root LICENSE is in every package folder (npm packs it into every tarball);
// - `typesVersions` maps every subpath export to its CommonJS types, for node10 resolution;
// - the package README works on the registry's page: no relative link or image, nothing that points
//   outside the repository, and every absolute link into the repository names a file that exists;
// - publint, and attw --pack (types resolve under node10, node16 from CJS and ESM, and bundler).
// `--fix` writes the derived fields and copies LICENSE; descriptions, keywords and READMEs stay yours.
import { execFileSync } from "node:child_process";
import { copyFileSync, existsSync, readFileSync, writeFileSync } from "node:fs";
import { isDeepStrictEqual } from "node:util";

const fix = process.argv.includes("--fix");
const root = JSON.parse(readFileSync("package.json", "utf8"));
const branch = JSON.parse(readFileSync(".changeset/config.json", "utf8")).baseBranch;
/** `https://github.com/owner/name`, from `git+https://github.com/owner/name.git`. */
const web = root.repository.url.replace(/^git\+/, "").replace(/\.git$/, "");
const raw = web.replace("https://github.com/", "https://raw.githubusercontent.com/");
const license = readFileSync("LICENSE");
const bin = (name) => `node_modules/.bin/${name}`;

/** The fields derived from the root's, for the package in folder `dir`. */
function sharedFields(pkg, dir) {
  const typesVersions = Object.fromEntries(
    Object.entries(pkg.exports ?? {})
      .filter(([subpath]) => subpath !== "." && subpath !== "./package.json")
      .map(([subpath, conditions]) => [subpath.slice(2), [conditions.require.types]]),
  );
  return {
    homepage: `${web}/tree/${branch}/${dir}#readme`,
    bugs: root.bugs,
    repository: { type: "git", url: root.repository.url, directory: dir },
    license: root.license,
    engines: root.engines,
    ...(Object.keys(typesVersions).length > 0 ? { typesVersions: { "*": typesVersions } } : {}),
  };
}

/** `pkg` with `fields` set: fields it has keep their place, new ones go after `keywords` (or `description`). */
function withFields(pkg, fields) {
  const after = "keywords" in pkg ? "keywords" : "description";
  const added = Object.entries(fields).filter(([key]) => !(key in pkg));
  const result = {};
  for (const [key, value] of Object.entries(pkg)) {
    result[key] = key in fields ? fields[key] : value;
    if (key === after) Object.assign(result, Object.fromEntries(added));
  }
  return { ...result, ...Object.fromEntries(added) };
}

/** Problems with a package README on the registry's page. */
function readmeProblems(file) {
  const text = readFileSync(file, "utf8").replace(/^```[\s\S]*?^```$/gm, "");
  const problems = [];
  const targets = [
    ...[...text.matchAll(/!?\[(?:[^\]\\]|\\.)*\]\(\s*<?([^)\s>]+)/g)].map((m) => m[1]),
    ...[...text.matchAll(/^ {0,3}\[[^\]]+\]:\s*<?(\S+?)>?(\s|$)/gm)].map((m) => m[1]),
    ...[...text.matchAll(/<(?:a|img|source)\b[^>]*\b(?:href|src|srcset)\s*=\s*["']([^"']+)["']/gi)].map((m) => m[1]),
  ];
  for (const target of targets) {
    if (target.startsWith("#") || target.startsWith("mailto:")) continue;
    if (!/^https?:\/\//.test(target)) {
      problems.push(`${file}: relative link or image "${target}" breaks on the registry's page: use ${web}/blob/${branch}/… (${raw}/${branch}/… for images)`);
      continue;
    }
    const inRepo = [`${web}/blob/${branch}/`, `${web}/tree/${branch}/`, `${raw}/${branch}/`].find((prefix) => target.startsWith(prefix));
    const path = inRepo && decodeURIComponent(target.slice(inRepo.length).replace(/[#?].*$/, ""));
    if (path !== undefined && !existsSync(path)) problems.push(`${file}: "${target}" names ${path}, which is not in the repository`);
  }
  // Outside link targets (already reported above): `../shared/corpus/…` in prose or code spans.
  const prose = text.replace(/\]\([^)]*\)/g, "]()");
  for (const m of prose.matchAll(/(?<![\w.])\.\.\/[^\s`)]*|\bshared\/(?:corpus|protocols)\b[^\s`)]*/g)) {
    problems.push(`${file}: "${m[0]}" points outside the repository`);
  }
  return problems;
}

let failed = 0;
const report = (ok, what, detail = "") => {
  if (!ok) failed++;
  console.log(`${ok ? "ok  " : "FAIL"} ${what}${ok || !detail ? "" : `\n${detail}`}`);
};

for (const dir of root.workspaces) {
  const file = `${dir}/package.json`;
  const pkg = JSON.parse(readFileSync(file, "utf8"));
  if (pkg.private) continue;
  const shared = sharedFields(pkg, dir);
  if (fix) {
    writeFileSync(file, `${JSON.stringify(withFields(pkg, shared), null, 2)}\n`);
    copyFileSync("LICENSE", `${dir}/LICENSE`);
    Object.assign(pkg, shared);
  }
  const problems = [
    ...Object.entries(shared)
      .filter(([key, value]) => !isDeepStrictEqual(pkg[key], value))
      .map(([key, value]) => `${file}: "${key}" must be ${JSON.stringify(value)} (run node scripts/lint-packages.mjs --fix)`),
    ...(typeof pkg.description === "string" && pkg.description.length > 0 ? [] : [`${file}: no description`]),
    ...(Array.isArray(pkg.keywords) && pkg.keywords.includes("flowspec") ? [] : [`${file}: "keywords" must list "flowspec" and what the package is about`]),
    ...(existsSync(`${dir}/LICENSE`) && readFileSync(`${dir}/LICENSE`).equals(license) ? [] : [`${dir}/LICENSE: must be a copy of the root LICENSE (run node scripts/lint-packages.mjs --fix)`]),
    ...(existsSync(`${dir}/README.md`) ? readmeProblems(`${dir}/README.md`) : [`${dir}/README.md: missing`]),
  ];
  report(problems.length === 0, `package rules ${pkg.name}`, problems.join("\n"));
  for (const [tool, args] of [
    ["publint", [dir, "--strict"]],
    ["attw", ["--pack", dir, "--format", "table-flipped"]],
  ]) {
    try {
      execFileSync(bin(tool), args, { stdio: "pipe", encoding: "utf8" });
      report(true, `${tool} ${pkg.name}`);
    } catch (error) {
      report(false, `${tool} ${pkg.name}`, `${error.stdout}${error.stderr}`);
    }
  }
}
process.exitCode = failed > 0 ? 1 : 0;
