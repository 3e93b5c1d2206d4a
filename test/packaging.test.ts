import { execFileSync } from "node:child_process";
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, join, relative, sep } from "node:path";
import { describe, expect, it } from "vitest";
import { run, shown } from "./consumer/support.js";
import { withoutIndentation } from "../scripts/tsup-standalone-entry.js";
import { repoRoot } from "./support.js";

// These tests load the built packages (dist/) through plain Node, as a user's program would:
// `npm test` builds before it runs them.
const PACKAGES = {
  "@flowspec/stepflow": ["validateFlow", { schema: "https://stepflow.org/schemas/v1/flow.json", steps: [] }],
  "@flowspec/agents-json": ["validateAgentsJson", { agentsJson: "0.1.0", info: { title: "t", version: "1", description: "d" }, sources: [], flows: [] }],
  "@flowspec/apflow": ["validateTask", { id: "0b6f3a4e-8c1d-4f2a-9e3b-5d7c1a2b3c4d", name: "t", status: "pending", created_at: "2025-01-01T00:00:00Z" }],
  "@flowspec/agent-service": ["validateCreateRunCommand", { resourceType: "tool", resourceId: "t", input: { mode: "tool", arguments: {} } }],
} as const;

/** ajv's compiler: loading any of these would mean a schema is compiled at run time. */
const COMPILER = String.raw`/ajv[\\/]dist[\\/](core|ajv|2019|2020|jtd|compile[\\/])`;

function runNode(kind: "esm" | "cjs", pkg: string, fn: string, doc: unknown): { ok: boolean; valid: boolean; compiler: string[] } {
  const body = `
    const result = m[${JSON.stringify(fn)}](${JSON.stringify(doc)});
    const schema = m[${JSON.stringify(fn.replace(/^validate/, "") + "Schema")}];
    const loaded = Object.keys(req.cache).filter((p) => new RegExp(${JSON.stringify(COMPILER)}).test(p));
    console.log(JSON.stringify({ ok: typeof schema["~standard"].validate === "function", valid: result.ok, compiler: loaded }));`;
  const script =
    kind === "esm"
      ? `import * as m from ${JSON.stringify(pkg)}; import { createRequire } from "node:module"; const req = createRequire(import.meta.url); ${body}`
      : `const m = require(${JSON.stringify(pkg)}); const req = require; ${body}`;
  const out = execFileSync(process.execPath, kind === "esm" ? ["--input-type=module", "-e", script] : ["-e", script], { cwd: repoRoot, encoding: "utf8" });
  return JSON.parse(out);
}

describe.each(["esm", "cjs"] as const)("the built packages under plain Node (%s)", (kind) => {
  it("are built", () => {
    for (const dir of ["runtime", "stepflow", "agents-json", "apflow", "agent-service", "cli"]) {
      expect(existsSync(join(repoRoot, "packages", dir, "dist", "index.js")), `packages/${dir}/dist is missing: run npm run build`).toBe(true);
    }
  });

  it.each(Object.entries(PACKAGES))("%s imports, validates, and loads no ajv compiler", (pkg, [fn, doc]) => {
    expect(runNode(kind, pkg, fn, doc)).toEqual({ ok: true, valid: true, compiler: [] });
  });
});

/**
 * The files Node loads for `specifier`, in load order, relative to the repository. ESM: a load hook
 * reports each URL (hooks run on their own thread in Node 20, so they report over a port).
 */
function loadedFiles(kind: "esm" | "cjs", specifier: string): string[] {
  const hooks = `export function initialize({ port }) { globalThis.port = port; }
    export async function load(url, context, next) { globalThis.port.postMessage(url); return next(url, context); }`;
  const script =
    kind === "esm"
      ? `import { register } from "node:module"; import { MessageChannel } from "node:worker_threads"; import { fileURLToPath } from "node:url";
        const { port1, port2 } = new MessageChannel(); const loaded = []; port1.on("message", (url) => loaded.push(url));
        register("data:text/javascript," + encodeURIComponent(${JSON.stringify(hooks)}), { data: { port: port2 }, transferList: [port2] });
        await import(${JSON.stringify(specifier)});
        await new Promise((done) => setTimeout(done, 100)); port1.close();
        console.log(JSON.stringify(loaded.filter((url) => url.startsWith("file:")).map((url) => fileURLToPath(url))));`
      : `require(${JSON.stringify(specifier)}); console.log(JSON.stringify(Object.keys(require.cache)));`;
  const out = execFileSync(process.execPath, kind === "esm" ? ["--input-type=module", "-e", script] : ["-e", script], { cwd: repoRoot, encoding: "utf8" });
  return (JSON.parse(out) as string[]).map((file) => relative(repoRoot, file).split(sep).join("/"));
}

