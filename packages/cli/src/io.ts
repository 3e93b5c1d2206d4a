/** Where a command writes, so tests can run the CLI in-process and read what it printed. */
export interface CliIo {
  stdout: { write(text: string): unknown; isTTY?: boolean };
  stderr: { write(text: string): unknown; isTTY?: boolean };
  /** Read by `stepflow run` when no input option is given (and it is not a terminal); absent = no input. */
  stdin?: AsyncIterable<Uint8Array | string> & { isTTY?: boolean };
  cwd: string;
  env: Record<string, string | undefined>;
}

/** Exit codes, stable and documented in the README. */
export const EXIT = {
  ok: 0,
  /** Something was checked and found wanting: an invalid document, a failed test. */
  failed: 1,
  /** The command could not do its job: bad usage, an unreadable or unparsable file. */
  usage: 2,
} as const;

/** An error that ends the command with a message and an exit code (2 unless said otherwise). */
export class CliError extends Error {
  override name = "CliError";
  constructor(
    message: string,
    readonly exitCode: number = EXIT.usage,
  ) {
    super(message);
  }
}

export type Format = "text" | "json";

export function parseFormat(value: string): Format {
  if (value !== "text" && value !== "json") throw new CliError(`--format must be text or json, not "${value}"`);
  return value;
}

/** ANSI colours, only when writing to a terminal and NO_COLOR is unset. */
export function colours(io: CliIo) {
  const on = Boolean(io.stdout.isTTY) && io.env.NO_COLOR === undefined;
  const paint = (code: number) => (text: string) => (on ? `\u001b[${code}m${text}\u001b[0m` : text);
  return { red: paint(31), green: paint(32), yellow: paint(33), dim: paint(2), bold: paint(1) };
}
