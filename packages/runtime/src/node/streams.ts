import { spawn, type ChildProcess } from "node:child_process";
import { accessSync, constants, statSync } from "node:fs";
import { delimiter, isAbsolute, join, resolve as resolvePath } from "node:path";
import type { Readable, Writable } from "node:stream";
import { inspect, type InspectOptions } from "node:util";
import { startTimer } from "../timer.js";
import { byteLimit } from "../jsonrpc/lines.js";
import { createLineReader, createPeer, ErrorCode, JsonRpcTransportError, type Peer, type PeerOptions, type RequestId } from "../jsonrpc/index.js";
import { isErrorInstance } from "../error-brand.js";
import { stringifyJson } from "../json-numbers.js";

const BATCH_CHARS = 4096;
/** How long `SpawnedPeer.close()` waits after SIGTERM before SIGKILL. */
const KILL_AFTER_MS = 2000;
/** How many lines of a child's stderr the error of its calls quotes when it ends. */
const STDERR_LINES = 20;
/** How long a child's end waits for its exit status and the rest of its stderr to be known. */
const END_GRACE_MS = 1000;

export interface StreamPeerOptions extends Omit<PeerOptions, "send"> {
  /** Which side this is: a server answers an oversized line with -32600; a client reports it. */
  role: "server" | "client";
  maxLineBytes?: number;
}

/**
 * A JSON-RPC peer over newline-delimited JSON: one compact message per line in each direction.
 * Every message is written whole by one writer; reading never waits for a handler.
 */
export function connectStreams(input: Readable, output: Writable, options: StreamPeerOptions): Peer {
  return connectStreamsUntil(input, output, options, closeAtEnd);
}

const closeAtEnd = (peer: Peer) => peer.close(new JsonRpcTransportError("the other side closed the connection"));

/**
 * `connectStreams`, with what to do when the input ends (`spawnPeer` first finds out why), and how
 * text goes to `output` (`serveProcessStdio`: stdout's own write, which it took from stdout).
 */
function connectStreamsUntil(
  input: Readable,
  output: Writable,
  options: StreamPeerOptions,
  inputEnded: (peer: Peer) => void,
  write: (text: string) => boolean = (text) => output.write(text),
): Peer {
  const maxLineBytes = byteLimit("maxLineBytes", options.maxLineBytes);
  // Lines sent in one turn of the event loop go out together: one system call for a batch of
  // messages instead of one each. A batch is written as soon as it reaches BATCH_CHARS, so that the
  // other side starts on it while this side is still producing (pipelining: measured best between
  // 2 and 8 KiB with 100 calls in flight; whole-turn batches left both processes idle in turn).
  let queued = "";
  // Backpressure: while the output will not take more (the other side is not reading), reading
  // input, which makes more output (answers), stops; it goes on at 'drain'. Not while this side
  // waits for answers on that input: two peers both waiting for the other to read would deadlock.
  let paused = false;
  const resume = () => {
    if (!paused) return;
    paused = false;
    input.resume();
  };
  output.on("drain", resume);
  const flush = () => {
    const text = queued;
    queued = "";
    if (text === "" || output.destroyed || output.writableEnded) return;
    if (!write(text) && !paused && peer.pendingCount === 0) {
      paused = true;
      input.pause();
    }
  };
  const writeLine = (line: string) => {
    if (queued === "") process.nextTick(flush);
    queued += line + "\n";
    if (queued.length >= BATCH_CHARS) flush();
  };
  const peer = createPeer({
    ...options,
    send(message) {
      if (output.destroyed || output.writableEnded) throw new JsonRpcTransportError("the output stream is closed");
      writeLine(stringifyJson(message)!);
      // A call's answer comes on the input.
      if ("method" in message && "id" in message) resume();
    },
  });
  const reader = createLineReader(
    (line) => peer.receiveText(line),
    (bytes, head) => {
      const message = `message exceeds maxLineBytes (${bytes} bytes > ${maxLineBytes})`;
      if (options.role === "server") {
        writeLine(JSON.stringify({ jsonrpc: "2.0", id: null, error: { code: ErrorCode.InvalidRequest, message: `Invalid Request: ${message}` } }));
        return;
      }
      // When the line starts with the id of a pending call (as peers write `{"jsonrpc":"2.0","id":…`),
      // that call fails now, as over HTTP, instead of waiting for its timeout.
      const id = leadingId(head);
      const failed = id !== undefined && peer.rejectCall(id, new JsonRpcTransportError(`the answer to request ${JSON.stringify(id)} was discarded: ${message}`));
      if (!failed) options.onError?.(new JsonRpcTransportError(`discarded an incoming line: ${message}`));
    },
    maxLineBytes,
  );
  input.on("data", (chunk: Buffer | string) => reader.push(typeof chunk === "string" ? Buffer.from(chunk) : chunk));
  input.on("end", () => {
    reader.end();
    inputEnded(peer);
  });
  input.on("error", (error) => peer.close(new JsonRpcTransportError(`read failed: ${error.message}`)));
  output.on("error", (error) => peer.close(new JsonRpcTransportError(`write failed: ${error.message}`)));
  return peer;
}

