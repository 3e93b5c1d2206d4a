import { createHash } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { repoRoot } from "./support.js";

const schemas = join(repoRoot, "schemas");
const manifest = JSON.parse(readFileSync(join(schemas, "manifest.json"), "utf8")) as {
  files: { file: string; spec: string; version: string; origin: string; seed?: string; sha256: string }[];
};
const onDisk = (readdirSync(schemas, { recursive: true }) as string[])
  .map((p) => p.split("\\").join("/"))
  .filter((p) => p.endsWith(".json") && p !== "manifest.json")
  .sort();

describe("schemas/manifest.json", () => {
  it("lists every schema file, and only those", () => {
    expect(manifest.files.map((f) => f.file).sort()).toEqual(onDisk);
  });

  it.each(manifest.files)("$file has the recorded sha256", ({ file, sha256 }) => {
    expect(createHash("sha256").update(readFileSync(join(schemas, file))).digest("hex")).toBe(sha256);
  });

  it.each(manifest.files.filter((f) => f.origin === "seed"))("$file is the seed's schema text, byte for byte", ({ file, seed }) => {
    const seedText = readFileSync(join(repoRoot, "..", "shared", "seeds", seed!), "utf8");
    const schemaText = readFileSync(join(schemas, file), "utf8");
    expect(schemaText.length).toBeGreaterThan(1000);
    expect(seedText.includes(schemaText)).toBe(true);
  });

  it("records a spec, version and origin for each file", () => {
    for (const entry of manifest.files) {
      expect(entry.file.startsWith(`${entry.spec}/`)).toBe(true);
      expect(entry.version).toBeTruthy();
      expect(["seed", "project", "companion, provisional", "project, provisional"]).toContain(entry.origin);
    }
  });
});