// Each ES module costs a cold process loader work of its own, more than a small module's code
// (bench/validators): the entries a program loads to validate are one file each.
describe.each(["esm", "cjs"] as const)("start-up entries load as few files as they can (%s)", (kind) => {
  const ext = kind === "esm" ? "js" : "cjs";
  it.each(Object.keys(PACKAGES))("%s/validate is one file, and runtime's /validation another", (pkg) => {
    const dir = pkg.replace("@flowspec/", "");
    expect(loadedFiles(kind, `${pkg}/validate`)).toEqual([`packages/${dir}/dist/validate.${ext}`, `packages/runtime/dist/validation.${ext}`]);
  });

  it("@flowspec/runtime/validation is one file", () => {
    expect(loadedFiles(kind, "@flowspec/runtime/validation")).toEqual([`packages/runtime/dist/validation.${ext}`]);
  });
});

// A cold process pays for every byte of /validate (Node decodes the text, V8 scans all of it), so
// the generated validators ship with short names and no indentation (scripts/tsup-standalone-entry.ts);
// a user's bundler still sees every `@__PURE__` annotation and so keeps only the validators imported.
describe.each(["js", "cjs"] as const)("/validate ships its generated code small, for bundlers as before (.%s)", (ext) => {
  it.each(Object.keys(PACKAGES))("%s/validate: no indentation, none of ajv's long local names, every create* call annotated pure", (pkg) => {
    const code = readFileSync(join(repoRoot, "packages", pkg.replace("@flowspec/", ""), "dist", `validate.${ext}`), "utf8");
    expect(code.match(/^[ \t]+\S.*$/m)?.[0]).toBeUndefined();
    // ajv names its error list `vErrors` in every validator function.
    expect(code).not.toMatch(/\bvErrors\b/);
    const calls = code.match(/\bcreate(?:Validate|Guard|Assert|StandardSchema)\)?\(/g) ?? [];
    const pure = code.match(/\/\* @__PURE__ \*\/ (?:\(0, [\w$]+\.)?create(?:Validate|Guard|Assert|StandardSchema)\)?\(/g) ?? [];
    expect(calls.length).toBeGreaterThan(0);
    expect(pure.length).toBe(calls.length);
  });
});

describe("withoutIndentation (the /validate build step)", () => {
  it("removes each line's indentation", () => {
    expect(withoutIndentation("function f(a) {\n  if (a) {\n    return `x${a}`;\n  }\n}\n", "f.js")).toBe("function f(a) {\nif (a) {\nreturn `x${a}`;\n}\n}\n");
  });

  it("refuses code whose meaning the removal would change", () => {
    expect(() => withoutIndentation("const s = `a\n  b`;\n", "t.js")).toThrow(/t\.js: removing indentation would change the code/);
  });
});

describe("the flowspec and flowspec-codegen binaries", () => {
  it("flowspec --version runs from dist", () => {
    const out = execFileSync(process.execPath, [join(repoRoot, "packages/cli/dist/bin.js"), "--version"], { encoding: "utf8" });
    expect(out.trim()).toMatch(/^\d+\.\d+\.\d+$/);
  });

  it("flowspec-codegen --help runs from dist", () => {
    const out = execFileSync(process.execPath, [join(repoRoot, "codegen/dist/bin.js"), "--help"], { encoding: "utf8" });
    expect(out).toContain("Usage: flowspec-codegen --schemas DIR --out DIR");
  });
});

describe("a release, rehearsed on a copy of the repository", () => {
  it("changeset version bumps each package with its changelog, and npm publish --dry-run ships every package whole", async () => {
    const copy = mkdtempSync(join(tmpdir(), "flowspec-release-"));
    try {
      cpSync(repoRoot, copy, { recursive: true, filter: (source) => !["node_modules", ".git"].includes(basename(source)) });
      const declaredMajor = new Set(
        readdirSync(join(copy, ".changeset"))
          .filter((file) => file.endsWith(".md"))
          .flatMap((file) => [...readFileSync(join(copy, ".changeset", file), "utf8").matchAll(/^"([^"]+)": major$/gm)].map((m) => m[1])),
      );
      const version = await run(process.execPath, [join(repoRoot, "node_modules/@changesets/cli/bin.js"), "version"], { cwd: copy });
      expect(version.code, shown(version)).toBe(0);

      const root = JSON.parse(readFileSync(join(copy, "package.json"), "utf8")) as { workspaces: string[] };
      const manifests = root.workspaces
        .map((dir) => ({ dir, pkg: JSON.parse(readFileSync(join(copy, dir, "package.json"), "utf8")) as Manifest }))
        .filter(({ pkg }) => !pkg.private);
      for (const { dir, pkg } of manifests) {
        const released = JSON.parse(readFileSync(join(repoRoot, dir, "package.json"), "utf8")) as Manifest;
        // changesets bumps a major on its own when an internal peer dependency leaves its range: only a changeset may ask for one.
        if (!declaredMajor.has(pkg.name)) expect(pkg.version.split(".")[0], `${pkg.name} ${released.version} → ${pkg.version}: a major no changeset asked for`).toBe(released.version.split(".")[0]);
        if (pkg.version !== released.version) {
          const changelog = readFileSync(join(copy, dir, "CHANGELOG.md"), "utf8");
          const releases = changelog.match(/^## .+$/gm) ?? [];
          expect(releases[0], `${dir}/CHANGELOG.md: the new release on top`).toBe(`## ${pkg.version}`);
          // A package never released before gets one entry that says what it is, not a list of fixes to code nobody had.
          if (!existsSync(join(repoRoot, dir, "CHANGELOG.md"))) {
            expect(changelog, `${dir}/CHANGELOG.md: a "First release: …" entry`).toMatch(/^- First release: /m);
          }
        }
        for (const [name, range] of Object.entries(pkg.dependencies ?? {})) {
          const internal = manifests.find((other) => other.pkg.name === name);
          if (internal) expect(range, `${pkg.name} → ${name}`).toBe(`^${internal.pkg.version}`);
        }
      }

      const publish = await run("npm", ["publish", "--dry-run", "--offline", "--json", "--workspaces"], { cwd: copy });
      expect(publish.code, shown(publish)).toBe(0);
      expect(publish.stderr, "npm rewrote a package.json field").not.toContain("auto-corrected");
      const published = JSON.parse(publish.stdout) as Record<string, { version: string; files: { path: string }[] }>;
      expect(Object.keys(published).sort()).toEqual(manifests.map(({ pkg }) => pkg.name).sort());
      for (const { pkg } of manifests) {
        const files = new Set(published[pkg.name]!.files.map((file) => file.path));
        const needed = ["LICENSE", "README.md", "package.json", ...exportedFiles(pkg)];
        expect(needed.filter((file) => !files.has(file)), `${pkg.name}@${published[pkg.name]!.version}: files missing from the tarball`).toEqual([]);
      }
    } finally {
      rmSync(copy, { recursive: true, force: true });
    }
  }, 240_000);
});

interface Manifest {
  name: string;
  version: string;
  private?: boolean;
  dependencies?: Record<string, string>;
  bin?: Record<string, string>;
  exports?: Record<string, string | Record<string, Record<string, string>>>;
}

/** Every file a package's exports map and bins name, relative to the package. */
function exportedFiles(pkg: Manifest): string[] {
  const targets = Object.values(pkg.exports ?? {}).flatMap((target) => (typeof target === "string" ? [target] : Object.values(target).flatMap((conditions) => Object.values(conditions))));
  return [...targets, ...Object.values(pkg.bin ?? {})].map((path) => path.replace(/^\.\//, ""));
}
