/**
 * One Python interpreter (Pyodide, from node_modules: nothing is downloaded) per process, started on
 * first use and shared by every UDF call: starting it costs seconds, calling it microseconds.
 */
import { HARNESS } from "./harness.js";

/** A compiled UDF, living in the interpreter until `destroy()`. */
export interface PythonFunction {
  destroy(): void;
}

/** What JavaScript does for a UDF's `context`: blobs cross as JSON text. */
export interface BlobBridge {
  get_blob(blobId: string): Promise<string>;
  put_blob(json: string): Promise<string>;
}

export interface PythonInterpreter {
  /** The UDF as a callable, or the message of why its code does not compile (`SyntaxError: … (line 3)`). */
  prepare(code: string, functionName: string | undefined): PythonFunction | string;
  /** Calls a UDF; resolves to JSON text, `{"result": …}` or `{"error": "…"}`. */
  run(udf: PythonFunction, inputJson: string, bridge: BlobBridge): Promise<string>;
}

let started: Promise<PythonInterpreter> | undefined;

/** The process's interpreter, started by the first call; a start that failed is tried again by the next. */
export function pythonInterpreter(): Promise<PythonInterpreter> {
  started ??= start().catch((error: unknown) => {
    started = undefined;
    throw new Error(`cannot start Python (Pyodide): ${(error as Error).message}`, { cause: error });
  });
  return started;
}

async function start(): Promise<PythonInterpreter> {
  const { loadPyodide } = await import("pyodide");
  // What UDFs print goes to stderr: stdout may be a protocol stream (`flowspec stepflow serve`) or a report.
  const toStderr = (line: string) => void process.stderr.write(`[python] ${line}\n`);
  const pyodide = await loadPyodide({ stdout: toStderr, stderr: toStderr });
  const namespace = pyodide.globals.get("dict")();
  pyodide.runPython(HARNESS, { globals: namespace, filename: "<flowspec-udf-harness>" });
  return { prepare: namespace.get("prepare"), run: namespace.get("run") };
}
