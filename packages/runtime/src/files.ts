/** Reading UTF-8 files within a size limit, from regular files only (Node). */
import { closeSync, constants, fstatSync, openSync, readSync, type Stats } from "node:fs";
import { open } from "node:fs/promises";
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
  const fd = openSync(path, OPEN_FLAGS);
  try {
    const bytes = collector(path, maxBytes);
    for (let size = firstRead(path, fstatSync(fd), maxBytes); ; size = NEXT_READ) {
      const chunk = new Uint8Array(size);
      if (!bytes.add(chunk, readSync(fd, chunk, 0, size, null))) break;
    }
    return decodeUtf8(bytes.all(), options.file ?? path);
  } finally {
    closeSync(fd);
  }
}

/** `readTextFileSync` without blocking the event loop. */
export async function readTextFile(path: string, options: ReadFileOptions = {}): Promise<string> {
  const maxBytes = options.maxBytes ?? DEFAULT_MAX_FILE_BYTES;
  const handle = await open(path, OPEN_FLAGS);
  try {
    const bytes = collector(path, maxBytes);
    for (let size = firstRead(path, await handle.stat(), maxBytes); ; size = NEXT_READ) {
      const chunk = new Uint8Array(size);
      if (!bytes.add(chunk, (await handle.read(chunk, 0, size, null)).bytesRead)) break;
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

// Opening a FIFO for reading waits for a writer, possibly forever; without waiting, the check
// below refuses it. (Windows has no O_NONBLOCK, and no FIFOs in its file system.)
const OPEN_FLAGS = constants.O_RDONLY | (constants.O_NONBLOCK ?? 0);
const NEXT_READ = 64 * 1024;

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

/** The chunks read so far; `add` is false at the end of the file and throws past `maxBytes`. */
function collector(path: string, maxBytes: number) {
  const chunks: Uint8Array[] = [];
  let total = 0;
  return {
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
