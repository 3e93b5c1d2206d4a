import type { Command } from "commander";
import {
  ApiConnectionError,
  ApiError,
  isTerminalRun,
  RunsClient,
  StreamProtocolError,
  upgradeCreateRunBody,
  ValidationError,
  type CreateRunCommand,
  type Run,
  type SequencedOutputEnvelope,
  type TaskStatus,
} from "@flowspec/agent-service";
import type { SourceDocument } from "@flowspec/runtime";
import { readDocument } from "../read-document.js";
import { CliError, colours, EXIT, parseFormat, type CliIo, type Format } from "../io.js";

interface ConnectionOptions {
  baseUrl?: string;
  org?: string;
  token?: string;
}

const CONNECTION_HELP = `
Connection (each option falls back to its environment variable):
  --base-url URL   FLOWSPEC_BASE_URL   the Agent Service base URL
  --org ORG_ID     FLOWSPEC_ORG_ID     the organization the runs belong to
  --token TOKEN    FLOWSPEC_TOKEN      bearer token

Exit codes: 0 done, 1 the service refused (an error answer, an invalid body) or the watched run
did not complete, 2 usage error, unreadable file, or no answer from the service.`;

function withConnection(command: Command): Command {
  return command
    .option("--base-url <url>", "Agent Service base URL (or FLOWSPEC_BASE_URL)")
    .option("--org <orgId>", "organization id (or FLOWSPEC_ORG_ID)")
    .option("--token <token>", "bearer token (or FLOWSPEC_TOKEN)");
}

/** A client for the connection options, with its token to keep out of error messages. */
interface Connection {
  client: RunsClient;
  token: string;
}

function clientFrom(io: CliIo, options: ConnectionOptions): Connection {
  const pick = (value: string | undefined, env: string, flag: string) => {
    const chosen = value ?? io.env[env];
    if (chosen === undefined || chosen === "") throw new CliError(`missing ${flag} (or ${env})`);
    return chosen;
  };
  const baseUrl = pick(options.baseUrl, "FLOWSPEC_BASE_URL", "--base-url");
  const parsed = URL.parse(baseUrl);
  if (!parsed) throw new CliError(`--base-url is not a URL: ${JSON.stringify(baseUrl)}`);
  // Checked here, not left to fetch: its errors repeat the whole URL, password included.
  if (parsed.username || parsed.password) throw new CliError("--base-url must not contain a user name or password (pass the credential with --token)");
  if (parsed.protocol !== "http:" && parsed.protocol !== "https:") throw new CliError(`--base-url must be an http or https URL, not "${parsed.protocol}"`);
  const token = pick(options.token, "FLOWSPEC_TOKEN", "--token");
  // fetch's error for a bad header value repeats the value: the token, on stderr.
  const bad = unsendable(token);
  if (bad) throw new CliError(`--token (or FLOWSPEC_TOKEN) cannot be sent in a header: it contains ${bad}`);
  return { client: new RunsClient({ baseUrl, orgId: pick(options.org, "FLOWSPEC_ORG_ID", "--org"), token }), token };
}

/** What keeps a string out of an HTTP header value, described without repeating it. */
function unsendable(value: string): string | undefined {
  for (let i = 0; i < value.length; i++) {
    const code = value.charCodeAt(i);
    if ((code < 0x20 && code !== 0x09) || code === 0x7f) return "a control character";
    if (code > 0xff) return "a character outside Latin-1";
  }
  return undefined;
}

function runIdFrom(runId: string): string {
  // An empty id would turn `runs get` into a GET of the run list.
  if (runId === "") throw new CliError("RUN_ID must not be empty");
  return runId;
}

/** Runs a call, turning the client's errors into exit codes; the token never appears in a message. */
async function calling<T>(what: string, token: string, call: () => Promise<T>): Promise<T> {
  // A very short "token" (a test's "t") would mask ordinary words; real tokens are long.
  const redact = (message: string) => (token.length < 8 ? message : message.split(token).join("***"));
  try {
    return await call();
  } catch (error) {
    if (error instanceof ApiError) throw new CliError(redact(`${what}: ${error.message}`), EXIT.failed);
    const unreachable = error instanceof ApiConnectionError || gaveUpUnanswered(error);
    if (unreachable) throw new CliError(redact(`${what}: no answer from the service: ${(error as Error).message}`), EXIT.usage);
    if (error instanceof CliError || error instanceof ValidationError) throw error;
    throw new CliError(redact(`${what}: ${error instanceof Error ? error.message : String(error)}`), EXIT.failed);
  }
}