export interface SpawnOptions {
  command: string;
  args?: readonly string[];
  /** The child's whole environment (nothing is inherited unless you pass it). */
  env?: Record<string, string>;
  /** Where a bare command name is looked up (default: this process's PATH, not the child's env). */
  searchPath?: string;
  cwd?: string;
  /** Receives each line the child writes to stderr. */
  onStderr?(line: string): void;
}

export interface SpawnedPeer {
  peer: Peer;
  child: ChildProcess;
  /** The child's last lines of stderr so far (at most 20), as a ChildEndedError would quote them. */
  stderrTail(): readonly string[];
  /** Ends the child (stdin closed, then SIGTERM, SIGKILL after 2 s) and fails pending calls. */
  close(): Promise<void>;
}

/**
 * A spawned child ended (exited, or closed its stdout) while its peer was open: every pending and
 * later call fails with this error, which says how, with the last lines of its stderr.
 */
export class ChildEndedError extends JsonRpcTransportError {
  static override readonly "~brand": string = "@flowspec/runtime:ChildEndedError";
  override name = "ChildEndedError";
  constructor(
    readonly command: string,
    /** How it exited: `code 3`, `SIGKILL`; undefined when it closed its stdout and kept running. */
    readonly exit: string | undefined,
    /** Its last lines of stderr (at most 20). */
    readonly stderr: readonly string[],
  ) {
    super(`"${command}" ${exit === undefined ? "closed its stdout" : `exited (${exit})`}${stderr.length ? `; its stderr ended with:\n${stderr.join("\n")}` : ""}`);
  }
}

/** The command could not be started (not found, not executable). */
export class SpawnError extends Error {
  static readonly "~brand": string = "@flowspec/runtime:SpawnError";
  static override [Symbol.hasInstance](value: unknown): boolean {
    return isErrorInstance(this, value);
  }
  override name = "SpawnError";
  constructor(
    readonly command: string,
    readonly code: string | undefined,
    message: string,
  ) {
    super(message);
  }
}

/**
 * Starts a child process and speaks JSON-RPC over its stdin and stdout. Resolves once the process
 * has started; a command that cannot be started rejects with a SpawnError naming it.
 */
export function spawnPeer(spawnOptions: SpawnOptions, options: Omit<StreamPeerOptions, "role">): Promise<SpawnedPeer> {
  // Checked before the child starts: thrown in its 'spawn' event, it would escape the promise.
  try {
    byteLimit("maxLineBytes", options.maxLineBytes);
  } catch (error) {
    return Promise.reject(error);
  }
  const executable = findExecutable(spawnOptions.command, spawnOptions.cwd ?? process.cwd(), spawnOptions.searchPath ?? process.env.PATH ?? "");
  if (!executable) {
    return Promise.reject(new SpawnError(spawnOptions.command, "ENOENT", `cannot start "${spawnOptions.command}": not found`));
  }
  const child = spawn(executable, [...(spawnOptions.args ?? [])], {
    cwd: spawnOptions.cwd,
    env: spawnOptions.env ?? {},
    stdio: ["pipe", "pipe", "pipe"],
  });
  return new Promise((resolve, reject) => {
    child.once("error", (error: NodeJS.ErrnoException) => {
      const what = error.code === "ENOENT" ? "not found" : error.code === "EACCES" ? "not executable" : error.message;
      reject(new SpawnError(spawnOptions.command, error.code, `cannot start "${spawnOptions.command}": ${what}`));
    });
    child.once("spawn", () => {
      // When the child's stdout ends or it exits, its calls fail with how it exited and the last
      // lines of its stderr (a dying server says why there). The exit and the ends of stdout (its
      // last answers) and stderr arrive in any order: the peer closes once all three are in, or
      // END_GRACE_MS after the first of stdout's end and the exit, with what is known by then.
      const tail: string[] = [];
      let exit: string | undefined;
      let stdoutEnded = false;
      let stderrEnded = false;
      let stopWaiting: (() => void) | undefined;
      const end = () => {
        stopWaiting?.();
        peer.close(new ChildEndedError(spawnOptions.command, exit, [...tail]));
      };
      const ended = () => {
        if (!stdoutEnded && exit === undefined) return;
        if (exit !== undefined && stdoutEnded && stderrEnded) return end();
        stopWaiting ??= startTimer(end, END_GRACE_MS);
      };
      const peer = connectStreamsUntil(child.stdout!, child.stdin!, { ...options, role: "client" }, () => {
        stdoutEnded = true;
        ended();
      });
      const stderr = createLineReader(
        (line) => {
          if (tail.push(line) > STDERR_LINES) tail.shift();
          spawnOptions.onStderr?.(line);
        },
        () => undefined,
      );
      child.stderr!.on("data", (chunk: Buffer) => stderr.push(chunk));
      child.stderr!.once("end", () => {
        stderr.end();
        stderrEnded = true;
        ended();
      });
      child.once("exit", (code, signal) => {
        exit = signal ?? `code ${code}`;
        ended();
      });
      resolve({
        peer,
        child,
        stderrTail: () => [...tail],
        close: () =>
          new Promise<void>((done) => {
            if (child.exitCode !== null || child.signalCode !== null) return done();
            // A child that ignores SIGTERM is killed after a grace period, so close() never hangs.
            const kill = setTimeout(() => child.kill("SIGKILL"), KILL_AFTER_MS);
            child.once("exit", () => {
              clearTimeout(kill);
              done();
            });
            child.stdin!.end();
            child.kill("SIGTERM");
          }),
      });
    });
  });
}

