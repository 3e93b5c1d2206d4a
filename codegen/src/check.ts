import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { createTwoFilesPatch } from "diff";
import type { GeneratedFile } from "./emit.js";
import { withLf } from "@flowspec/schema-diff/schema-files";

export interface DriftReport {
  /** True when the files on disk are exactly what codegen generates. */
  upToDate: boolean;
  changed: string[];
  missing: string[];
  /** Files in the output folder that codegen no longer generates. */
  extra: string[];
  /** A unified diff (disk → generated) of every changed, missing and extra file. */
  diff: string;
}

/** Compares generated files with an output folder without writing anything. */
export function checkDrift(files: readonly GeneratedFile[], outDir: string): DriftReport {
  const expected = new Map(files.map((file) => [file.path, file.content]));
  const onDisk = existsSync(outDir) ? listFiles(outDir) : [];
  const changed: string[] = [];
  const missing: string[] = [];
  const patches: string[] = [];
  for (const [path, content] of expected) {
    const full = join(outDir, path);
    if (!existsSync(full)) {
      missing.push(path);
      patches.push(createTwoFilesPatch(`a/${path}`, `b/${path}`, "", content));
      continue;
    }
    const current = withLf(readFileSync(full, "utf8"));
    if (current !== content) {
      changed.push(path);
      patches.push(createTwoFilesPatch(`a/${path}`, `b/${path}`, current, content));
    }
  }
  const extra = onDisk.filter((path) => !expected.has(path));
  for (const path of extra) patches.push(createTwoFilesPatch(`a/${path}`, `b/${path}`, readFileSync(join(outDir, path), "utf8"), ""));
  return { upToDate: changed.length + missing.length + extra.length === 0, changed, missing, extra, diff: patches.join("\n") };
}

/** Writes generated files, removing files of the folder that are no longer generated. */
export function writeGenerated(files: readonly GeneratedFile[], outDir: string): void {
  const expected = new Set(files.map((file) => file.path));
  if (existsSync(outDir)) for (const path of listFiles(outDir)) if (!expected.has(path)) rmSync(join(outDir, path));
  for (const file of files) {
    const full = join(outDir, file.path);
    mkdirSync(dirname(full), { recursive: true });
    if (!existsSync(full) || withLf(readFileSync(full, "utf8")) !== file.content) writeFileSync(full, file.content);
  }
}

function listFiles(dir: string, prefix = ""): string[] {
  return readdirSync(dir, { withFileTypes: true })
    .flatMap((entry) =>
      entry.isDirectory() ? listFiles(join(dir, entry.name), `${prefix}${entry.name}/`) : entry.isFile() ? [`${prefix}${entry.name}`] : [],
    )
    .sort();
}