/**
 * A watch that gave up reconnecting because the connection itself kept failing (refused, lost,
 * idle) had no answer from the service, as `get` would report it: exit 2, not 1. Giving up on
 * error answers (5xx) or on a stream that keeps ending early stays a refusal (1).
 */
function gaveUpUnanswered(error: unknown): boolean {
  return error instanceof StreamProtocolError && error.details.reconnects !== undefined && error.cause !== undefined && !(error.cause instanceof ApiError);
}

function runLine(io: CliIo, run: Run): string {
  const c = colours(io);
  const status = run.status ?? "(no status)";
  const paint = status === "completed" ? c.green : isTerminalRun(run) ? c.red : c.yellow;
  return `${run.runId}  ${paint(status.padEnd(10))}  ${run.resourceType}:${run.resourceId}  events ${run.eventSequence}  ${c.dim(run.createdAt)}`;
}

function printRun(io: CliIo, format: Format, run: Run): void {
  if (format === "json") io.stdout.write(JSON.stringify(run, null, 2) + "\n");
  else io.stdout.write(runLine(io, run) + "\n");
}

function eventLine(envelope: SequencedOutputEnvelope): string {
  const { event } = envelope;
  const detail =
    event.type === "run.status.changed"
      ? `→ ${event.status ?? "?"}`
      : event.delta !== undefined
        ? JSON.stringify(event.delta)
        : event.content !== undefined
          ? JSON.stringify(event.content)
          : event.payload !== undefined
            ? JSON.stringify(event.payload)
            : event.result !== undefined
              ? JSON.stringify(event.result)
              : "";
  return `#${envelope.sequence} ${event.type}${detail ? ` ${detail}` : ""}`;
}

function readCreateBody(io: CliIo, file: string, upgrade: boolean): { body: CreateRunCommand; document: SourceDocument } {
  const document = readDocument(io.cwd, file);
  const body = (upgrade ? upgradeCreateRunBody(document.value) : document.value) as CreateRunCommand;
  return { body, document };
}