/**
 * Serves JSON-RPC on this process's stdin and stdout. stdout then carries protocol lines only: the
 * console is redirected to stderr (see `consoleToStderr`), and so is `process.stdout.write`.
 */
export function serveProcessStdio(options: Omit<StreamPeerOptions, "role">): Peer {
  consoleToStderr();
  const write = stdoutToStderr();
  // The peer watches the real stdout ('drain', and 'error': a broken stdout, EPIPE, closes the
  // peer instead of being an uncaught error) and writes with stdout's own write: no stream in
  // between, whose bookkeeping per write was ~3% of a call made one at a time.
  return connectStreamsUntil(process.stdin, process.stdout, { ...options, role: "server" }, closeAtEnd, write);
}

/**
 * Sends what code writes to `process.stdout` itself (past the console, as some libraries do) to
 * stderr: one stray line on stdout kills the runtime's transport (protocol notes §3.1). Returns
 * stdout's own write, for protocol lines only.
 */
function stdoutToStderr(): (text: string) => boolean {
  const stdout = process.stdout;
  const write = stdout.write.bind(stdout) as (text: string) => boolean;
  stdout.write = process.stderr.write.bind(process.stderr) as typeof stdout.write;
  return write;
}

/**
 * Resolves a command as a shell would, against `searchPath` (a command with a `/` or `\\` against
 * `cwd`; on Windows each `PATHEXT` extension is tried), so the child can be started with an
 * environment that has no PATH of its own.
 */
export function findExecutable(command: string, cwd: string, searchPath: string, pathExt = process.env.PATHEXT): string | undefined {
  if (command === "") return undefined;
  const extensions = process.platform === "win32" ? (pathExt ?? ".EXE;.CMD;.BAT").split(";") : [""];
  const candidates = /[\\/]/.test(command)
    ? [isAbsolute(command) ? command : resolvePath(cwd, command)]
    : searchPath.split(delimiter).filter(Boolean).flatMap((dir) => extensions.map((ext) => join(dir, command + ext)));
  return candidates.find((file) => {
    try {
      accessSync(file, constants.X_OK);
      return statSync(file).isFile();
    } catch {
      return false;
    }
  });
}

/**
 * Sends what the console writes to stdout to stderr instead: log, info, debug, dir and dirxml (every
 * console method that writes to stdout itself; table, count, group and timeLog go through log).
 * Returns a function that puts them back.
 */
export function consoleToStderr(): () => void {
  const saved = { log: console.log, info: console.info, debug: console.debug, dir: console.dir, dirxml: console.dirxml };
  const toStderr = (...args: unknown[]) => void console.error(...args);
  console.log = toStderr;
  console.info = toStderr;
  console.debug = toStderr;
  console.dirxml = toStderr;
  console.dir = (item?: unknown, dirOptions?: InspectOptions) => void console.error(inspect(item, { customInspect: false, ...dirOptions }));
  return () => void Object.assign(console, saved);
}

/** `"id": …` and the members before it, each a string, number, boolean or null, then a comma. */
const LEADING_MEMBER = /\s*"((?:[^"\\]|\\.)*)"\s*:\s*("(?:[^"\\]|\\.)*"|-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?|true|false|null)\s*,/y;

/**
 * The id of a JSON-RPC message from the start of its text, when the id comes before any nested value
 * (so it is surely the top-level one), as peers write it; otherwise undefined.
 */
function leadingId(head: string): RequestId | undefined {
  const open = /^\s*\{/.exec(head);
  if (!open) return undefined;
  LEADING_MEMBER.lastIndex = open[0].length;
  try {
    for (let member = LEADING_MEMBER.exec(head); member; member = LEADING_MEMBER.exec(head)) {
      if (JSON.parse(`"${member[1]}"`) !== "id") continue;
      const id: unknown = JSON.parse(member[2]!);
      return typeof id === "string" || typeof id === "number" ? id : undefined;
    }
  } catch {
    // a bad escape: not a message whose id can be trusted
  }
  return undefined;
}
