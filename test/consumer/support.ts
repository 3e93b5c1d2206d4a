import { execFile } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { delimiter, dirname, join } from "node:path";
import { repoRoot } from "../support.js";

/** What a finished child process left: its exit code (null when killed), stdout and stderr. */
export interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * The environment of a user's shell: without what `npm test` adds for its scripts. npm's
 * `npm_config_local_prefix` would point a nested npm at this repository, and the repository's
 * `node_modules/.bin` on PATH would let `npx flowspec` run the workspace's bin, not the installed one.
 */
export function userEnv(): NodeJS.ProcessEnv {
  const keep = new Set(["npm_config_cache", "npm_config_registry", "npm_config_userconfig"]);
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) {
    if ((/^npm_/i.test(key) && !keep.has(key.toLowerCase())) || key === "INIT_CWD") continue;
    env[key] = value;
  }
  env.PATH = (process.env.PATH ?? "")
    .split(delimiter)
    .filter((entry) => !/[\\/]node_modules[\\/]\.bin$/.test(entry))
    .join(delimiter);
  return env;
}

/** Runs a command to its end (never throws for a non-zero exit: tests assert on the Run). */
export function run(command: string, args: readonly string[], options: { cwd: string; timeoutMs?: number }): Promise<Run> {
  return new Promise((resolve, reject) => {
    execFile(command, args, { cwd: options.cwd, env: userEnv(), encoding: "utf8", maxBuffer: 64 * 1024 * 1024, timeout: options.timeoutMs ?? 180_000 }, (error, stdout, stderr) => {
      if (error && typeof error.code !== "number" && !error.killed) return reject(error);
      resolve({ code: error ? (typeof error.code === "number" ? error.code : null) : 0, stdout, stderr });
    });
  });
}

/** A Run's output, for assertion messages. */
export function shown(result: Run): string {
  return `exit ${result.code}\n--- stdout\n${result.stdout}\n--- stderr\n${result.stderr}`;
}

/** One package as the consumer project installed it from its tarball. */
export interface InstalledPackage {
  name: string;
  version: string;
  /** The installed (packed) package.json. */
  manifest: { bin?: Record<string, string>; exports: Record<string, unknown> } & Record<string, unknown>;
  /** Every entry point of its exports map, as an import specifier (`@flowspec/x`, `@flowspec/x/validate`). */
  entries: string[];
}

export interface ConsumerProject {
  /** A scratch project outside the repository (`"type"` unset: CommonJS, npm's default). */
  dir: string;
  packages: InstalledPackage[];
  /** Every entry point of every package. */
  entries: string[];
}

/** The tools a user would install beside the packages, at the versions of this repository's lockfile (so npm's cache has them). */
const TOOLS = ["typescript", "@types/node", "esbuild", "tsx"];

/**
 * Packs every publishable workspace package with `npm pack` (the files `npm publish` would send)
 * and installs the tarballs, with a few tools, into a new project in the OS temp folder, from the
 * registry for third-party dependencies (npm's cache is warm after `npm ci`).
 */
export async function installConsumerProject(): Promise<ConsumerProject> {
  const dir = mkdtempSync(join(tmpdir(), "flowspec-consumer-"));
  const tarballs = join(dir, ".tarballs");
  mkdirSync(tarballs);
  const root = readJson(join(repoRoot, "package.json")) as { workspaces: string[] };
  const publishable = root.workspaces.filter((workspace) => !(readJson(join(repoRoot, workspace, "package.json")) as { private?: boolean }).private);
  const pack = await run("npm", ["pack", "--json", "--pack-destination", tarballs, ...publishable.flatMap((workspace) => ["-w", workspace])], { cwd: repoRoot });
  if (pack.code !== 0) throw new Error(`npm pack failed\n${shown(pack)}`);
  const packed = JSON.parse(pack.stdout) as { name: string; filename: string }[];

  writeFileSync(join(dir, "package.json"), JSON.stringify({ name: "flowspec-consumer", version: "0.0.0", private: true }, null, 2));
  const tools = TOOLS.map((name) => `${name}@${(readJson(join(repoRoot, "node_modules", name, "package.json")) as { version: string }).version}`);
  const install = await run("npm", ["install", "--prefer-offline", "--no-audit", "--no-fund", ...packed.map((p) => join(tarballs, p.filename)), ...tools], { cwd: dir, timeoutMs: 300_000 });
  if (install.code !== 0) throw new Error(`npm install of the packed tarballs failed\n${shown(install)}`);

  // Every @flowspec package must come from a tarball of this run: a registry copy would test someone else's code.
  const lock = readJson(join(dir, "package-lock.json")) as { packages: Record<string, { resolved?: string }> };
  const fromElsewhere = Object.entries(lock.packages).filter(([path, entry]) => /node_modules\/@flowspec\//.test(path) && !entry.resolved?.startsWith("file:"));
  if (fromElsewhere.length > 0) throw new Error(`not installed from this run's tarballs: ${fromElsewhere.map(([path, entry]) => `${path} (${entry.resolved})`).join(", ")}`);

  const packages = packed.map(({ name }) => {
    const manifest = readJson(join(dir, "node_modules", name, "package.json")) as InstalledPackage["manifest"];
    const entries = Object.keys(manifest.exports)
      .filter((subpath) => subpath !== "./package.json")
      .map((subpath) => (subpath === "." ? name : `${name}${subpath.slice(1)}`));
    return { name, version: manifest.version as string, manifest, entries };
  });
  return { dir, packages, entries: packages.flatMap((p) => p.entries) };
}

/** Writes files (path relative to `dir` → text), creating folders as needed. */
export function writeFiles(dir: string, files: Record<string, string>): void {
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
}

export function readJson(path: string): unknown {
  return JSON.parse(readFileSync(path, "utf8"));
}
