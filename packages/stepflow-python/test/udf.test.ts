import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { blobId, createBlobStore, type BlobStore } from "@flowspec/stepflow";
import type { ServerComponentContext } from "@flowspec/stepflow/server";
import { isJsonFloat, jsonFloat, stringifyJson } from "@flowspec/runtime";
import { createPythonUdf, pythonUdf, type PythonUdfOptions } from "../src/index.js";

/** What a component server gives a component, on a real blob store; counts the blobs read. */
function contextOn(blobs: BlobStore) {
  const reads: string[] = [];
  const context: ServerComponentContext = {
    putBlob: (data) => blobs.put(data),
    getBlob: (id) => (reads.push(id), blobs.get(id)),
    evaluateFlow: () => Promise.reject(new Error("not used")),
    evaluateFlowValue: () => Promise.reject(new Error("not used")),
    signal: new AbortController().signal,
  };
  return { context, reads };
}

/** Stores a UDF blob and calls `/udf` on an input. */
async function call(udf: Record<string, unknown>, input: Record<string, unknown>, options?: PythonUdfOptions) {
  const blobs = createBlobStore();
  const { context, reads } = contextOn(blobs);
  const component = options ? createPythonUdf(options) : pythonUdf;
  const blob_id = await blobs.put({ input_schema: { type: "object" }, ...udf });
  return { output: await component.handler({ blob_id, input }, context), blobs, reads, component, context, blob_id };
}