export function registerRuns(runs: Command, io: CliIo, setExit: (code: number) => void): void {
  runs.addHelpText("after", CONNECTION_HELP);

  withConnection(runs.command("create"))
    .description("Create a run from a CreateRunCommand file (JSON or YAML); the body is validated before sending")
    .requiredOption("--file <file>", "the create-run body")
    .option("--upgrade", "read an older-generation body (input without mode, tools instead of ephemeralTools)")
    .option("--format <format>", "text or json", "text")
    .addHelpText("after", `${CONNECTION_HELP}\n\nExamples:\n  flowspec runs create --file run.yaml --base-url http://127.0.0.1:8080 --org org-1 --token $TOKEN\n  FLOWSPEC_BASE_URL=… FLOWSPEC_ORG_ID=… FLOWSPEC_TOKEN=… flowspec runs create --file run.json --format json`)
    .action(async (options: ConnectionOptions & { file: string; upgrade?: boolean; format: string }) => {
      const format = parseFormat(options.format);
      const { client, token } = clientFrom(io, options);
      const { body, document } = readCreateBody(io, options.file, options.upgrade ?? false);
      try {
        printRun(io, format, await calling("create", token, () => client.create(body)));
      } catch (error) {
        if (!(error instanceof ValidationError)) throw error;
        io.stderr.write(`${colours(io).red("invalid")} ${options.file}: CreateRunCommand\n`);
        for (const issue of error.errors) {
          const at = document.locate(issue.path);
          io.stderr.write(`  ${options.file}:${at.line}:${at.column} ${issue.path || "/"}: ${issue.message}\n`);
        }
        setExit(EXIT.failed);
      }
    });

  withConnection(runs.command("get"))
    .description("Show one run")
    .argument("<runId>")
    .option("--format <format>", "text or json", "text")
    .addHelpText("after", `${CONNECTION_HELP}\n\nExamples:\n  flowspec runs get run-123\n  flowspec runs get run-123 --format json`)
    .action(async (runId: string, options: ConnectionOptions & { format: string }) => {
      const format = parseFormat(options.format);
      runIdFrom(runId);
      const { client, token } = clientFrom(io, options);
      printRun(io, format, await calling("get", token, () => client.get(runId)));
    });

  withConnection(runs.command("list"))
    .description("List runs, newest first (every page)")
    .option("--status <status>", "only runs with this status (queued, running, blocked, completed, …)")
    .option("--limit <n>", "stop after this many runs")
    .option("--format <format>", "text or json", "text")
    .addHelpText("after", `${CONNECTION_HELP}\n\nExamples:\n  flowspec runs list\n  flowspec runs list --status blocked --format json`)
    .action(async (options: ConnectionOptions & { status?: string; limit?: string; format: string }) => {
      const format = parseFormat(options.format);
      const limit = options.limit === undefined ? Infinity : Number(options.limit);
      if (!(limit >= 1) || !Number.isInteger(limit === Infinity ? 1 : limit)) throw new CliError(`--limit must be a positive integer, not "${options.limit}"`);
      const { client, token } = clientFrom(io, options);
      const found: Run[] = [];
      await calling("list", token, async () => {
        for await (const run of client.list(options.status === undefined ? {} : { status: options.status as TaskStatus })) {
          found.push(run);
          if (found.length >= limit) break;
        }
      });
      if (format === "json") io.stdout.write(JSON.stringify(found, null, 2) + "\n");
      else if (found.length === 0) io.stdout.write("no runs\n");
      else for (const run of found) io.stdout.write(runLine(io, run) + "\n");
    });

  withConnection(runs.command("cancel"))
    .description("Cancel a run (a cancelled run is returned unchanged; a finished one is refused)")
    .argument("<runId>")
    .option("--format <format>", "text or json", "text")
    .addHelpText("after", `${CONNECTION_HELP}\n\nExamples:\n  flowspec runs cancel run-123`)
    .action(async (runId: string, options: ConnectionOptions & { format: string }) => {
      const format = parseFormat(options.format);
      runIdFrom(runId);
      const { client, token } = clientFrom(io, options);
      printRun(io, format, await calling("cancel", token, () => client.cancel(runId)));
    });

  withConnection(runs.command("watch"))
    .description("Print a run's events until it ends, resuming on its own after a dropped connection")
    .argument("<runId>")
    .option("--after <sequence>", "start after this event sequence", "0")
    .option("--format <format>", "text or ndjson (one event envelope per line)", "text")
    .addHelpText(
      "after",
      `${CONNECTION_HELP}\nwatch exits 0 when the run completed and 1 when it ended otherwise (failed, canceled, …).\n\nExamples:\n  flowspec runs watch run-123\n  flowspec runs watch run-123 --format ndjson --after 40 | jq .event.type`,
    )
    .action(async (runId: string, options: ConnectionOptions & { after: string; format: string }) => {
      if (options.format !== "text" && options.format !== "ndjson") throw new CliError(`--format must be text or ndjson, not "${options.format}"`);
      // Past 2^53 the number is no longer the sequence typed: events would be skipped.
      if (!/^\d+$/.test(options.after) || !Number.isSafeInteger(Number(options.after))) throw new CliError(`--after must be an integer ≥ 0, not "${options.after}"`);
      runIdFrom(runId);
      const { client, token } = clientFrom(io, options);
      const c = colours(io);
      const stream = client.stream(runId, {
        afterSequence: Number(options.after),
        onReconnect: ({ lastSequence, reason }) => io.stderr.write(c.dim(`(reconnecting after #${lastSequence}: ${reason})\n`)),
      });
      await calling("watch", token, async () => {
        for await (const envelope of stream) {
          io.stdout.write(options.format === "ndjson" ? JSON.stringify(envelope) + "\n" : eventLine(envelope) + "\n");
        }
      });
      const status = stream.terminal?.status;
      if (options.format === "text") io.stdout.write(`run ${runId} ended: ${status ?? "(no status)"} after ${stream.lastSequence} events\n`);
      setExit(status === "completed" ? EXIT.ok : EXIT.failed);
    });
}
