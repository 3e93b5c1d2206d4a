/** Reading UTF-8 files within a size limit, from regular files only (Node). */
import type { Stats } from "node:fs";
import { isErrorInstance } from "./error-brand.js";
import { concatBytes } from "./read-limited.js";
import { decodeUtf8 } from "./utf8.js";

/** The default `maxBytes` of the file readers: far above any real document, far below what exhausts memory. */
export const DEFAULT_MAX_FILE_BYTES = 128 * 1024 * 1024;

export interface ReadFileOptions {
  /** Largest file accepted, in bytes (default `DEFAULT_MAX_FILE_BYTES`, 128 MiB). */
  maxBytes?: number;
  /** The name that errors and locations give the file (default: `path`). */
  file?: string;
}

/** A file that holds more than the reader's `maxBytes`; reading stopped there. */
export class FileTooLargeError extends Error {
  static readonly "~brand": string = "@flowspec/runtime:FileTooLargeError";
  static override [Symbol.hasInstance](value: unknown): boolean {
    return isErrorInstance(this, value);
  }
  override name = "FileTooLargeError";
  /** Says what went wrong without the file name, for messages that name it already. */
  readonly reason: string;
  constructor(
    readonly path: string,
    readonly maxBytes: number,
  ) {
    const reason = `larger than the limit of ${maxBytes} bytes`;
    super(`${path}: ${reason}`);
    this.reason = reason;
  }
}

/** A path that names a FIFO, a device or a socket: reading it could block forever or never end. */
export class NotAFileError extends Error {
  static readonly "~brand": string = "@flowspec/runtime:NotAFileError";
  static override [Symbol.hasInstance](value: unknown): boolean {
    return isErrorInstance(this, value);
  }
  override name = "NotAFileError";
  readonly reason: string;
  constructor(
    readonly path: string,
    readonly kind: "FIFO" | "character device" | "block device" | "socket",
  ) {
    const reason = `a ${kind}, not a regular file`;
    super(`${path}: ${reason}`);
    this.reason = reason;
  }
}

/**
 * Reads a UTF-8 text file: at most `maxBytes`, counted while reading (a file that grows, or that
 * says it is empty as /proc files do, cannot slip past), from a regular file only. Throws
 * `FileTooLargeError`, `NotAFileError`, `DocumentParseError` at the line and column of the first
 * byte that is not UTF-8, or the error Node gives (ENOENT, EISDIR for a directory…).
 */
export function readTextFileSync(path: string, options: ReadFileOptions = {}): string {
  const maxBytes = options.maxBytes ?? DEFAULT_MAX_FILE_BYTES;
  const { closeSync, fstatSync, openSync, readSync } = nodeFs();
  const fd = openSync(path, openFlags());
  try {
    const stats = fstatSync(fd);
    const bytes = collector(path, maxBytes);
    for (let size = firstRead(path, stats, maxBytes); ; size = NEXT_READ) {
      // A first read that fits goes into the scratch buffer: decoding copies the text out before
      // the next call reuses it, and any later chunk of this file gets a buffer of its own.
      const chunk = bytes.empty() && size <= SCRATCH_BYTES ? (scratch ??= new Uint8Array(SCRATCH_BYTES)) : new Uint8Array(size);
      const read = readSync(fd, chunk, 0, size, null);
      if (!bytes.add(chunk, read) || endsShort(stats, read, size)) break;
    }
    return decodeUtf8(bytes.all(), options.file ?? path);
  } finally {
    closeSync(fd);
  }
}

/** `readTextFileSync` without blocking the event loop. */
export async function readTextFile(path: string, options: ReadFileOptions = {}): Promise<string> {
  const maxBytes = options.maxBytes ?? DEFAULT_MAX_FILE_BYTES;
  const handle = await nodeFs().promises.open(path, openFlags());
  try {
    const stats = await handle.stat();
    const bytes = collector(path, maxBytes);
    for (let size = firstRead(path, stats, maxBytes); ; size = NEXT_READ) {
      const chunk = new Uint8Array(size);
      const read = (await handle.read(chunk, 0, size, null)).bytesRead;
      if (!bytes.add(chunk, read) || endsShort(stats, read, size)) break;
    }
    return decodeUtf8(bytes.all(), options.file ?? path);
  } finally {
    await handle.close();
  }
}

/**
 * Why a file could not be read, without its path (for messages that name it already): the reason
 * of a `FileTooLargeError` or `NotAFileError`, Node's code (`ENOENT`, `EISDIR`…), else the message.
 */
export function unreadableReason(error: unknown): string {
  if (error instanceof FileTooLargeError || error instanceof NotAFileError) return error.reason;
  return (error as NodeJS.ErrnoException).code ?? (error as Error).message;
}

// Through process.getBuiltinModule, not an import: a browser bundle of a package that reads files
// only in Node (agents.json's loadFile, StepFlow's /builtin/load_file) must not have to resolve node:fs.
// Kept once found: asking for it per file cost more than the close of the file.
let fs: typeof import("node:fs") | undefined;
const nodeFs = () => (fs ??= process.getBuiltinModule("node:fs"));

// Opening a FIFO for reading waits for a writer, possibly forever; without waiting, the check
// below refuses it. (Windows has no O_NONBLOCK, and no FIFOs in its file system.)
let flags: number | undefined;
function openFlags(): number {
  const { constants } = nodeFs();
  return (flags ??= constants.O_RDONLY | (constants.O_NONBLOCK ?? 0));
}
const NEXT_READ = 64 * 1024;

/**
 * The sync reader's first read of a file up to this size lands in one buffer kept between calls:
 * a fresh zeroed buffer per file cost more than the read (`flowspec validate` reads thousands).
 */
const SCRATCH_BYTES = 64 * 1024;
let scratch: Uint8Array | undefined;

/**
 * How many bytes to ask for first: the whole file and one byte more (which finds a file that grew)
 * in one read, within the limit. Refuses what is not a regular file; a directory is left to fail
 * with EISDIR, as Node's readFile fails.
 */
function firstRead(path: string, stats: Stats, maxBytes: number): number {
  const kind = stats.isFIFO() ? "FIFO" : stats.isCharacterDevice() ? "character device" : stats.isBlockDevice() ? "block device" : stats.isSocket() ? "socket" : undefined;
  if (kind) throw new NotAFileError(path, kind);
  return Math.max(1, Math.min(stats.size, maxBytes) + 1);
}

/**
 * Whether a read that gave fewer bytes than asked was the end of the file: so for a regular file
 * that states its size (the first read asks for one byte more, which finds a file that grew), and
 * the read that would find nothing more is saved (thousands of files for `flowspec validate`). A
 * file that says it is empty (as /proc files do) is read on until a read gives nothing.
 */
function endsShort(stats: Stats, read: number, asked: number): boolean {
  return read < asked && stats.isFile() && stats.size > 0;
}

/** The chunks read so far; `add` is false at the end of the file and throws past `maxBytes`. */
function collector(path: string, maxBytes: number) {
  const chunks: Uint8Array[] = [];
  let total = 0;
  return {
    empty: (): boolean => chunks.length === 0,
    add(chunk: Uint8Array, read: number): boolean {
      if (read === 0) return false;
      total += read;
      if (total > maxBytes) throw new FileTooLargeError(path, maxBytes);
      chunks.push(chunk.subarray(0, read));
      return true;
    },
    all: (): Uint8Array => (chunks.length === 1 ? chunks[0]! : concatBytes(chunks, total)),
  };
}
