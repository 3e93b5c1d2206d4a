import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import fc from "fast-check";
import { decodeUtf8, DocumentParseError } from "@flowspec/runtime";
import { DEFAULT_MAX_FILE_BYTES, FileTooLargeError, NotAFileError, readTextFile, readTextFileSync } from "@flowspec/runtime/files";
import { firstInvalidUtf8 } from "../src/utf8.js";

const dir = mkdtempSync(join(tmpdir(), "flowspec-files-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const file = (name: string, content: string | Uint8Array) => {
  const path = join(dir, name);
  writeFileSync(path, content);
  return path;
};

/** What each reader throws (or returns) for `path`: the sync and the async one must agree. */
async function both(path: string, options?: Parameters<typeof readTextFileSync>[1]): Promise<unknown[]> {
  const outcome = (run: () => unknown) => {
    try {
      return run();
    } catch (error) {
      return error;
    }
  };
  return [outcome(() => readTextFileSync(path, options)), await readTextFile(path, options).catch((error: unknown) => error)];
}

describe("readTextFileSync and readTextFile", () => {
  it("read a UTF-8 file, without its byte order mark", async () => {
    expect(await both(file("bom.yaml", "\uFEFFname: café\n"))).toEqual(["name: café\n", "name: café\n"]);
    expect(await both(file("empty.json", ""))).toEqual(["", ""]);
  });

  it("stop at maxBytes, with a typed error that names the limit", async () => {
    const path = file("big.json", "x".repeat(2000));
    expect(await both(path, { maxBytes: 2000 })).toEqual(["x".repeat(2000), "x".repeat(2000)]);
    for (const error of await both(path, { maxBytes: 1999 })) {
      expect(error).toBeInstanceOf(FileTooLargeError);
      expect(error).toMatchObject({ path, maxBytes: 1999, message: `${path}: larger than the limit of 1999 bytes` });
    }
    expect(DEFAULT_MAX_FILE_BYTES).toBe(128 * 1024 * 1024);
  });

  it.skipIf(process.platform === "win32")("refuse a device without reading it, and a FIFO without waiting for a writer", async () => {
    // /dev/zero never ends: reading it until the limit would take the limit's worth of memory.
    for (const error of await both("/dev/zero")) {
      expect(error).toBeInstanceOf(NotAFileError);
      expect(error).toMatchObject({ kind: "character device", message: "/dev/zero: a character device, not a regular file" });
    }
    const fifo = join(dir, "pipe.yaml");
    execFileSync("mkfifo", [fifo]);
    for (const error of await both(fifo)) expect(error).toMatchObject({ name: "NotAFileError", kind: "FIFO", reason: "a FIFO, not a regular file" });
  });

  it("count the bytes while reading: a file that says it is empty (as /proc files do) is still capped", async () => {
    const proc = "/proc/self/status";
    if (process.platform !== "linux") return;
    const [text] = await both(proc);
    expect(text).toMatch(/^Name:/);
    for (const error of await both(proc, { maxBytes: 10 })) expect(error).toBeInstanceOf(FileTooLargeError);
  });

  it("fail as Node does for a missing file and a folder", async () => {
    for (const error of await both(join(dir, "missing.json"))) expect(error).toMatchObject({ code: "ENOENT" });
    for (const error of await both(dir)) expect(error).toMatchObject({ code: "EISDIR" });
  });

  it("refuse bytes that are not UTF-8, at the line and column of the first, under the name given", async () => {
    const path = file("latin1.yaml", Uint8Array.from([...new TextEncoder().encode("name: ok\nnote: caf"), 0xe9, 0x0a]));
    for (const error of await both(path, { file: "latin1.yaml" })) {
      expect(error).toBeInstanceOf(DocumentParseError);
      expect((error as Error).message).toBe("latin1.yaml:2:10: invalid UTF-8 (byte 0xE9 at byte offset 18)");
    }
  });
});

describe("decodeUtf8", () => {
  it.each([
    { name: "a stray continuation byte", bytes: [0x61, 0x80], at: 1 },
    { name: "an overlong slash", bytes: [0xc0, 0xaf], at: 0 },
    { name: "a surrogate", bytes: [0x61, 0x62, 0xed, 0xa0, 0x80], at: 2 },
    { name: "a code point past U+10FFFF", bytes: [0xf4, 0x90, 0x80, 0x80], at: 0 },
    { name: "a sequence cut short by the end", bytes: [0xe2, 0x82], at: 0 },
    { name: "a sequence cut short by ASCII", bytes: [0xf0, 0x9f, 0x98, 0x41], at: 0 },
  ])("refuses $name at its first byte", ({ bytes, at }) => {
    expect(firstInvalidUtf8(Uint8Array.from(bytes))).toBe(at);
    expect(() => decodeUtf8(Uint8Array.from(bytes), "x.json")).toThrow(DocumentParseError);
  });

  it("counts columns in UTF-16 units after what decodes, on the line of the bad byte", () => {
    const bytes = Uint8Array.from([...new TextEncoder().encode("a\r\n😀é"), 0xff]);
    expect(() => decodeUtf8(bytes, "x.yaml")).toThrow(/^x\.yaml:2:4: invalid UTF-8 \(byte 0xFF at byte offset 9\)$/);
  });

  it("finds the first bad byte exactly where the standard decoder first gives up (property)", () => {
    const strict = new TextDecoder("utf-8", { fatal: true });
    const lenient = new TextDecoder("utf-8");
    // Mostly valid text with a few arbitrary bytes spliced in, so both outcomes are common.
    const bytes = fc
      .tuple(fc.string({ unit: "binary", maxLength: 20 }), fc.uint8Array({ maxLength: 4 }), fc.string({ unit: "binary", maxLength: 20 }))
      .map(([before, noise, after]) => Uint8Array.from([...new TextEncoder().encode(before), ...noise, ...new TextEncoder().encode(after)]));
    fc.assert(
      fc.property(bytes, (input) => {
        const at = firstInvalidUtf8(input);
        let valid = true;
        try {
          strict.decode(input);
        } catch {
          valid = false;
        }
        expect(at === input.length).toBe(valid);
        if (valid) return;
        // The prefix decodes cleanly, and a lenient decoder puts its first U+FFFD right after it.
        expect(() => strict.decode(input.subarray(0, at))).not.toThrow();
        const prefix = lenient.decode(input.subarray(0, at));
        expect(lenient.decode(input).slice(0, prefix.length + 1)).toBe(prefix + "\uFFFD");
      }),
      { numRuns: 2000 },
    );
  });
});