describe("/udf: Python source on Pyodide", () => {
  it("runs an expression on the input, by key or by attribute, with math", { timeout: 120_000 }, async () => {
    expect((await call({ code: "input['a'] + input['b']" }, { a: 3, b: 4 })).output).toBe(7);
    // 2.5 * 4 is the float 10.0 in Python, and stays one.
    expect((await call({ code: "input.point.x * input.point.y" }, { point: { x: 2.5, y: 4 } })).output).toEqual(jsonFloat(10));
    expect((await call({ code: "math.sqrt(input['sum'] ** 2 + input['product'] ** 2)" }, { sum: 7, product: 12 })).output).toBe(13.892443989449804);
    expect((await call({ code: "[w for w in input['words'] if len(w) > input['min']]" }, { words: ["a", "bbb", "cc"], min: 1 })).output).toEqual(["bbb", "cc"]);
  });

  it("keeps Python's integers and floats apart both ways: 2.0 is a float, 2 an integer", async () => {
    const two = await call({ code: "[2.0, 2, 2.5, float(input['n']), int(input['x'])]" }, { n: 3, x: jsonFloat(4) });
    expect(stringifyJson(two.output)).toBe("[2.0,2,2.5,3.0,4]");
    expect(isJsonFloat((two.output as unknown[])[0])).toBe(true);
    // A float in the input, and in a blob it reads, reaches Python as a float; one it stores is hashed as one.
    const blobs = createBlobStore();
    const { context } = contextOn(blobs);
    const data = await blobs.put({ z: jsonFloat(1) });
    const code = "async def f(input, context):\n    blob = await context.get_blob(input['id'])\n    kinds = [type(v).__name__ for v in (input['x'], input['y'], blob['z'])]\n    return kinds + [await context.put_blob({'score_doubled': input['x'] * 2})]\n";
    const udf = await blobs.put({ input_schema: { type: "object", properties: { x: { type: "integer" } } }, code, function_name: "f" });
    const output = await pythonUdf.handler({ blob_id: udf, input: { x: jsonFloat(85), y: 85, id: data } }, context);
    expect(output).toEqual(["float", "int", "float", createHash("sha256").update('{"score_doubled":170.0}').digest("hex")]);
  });

  it("runs a block that returns, with re and json; a block without return gives null", async () => {
    const code = "text = input['text']\nfound = re.findall(r'\\b\\w{4,}\\b', text)\nreturn {'found': found, 'json': json.dumps(found)}\n";
    expect((await call({ code }, { text: "this is some text" })).output).toEqual({ found: ["this", "some", "text"], json: '["this", "some", "text"]' });
    expect((await call({ code: "x = 1" }, {})).output).toBeNull();
    // A string spanning lines is not re-indented: the block is wrapped through the syntax tree.
    expect((await call({ code: 's = """a\nb"""\nreturn s' }, {})).output).toBe("a\nb");
  });

  it("calls the named function, sync or async, with context when its second parameter is named so", async () => {
    const sync = "def helper(x):\n    return x * 2\n\ndef double(input):\n    return helper(input.value)\n";
    expect((await call({ code: sync, function_name: "double" }, { value: 21 })).output).toBe(42);
    const annotated = "def keys(data: list):\n    return sorted(data.keys())\n";
    expect((await call({ code: annotated, function_name: "keys" }, { b: 1, a: 2 })).output).toEqual(["a", "b"]);
    const asynchronous = "async def store(input, context):\n    blob_id = await context.put_blob({'n': input['n'] * 2})\n    return {'blob_id': blob_id, 'back': await context.get_blob(blob_id)}\n";
    const { output, blobs } = await call({ code: asynchronous, function_name: "store" }, { n: 21 });
    expect(output).toEqual({ blob_id: await blobId({ n: 42 }), back: { n: 42 } });
    expect(await blobs.get((output as { blob_id: string }).blob_id)).toEqual({ n: 42 });
  });

  it("lets a block await the context too", async () => {
    const { output } = await call({ code: "stored = await context.put_blob(input['v'])\nreturn await context.get_blob(stored)" }, { v: [1, "two"] });
    expect(output).toEqual([1, "two"]);
  });

  it("checks the input against input_schema before running anything, naming where it fails", async () => {
    const schema = { type: "object", properties: { a: { type: "integer" } }, required: ["a", "b"] };
    await expect(call({ code: "1/0", input_schema: schema }, { a: 1 })).rejects.toThrow(`the input does not match the UDF's input_schema: /input/b: missing required property "b"`);
    await expect(call({ code: "1/0", input_schema: schema }, { a: "x", b: 1 })).rejects.toThrow("the input does not match the UDF's input_schema: /input/a: must be an integer");
    const draft07 = { $schema: "http://json-schema.org/draft-07/schema#", type: "object", properties: { a: { type: "string" } } };
    await expect(call({ code: "input['a']", input_schema: draft07 }, { a: 1 })).rejects.toThrow("/input/a: must be a string");
    expect((await call({ code: "input['a']", input_schema: draft07 }, { a: "ok" })).output).toBe("ok");
  });

  it("turns a Python exception into a component error naming the exception and the line of the UDF's code", async () => {
    await expect(call({ code: "a = input['a']\nb = 0\nreturn a / b\n" }, { a: 1 })).rejects.toThrow("the UDF failed: ZeroDivisionError: division by zero (line 3)");
    await expect(call({ code: "input['missing']" }, {})).rejects.toThrow("the UDF failed: KeyError: 'missing' (line 1)");
    await expect(call({ code: "def f(input):\n    return input.nope\n", function_name: "f" }, {})).rejects.toThrow("the UDF failed: AttributeError: input has no key 'nope' (line 2)");
    await expect(call({ code: "x = [\nreturn x" }, {})).rejects.toThrow(/\/code: does not compile: SyntaxError: .* \(line 1\)/);
    await expect(call({ code: "def f(input):\n    return 1\n", function_name: "g" }, {})).rejects.toThrow("/code: does not compile: NameError: the code defines no function 'g'");
    await expect(call({ code: "await context.get_blob('nope')" }, {})).rejects.toThrow('the UDF failed: JsException: BlobNotFoundError: no blob with id "nope" (line 1)');
    await expect(call({ code: "{1, 2}" }, {})).rejects.toThrow("the UDF failed: the result is not JSON: Object of type set is not JSON serializable");
  });

  it("refuses a blob that is not a UDF, naming the field", async () => {
    const blobs = createBlobStore();
    const { context } = contextOn(blobs);
    const run = async (blob: unknown) => pythonUdf.handler({ blob_id: await blobs.put(blob), input: {} }, context);
    await expect(run([1])).rejects.toThrow(/the UDF blob \w+: must be a mapping \{code, input_schema, function_name\?\}/);
    await expect(run({ input_schema: {} })).rejects.toThrow(/\/code: must be a non-empty string of Python source/);
    await expect(run({ code: "1" })).rejects.toThrow(/\/input_schema: must be a JSON Schema/);
    await expect(run({ code: "1", input_schema: { type: "nope" } })).rejects.toThrow(/\/input_schema: is not a usable JSON Schema: /);
    await expect(run({ code: "1", input_schema: { $schema: "http://json-schema.org/draft-04/schema#" } })).rejects.toThrow(/\$schema .* is not supported/);
    await expect(pythonUdf.handler({ blob_id: "nope", input: {} }, context)).rejects.toThrow('no blob with id "nope"');
    await expect(pythonUdf.handler({ blob_id: 1, input: {} } as never, context)).rejects.toThrow("/blob_id: must be the id of the blob holding the UDF");
    await expect(pythonUdf.handler({ blob_id: "x", input: [] } as never, context)).rejects.toThrow("/input: must be a mapping");
  });

  it("bounds the code and every value that crosses into or out of Python", async () => {
    await expect(call({ code: `${"1 + ".repeat(40)}1` }, {}, { maxCodeBytes: 100 })).rejects.toThrow("/code: is 161 bytes, over the limit of 100 (maxCodeBytes)");
    const limits = { maxValueBytes: 200 };
    await expect(call({ code: "1" }, { text: "x".repeat(300) }, limits)).rejects.toThrow(/the input is 3\d\d bytes of JSON, over the limit of 200 \(maxValueBytes\)/);
    await expect(call({ code: "'y' * 300" }, {}, limits)).rejects.toThrow(/the UDF's result is about 3\d\d bytes of JSON, over the limit of 200/);
    await expect(call({ code: "await context.put_blob('z' * 300)" }, {}, limits)).rejects.toThrow(/the blob to store is 3\d\d bytes of JSON, over the limit of 200/);
    const blobs = createBlobStore();
    const { context } = contextOn(blobs);
    const big = await blobs.put("w".repeat(300));
    const udf = await blobs.put({ code: "await context.get_blob(input['id'])", input_schema: {} });
    await expect(createPythonUdf(limits).handler({ blob_id: udf, input: { id: big } }, context)).rejects.toThrow(/blob \w+ is 302 bytes of JSON, over the limit of 200/);
    const huge = await blobs.put({ code: "1", input_schema: { description: "d".repeat(300) } });
    await expect(createPythonUdf(limits).handler({ blob_id: huge, input: {} }, context)).rejects.toThrow(/the UDF blob \w+ is 3\d\d bytes of JSON, over the limit of 200/);
  });

  it("compiles a blob's UDF once and keeps a bounded number of them", async () => {
    const { component, context, reads, blob_id, blobs } = await call({ code: "input['n'] + 1" }, { n: 1 }, { maxCachedUdfs: 1 });
    expect(await component.handler({ blob_id, input: { n: 2 } }, context)).toBe(3);
    expect(reads).toEqual([blob_id]);
    const other = await blobs.put({ code: "input['n'] - 1", input_schema: {} });
    expect(await component.handler({ blob_id: other, input: { n: 2 } }, context)).toBe(1);
    expect(await component.handler({ blob_id, input: { n: 2 } }, context)).toBe(3);
    expect(reads).toEqual([blob_id, other, blob_id]);
  });
});
