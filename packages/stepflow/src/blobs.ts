/**
 * The blob store shared by a run, its nested runs, the builtins and (next) component servers
 * (protocol notes §4.3, §7.2).
 */
import { isErrorInstance, stringifyJson } from "@flowspec/runtime";

/** Thrown by `BlobStore.get` for an id that was never stored. */
export class BlobNotFoundError extends Error {
  static readonly "~brand": string = "@flowspec/stepflow:BlobNotFoundError";
  static override [Symbol.hasInstance](value: unknown): boolean {
    return isErrorInstance(this, value);
  }
  override name = "BlobNotFoundError";
  constructor(readonly blobId: string) {
    super(`no blob with id ${JSON.stringify(blobId)}`);
  }
}

export interface BlobStore {
  /** Stores a JSON value and resolves to its id (§7.2). Storing the same value twice gives the same id. */
  put(data: unknown): Promise<string>;
  /** Resolves to the stored value; rejects with `BlobNotFoundError` for an unknown id. */
  get(blobId: string): Promise<unknown>;
}

/**
 * The id of a blob: lowercase hex SHA-256 of the value as compact JSON, keys in insertion order
 * (`stringifyJson`: a `JsonFloat` keeps its `.0`, as serde_json writes a float). Equal to upstream's
 * ids except for integer-like object keys, which JavaScript orders first, and the exponent form of
 * very large or small numbers (§7.2).
 */
export async function blobId(data: unknown): Promise<string> {
  const json = stringifyJson(data) ?? "null";
  const digest = await globalThis.crypto.subtle.digest("SHA-256", new TextEncoder().encode(json));
  return Array.from(new Uint8Array(digest), (byte) => byte.toString(16).padStart(2, "0")).join("");
}

/** An in-memory blob store (the 0.2.x runtime's default). */
export function createBlobStore(): BlobStore {
  const blobs = new Map<string, unknown>();
  return {
    async put(data) {
      const id = await blobId(data);
      blobs.set(id, data);
      return id;
    },
    async get(id) {
      if (!blobs.has(id)) throw new BlobNotFoundError(id);
      return blobs.get(id);
    },
  };
}
