import * as fs from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it, vi } from "vitest";
import { readTextFileSync } from "../src/files.js";

// readSync, counted: each read is a system call, and `flowspec validate` reads thousands of files.
// The reader takes node:fs from process.getBuiltinModule when it reads, so a spy on that object counts.
const readSync = vi.spyOn(process.getBuiltinModule("node:fs"), "readSync");

const dir = fs.mkdtempSync(join(tmpdir(), "flowspec-reads-"));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

describe("readTextFileSync, in system calls", () => {
  it("reads a regular file whose size it knows in one read", () => {
    const file = join(dir, "small.json");
    fs.writeFileSync(file, '{"a": 1}\n');
    readSync.mockClear();
    expect(readTextFileSync(file)).toBe('{"a": 1}\n');
    expect(readSync).toHaveBeenCalledTimes(1);
  });

  it("reads on until the end when the file says it is empty (as /proc files do)", () => {
    readSync.mockClear();
    const text = readTextFileSync("/proc/self/status");
    expect(text).toMatch(/^Name:/);
    expect(readSync.mock.calls.length).toBeGreaterThan(1);
  });

  it("keeps nothing of one file in the next, whatever their sizes", () => {
    const long = join(dir, "long.json");
    const short = join(dir, "short.json");
    const large = join(dir, "large.json");
    fs.writeFileSync(long, `"${"x".repeat(5000)}"`);
    fs.writeFileSync(short, "1");
    fs.writeFileSync(large, `"${"y".repeat(200_000)}"`);
    expect(readTextFileSync(long)).toHaveLength(5002);
    expect(readTextFileSync(short)).toBe("1");
    expect(readTextFileSync(large)).toBe(`"${"y".repeat(200_000)}"`);
    expect(readTextFileSync(short)).toBe("1");
  });

  it("reads an empty file in one read", () => {
    const file = join(dir, "empty.json");
    fs.writeFileSync(file, "");
    readSync.mockClear();
    expect(readTextFileSync(file)).toBe("");
    expect(readSync).toHaveBeenCalledTimes(1);
  });
});
