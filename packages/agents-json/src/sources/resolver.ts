import { decodeUtf8, DocumentParseError, readUpTo } from "@flowspec/runtime";
import { SourceResolutionError } from "../errors.js";

/** The text of a source document and where it was read from. */
export interface SourceText {
  text: string;
  /** The absolute location (file path or URL) the text stands for; relative `$ref`s resolve against it. */
  location: string;
  /**
   * The local file the text was read from when it is not `location` (a source sent to a file by
   * the `map`): its extension picks the format and syntax errors name it.
   */
  file?: string;
  /** The HTTP `Content-Type`, when the text was fetched. */
  contentType?: string;
}

/** Reads source documents (OpenAPI files and their external `$ref`s). Supply your own for other storage. */
export interface SourceResolver {
  /**
   * `referrer` is the location of the document that named `location`, when known. The default
   * resolver refuses to read a local file (unless mapped) for a document that came from a URL.
   */
  read(location: string, request?: { sourceId?: string; path?: string; referrer?: string }): Promise<SourceText>;
}

export interface SourceResolverOptions {
  /**
   * Sends a source to a local file instead: keys are source ids, source paths as written, or
   * resolved locations (URLs); values are file paths. This is how tests run offline.
   */
  map?: Record<string, string>;
  /** Fetch http(s) URLs. Off by default: only local files (and `map`) are read. */
  allowUrls?: boolean;
  /** With `allowUrls`, the origins (`https://host[:port]`) that may be fetched; empty or absent means any. */
  allowedOrigins?: readonly string[];
  /** Per-request timeout for fetched sources (default 10 000 ms). */
  timeoutMs?: number;
  /** Largest source accepted, in bytes (default 10 MiB), for files and URLs. */
  maxBytes?: number;
  fetch?: typeof fetch;
  /**
   * Reads a local file (default: the runtime's `readTextFile`, loaded on first use, which refuses
   * FIFOs and devices, stops at `maxBytes` while reading, and refuses bytes that are not UTF-8).
   */
  readFile?: (path: string) => Promise<string>;
}

const URL_SCHEME = /^[a-z][a-z0-9+.-]*:\/\//i;

export function isUrl(location: string): boolean {
  return URL_SCHEME.test(location);
}

const HTTP_URL = /^https?:\/\//i;

/** Whether a location is an http(s) URL, that is, a document from the network. */
export function isHttpUrl(location: string): boolean {
  return HTTP_URL.test(location);
}

/**
 * Resolves a source path against the location of the document that names it (§4.2). Against a
 * URL every path resolves as a URL reference does: `/etc/x` is a path on the same origin, not a file.
 */
export function resolveLocation(path: string, base: string | undefined): string {
  if (isUrl(path)) return path;
  if (base !== undefined && isUrl(base)) return new URL(path, base).href;
  if (path.startsWith("/") || /^[a-z]:[\\/]/i.test(path)) return path;
  if (base === undefined) return path;
  const slash = Math.max(base.lastIndexOf("/"), base.lastIndexOf("\\"));
  return slash < 0 ? path : `${base.slice(0, slash + 1)}${path}`;
}

/** A file path for a `file://` URL, else the location unchanged. */
export function filePathOf(location: string): string {
  return location.startsWith("file://") ? decodeURIComponent(new URL(location).pathname) : location;
}

/**
 * The default resolver: local files (and the `map`), and http(s) URLs only when `allowUrls` is set,
 * within the allow-list, the timeout and the size limit.
 */
