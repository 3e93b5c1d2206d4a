/**
 * `/udf`, StepFlow's Python UDF component: `{blob_id, input}`, where the blob holds
 * `{code, input_schema, function_name?}`. The input is checked against `input_schema`, then the code
 * runs in Pyodide: an expression (`input['a'] + input['b']`), a block that `return`s, or the function
 * `function_name` names (sync or async, with `context` as its second parameter to get
 * `context.get_blob` / `context.put_blob`). `math`, `re` and `json` are imported for it.
 *
 * Python tells `2` from `2.0`, as serde_json does: values cross into and out of Python as JSON text
 * with their floats kept (`JsonFloat` on this side), so a float stays a float both ways.
 */
import { parseJsonKeepingFloats, plainNumbers, stringifyJson } from "@flowspec/runtime";
import { defineServerComponent, type ServerComponent, type ServerComponentContext } from "@flowspec/stepflow/server";
import { compileInputSchema, type InputCheck } from "./input-schema.js";
import { pythonInterpreter, type BlobBridge, type PythonFunction } from "./interpreter.js";

export interface PythonUdfOptions {
  /** The largest `code` accepted, in UTF-8 bytes. Default: 1 MiB. */
  maxCodeBytes?: number;
  /**
   * The largest value that crosses into or out of Python, in UTF-8 bytes of its JSON: the UDF's blob,
   * its input, each blob it reads or stores, its result. Default: 16 MiB.
   */
  maxValueBytes?: number;
  /** How many compiled UDFs are kept, by blob id (the least recently used goes first). Default: 256. */
  maxCachedUdfs?: number;
}

/** The input of `/udf`. */
export interface PythonUdfInput {
  /** The blob holding `{code, input_schema, function_name?}`. */
  blob_id: string;
  /** The UDF's own input, checked against its `input_schema`. */
  input: Record<string, unknown>;
}

interface CompiledUdf {
  call: PythonFunction;
  check: InputCheck;
}

const MiB = 1024 * 1024;

/** Creates the `/udf` component with its own limits and cache. Python starts on its first call. */
export function createPythonUdf(options: PythonUdfOptions = {}): ServerComponent<PythonUdfInput, unknown> {
  const maxCodeBytes = options.maxCodeBytes ?? MiB;
  const maxValueBytes = options.maxValueBytes ?? 16 * MiB;
  const maxCachedUdfs = options.maxCachedUdfs ?? 256;
  // A blob id is the hash of the blob's content, so what was compiled for it stays right.
  const cache = new Map<string, Promise<CompiledUdf>>();

  /** A value as JSON text, refused when it is over the limit. */
  const toJson = (what: string, value: unknown): string => {
    const text = stringifyJson(value) ?? "null";
    const bytes = Buffer.byteLength(text);
    if (bytes > maxValueBytes) throw new Error(`${what} is ${bytes} bytes of JSON, over the limit of ${maxValueBytes} (maxValueBytes)`);
    return text;
  };

  const compile = async (blobId: string, context: ServerComponentContext): Promise<CompiledUdf> => {
    const blob = await context.getBlob(blobId);
    toJson(`the UDF blob ${blobId}`, blob); // measured only: bounded as every value that crosses into Python
    const at = (pointer: string, reason: string) => new Error(`the UDF blob ${blobId}${pointer ? ` ${pointer}` : ""}: ${reason}`);
    if (!isObject(blob)) throw at("", "must be a mapping {code, input_schema, function_name?}");
    const { code, input_schema: schema, function_name: functionName } = blob;
    if (typeof code !== "string" || code.trim() === "") throw at("/code", "must be a non-empty string of Python source");
    const codeBytes = Buffer.byteLength(code);
    if (codeBytes > maxCodeBytes) throw at("/code", `is ${codeBytes} bytes, over the limit of ${maxCodeBytes} (maxCodeBytes)`);
    if (!isObject(schema)) throw at("/input_schema", "must be a JSON Schema (a mapping)");
    if (functionName !== undefined && functionName !== null && (typeof functionName !== "string" || functionName === "")) throw at("/function_name", "must be a function name");
    let check: InputCheck;
    try {
      check = compileInputSchema(schema);
    } catch (error) {
      throw at("/input_schema", `is not a usable JSON Schema: ${(error as Error).message}`);
    }
    const call = (await pythonInterpreter()).prepare(code, functionName ?? undefined);
    if (typeof call === "string") throw at("/code", `does not compile: ${call}`);
    return { call, check };
  };

  const compiled = (blobId: string, context: ServerComponentContext): Promise<CompiledUdf> => {
    let entry = cache.get(blobId);
    if (entry) cache.delete(blobId);
    else entry = compile(blobId, context);
    cache.set(blobId, entry);
    entry.catch(() => cache.get(blobId) === entry && cache.delete(blobId));
    if (cache.size > maxCachedUdfs) cache.delete(cache.keys().next().value!);
    return entry;
  };

  return defineServerComponent({
    description: "Runs a Python UDF stored in a blob ({code, input_schema, function_name?}) on an input checked against its input_schema",
    inputSchema: {
      type: "object",
      required: ["blob_id", "input"],
      properties: { blob_id: { type: "string", description: "the blob holding {code, input_schema, function_name?}" }, input: { type: "object" } },
    },
    keepFloats: true,
    async handler(input: PythonUdfInput, context: ServerComponentContext): Promise<unknown> {
      if (!isObject(input)) throw new Error("the input must be a mapping {blob_id, input}");
      if (typeof input.blob_id !== "string") throw new Error("/blob_id: must be the id of the blob holding the UDF");
      if (!isObject(input.input)) throw new Error("/input: must be a mapping (the UDF's input)");
      const udf = await compiled(input.blob_id, context);
      // The schema sees numbers as JSON Schema does: 2.0 is a number (and an integer), like 2.
      const rejected = udf.check(plainNumbers(input.input));
      if (rejected) throw new Error(`the input does not match the UDF's input_schema: /input${rejected.startsWith("(root)") ? rejected.slice(6) : rejected}`);
      const bridge: BlobBridge = {
        get_blob: async (blobId) => toJson(`blob ${blobId}`, await context.getBlob(blobId)),
        put_blob: async (json) => {
          const bytes = Buffer.byteLength(json);
          if (bytes > maxValueBytes) throw new Error(`the blob to store is ${bytes} bytes of JSON, over the limit of ${maxValueBytes} (maxValueBytes)`);
          return context.putBlob(parseJsonKeepingFloats(json));
        },
      };
      const answer = await (await pythonInterpreter()).run(udf.call, toJson("the input", input.input), bridge);
      const bytes = Buffer.byteLength(answer);
      if (bytes > maxValueBytes) throw new Error(`the UDF's result is about ${bytes} bytes of JSON, over the limit of ${maxValueBytes} (maxValueBytes)`);
      const outcome = parseJsonKeepingFloats(answer) as { result?: unknown; error?: string };
      if (outcome.error !== undefined) throw new Error(`the UDF failed: ${outcome.error}`);
      return outcome.result;
    },
  });
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