export function createSourceResolver(options: SourceResolverOptions = {}): SourceResolver {
  const maxBytes = options.maxBytes ?? 10 * 1024 * 1024;
  const timeoutMs = options.timeoutMs ?? 10_000;
  const readFile = options.readFile ?? (async (path: string) => (await import("@flowspec/runtime/files")).readTextFile(path, { maxBytes }));
  const map = options.map ?? {};
  return {
    async read(location, request = {}) {
      const mapped = [request.sourceId, request.path, location].find((key) => key !== undefined && Object.hasOwn(map, key));
      if (mapped !== undefined) return { text: await readLocal(map[mapped]!), location, file: map[mapped]! };
      if (isHttpUrl(location)) return fetchText(location);
      if (request.referrer !== undefined && isHttpUrl(request.referrer)) {
        throw new SourceResolutionError(`${request.referrer} names ${location}: a document from a URL cannot read local files (map the source to a file instead)`);
      }
      if (isUrl(location) && !location.startsWith("file://")) {
        throw new SourceResolutionError(`cannot read ${location}: only files and http(s) URLs are supported`);
      }
      return { text: await readLocal(filePathOf(location)), location };
    },
  };

  async function readLocal(path: string): Promise<string> {
    try {
      const text = await readFile(path);
      if (text.length > maxBytes) throw new SourceResolutionError(`${path} is over the ${maxBytes}-byte limit`);
      return text;
    } catch (error) {
      // Bytes that are not UTF-8 are the document's fault, with a line and column: not wrapped.
      if (error instanceof SourceResolutionError || error instanceof DocumentParseError) throw error;
      // FileTooLargeError and NotAFileError say why without the path.
      const why = (error as { reason?: string }).reason ?? (error as NodeJS.ErrnoException).code ?? (error as Error).message;
      throw new SourceResolutionError(`cannot read ${path}: ${why}`, { cause: error });
    }
  }

  async function fetchText(url: string): Promise<SourceText> {
    if (!options.allowUrls) {
      throw new SourceResolutionError(
        `${url} is a URL and URL fetching is off: map it to a local file (resolver map) or set allowUrls (with allowedOrigins)`,
      );
    }
    const allowed = options.allowedOrigins && options.allowedOrigins.length > 0 ? options.allowedOrigins : undefined;
    const checkOrigin = (target: string, via?: string) => {
      const origin = new URL(target).origin;
      if (allowed && !allowed.includes(origin)) {
        throw new SourceResolutionError(`${via ? `${via}: redirect to ${target}` : target}: origin ${origin} is not in allowedOrigins (${allowed.join(", ")})`);
      }
    };
    checkOrigin(url);
    const doFetch = options.fetch ?? fetch;
    const signal = AbortSignal.timeout(timeoutMs);
    let response: Response;
    let location = url;
    // With an allow-list, redirects are followed by hand so that each hop's origin is checked before it is fetched.
    for (let hops = 0; ; hops++) {
      try {
        response = await doFetch(location, { signal, redirect: allowed ? "manual" : "follow" });
      } catch (error) {
        throw new SourceResolutionError(`cannot fetch ${location}: ${(error as Error).message}`, { cause: error });
      }
      const next = allowed && response.status >= 300 && response.status < 400 ? response.headers.get("location") : null;
      if (next === null) break;
      if (hops >= 10) throw new SourceResolutionError(`cannot fetch ${url}: too many redirects`);
      await response.body?.cancel();
      const target = new URL(next, location).href;
      checkOrigin(target, location);
      location = target;
    }
    if (!response.ok) throw new SourceResolutionError(`cannot fetch ${url}: HTTP ${response.status}`);
    const declared = Number(response.headers.get("content-length") ?? "0");
    if (declared > maxBytes) throw new SourceResolutionError(`${url} is ${declared} bytes, over the ${maxBytes}-byte limit`);
    const text = await readLimited(response, maxBytes, url);
    const contentType = response.headers.get("content-type");
    return { text, location: response.url || location, ...(contentType ? { contentType } : {}) };
  }
}

/** Reads a response body as UTF-8 text, failing once it passes `maxBytes` (and at the first byte that is not UTF-8). */
async function readLimited(response: Response, maxBytes: number, what: string): Promise<string> {
  return decodeUtf8(await readUpTo(response, maxBytes, () => new SourceResolutionError(`${what} is over the ${maxBytes}-byte limit`)), what);
}
