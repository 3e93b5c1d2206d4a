/**
 * TypeScript stand-ins for upstream's `tests/http/test_python_server.py`, served by `flowspec stepflow
 * serve --http`. `/data_analysis` and `/chain_processing` take the context, so they answer over SSE
 * and store blobs through `blobs/put` on the way. Floats print as Python prints them (`15.0`), and are
 * answered as floats where the Python models make them so (`MathOutput.result: float`) or pass them
 * through (`/chain_processing`'s `initial_data: Dict[str, Any]`).
 */
import { isJsonFloat, jsonFloat } from "@flowspec/runtime";
import { defineServerComponent, type ServerComponentContext } from "@flowspec/stepflow/server";

/** `time.strftime("%Y-%m-%d %H:%M:%S")`. */
const now = () => new Date().toLocaleString("sv-SE").replace("T", " ");
const pyFloat = (n: number) => (Number.isInteger(n) ? n.toFixed(1) : String(n));

const OPERATIONS: Record<string, (a: number, b: number) => number> = {
  add: (a, b) => a + b,
  subtract: (a, b) => a - b,
  multiply: (a, b) => a * b,
  divide: (a, b) => (b !== 0 ? a / b : Infinity),
};

function quartiles(data: number[]): { q1: number; median: number; q3: number } | Record<string, never> {
  if (data.length === 0) return {};
  const sorted = [...data].sort((a, b) => a - b);
  const n = sorted.length;
  return { q1: n >= 4 ? sorted[Math.floor(n / 4)]! : sorted[0]!, median: sorted[Math.floor(n / 2)]!, q3: n >= 4 ? sorted[Math.floor((3 * n) / 4)]! : sorted[n - 1]! };
}

function outliers(data: number[]): number[] {
  if (data.length < 4) return [];
  const { q1, q3 } = quartiles(data) as { q1: number; q3: number };
  const iqr = q3 - q1;
  return data.filter((x) => x < q1 - 1.5 * iqr || x > q3 + 1.5 * iqr);
}

function histogram(data: number[], bins: number): Record<string, number> {
  if (data.length === 0) return {};
  const min = data.reduce((a, b) => Math.min(a, b));
  const max = data.reduce((a, b) => Math.max(a, b));
  if (min === max) return { [pyFloat(min)]: data.length };
  const width = (max - min) / bins;
  const out: Record<string, number> = {};
  for (const value of data) {
    const start = min + Math.min(Math.trunc((value - min) / width), bins - 1) * width;
    const key = `${start.toFixed(2)}-${(start + width).toFixed(2)}`;
    out[key] = (out[key] ?? 0) + 1;
  }
  return out;
}

export default {
  "/echo": defineServerComponent({
    description: "Echoes the message with a timestamp",
    handler: ({ message }: { message: string }) => ({ echo: `Echo: ${message}`, timestamp: now() }),
  }),
  "/math": defineServerComponent({
    description: "add, subtract, multiply or divide",
    handler: ({ a, b, operation }: { a: number; b: number; operation: string }) => {
      const apply = Object.hasOwn(OPERATIONS, operation) ? OPERATIONS[operation] : undefined;
      if (!apply) throw new Error(`Unsupported operation: ${operation}`);
      const result = apply(a, b);
      return { result: Number.isInteger(result) ? jsonFloat(result) : result, operation_performed: `${pyFloat(a)} ${operation} ${pyFloat(b)} = ${pyFloat(result)}` };
    },
  }),
  "/process_list": defineServerComponent({
    description: "Prefixes each item",
    handler: ({ items, prefix = "processed" }: { items: string[]; prefix?: string }) => ({ processed_items: items.map((item) => `${prefix}_${item}`), count: items.length }),
  }),
  "/data_analysis": defineServerComponent({
    description: "Statistics or a distribution of the data, stored as a blob",
    handler: async ({ data, analysis_type = "statistics" }: { data: number[]; analysis_type?: string }, context: ServerComponentContext) => {
      let analysis: Record<string, unknown>;
      let summary: string;
      if (analysis_type === "statistics") {
        const sum = data.reduce((a, b) => a + b, 0);
        const mean = data.length > 0 ? sum / data.length : 0;
        const sorted = [...data].sort((a, b) => a - b);
        analysis = { type: "statistics", count: data.length, sum, mean, min: sorted[0] ?? null, max: sorted.at(-1) ?? null, sorted_data: sorted, analysis_timestamp: now() };
        let stdDev = 0;
        if (data.length > 1) {
          const variance = data.reduce((a, x) => a + (x - mean) ** 2, 0) / data.length;
          stdDev = variance ** 0.5;
          Object.assign(analysis, { variance, std_dev: stdDev });
        }
        summary = `Statistics for ${data.length} data points: mean=${mean.toFixed(2)}, std_dev=${stdDev.toFixed(2)}`;
      } else if (analysis_type === "distribution") {
        analysis = { type: "distribution", histogram: histogram(data, 10), quartiles: quartiles(data), outliers: outliers(data), analysis_timestamp: now() };
        summary = `Distribution analysis for ${data.length} data points with ${(analysis.outliers as number[]).length} outliers`;
      } else {
        throw new Error(`Unsupported analysis type: ${analysis_type}`);
      }
      return { analysis_blob_id: await context.putBlob(analysis), summary };
    },
  }),
  "/chain_processing": defineServerComponent({
    description: "Applies processing steps to the top-level values in turn, storing each intermediate state as a blob",
    keepFloats: true,
    handler: async ({ initial_data, processing_steps }: { initial_data: Record<string, unknown>; processing_steps: string[] }, context: ServerComponentContext) => {
      let current: Record<string, unknown> = { ...initial_data };
      const intermediate_blob_ids: string[] = [];
      for (const [i, step] of processing_steps.entries()) {
        if (step === "uppercase_strings") {
          for (const [key, value] of Object.entries(current)) if (typeof value === "string") current[key] = value.toUpperCase();
        } else if (step === "multiply_numbers") {
          for (const [key, value] of Object.entries(current)) {
            if (typeof value === "number") current[key] = value * 2;
            else if (isJsonFloat(value)) current[key] = jsonFloat(value.value * 2);
          }
        } else if (step === "add_metadata") {
          current._metadata = { step: i + 1, timestamp: now(), step_name: step };
        } else if (step === "filter_positive") {
          current = Object.fromEntries(Object.entries(current).filter(([, v]) => (typeof v !== "number" && !isJsonFloat(v)) || Number(v) >= 0));
        } else {
          current[`custom_step_${i}`] = `Applied: ${step}`;
        }
        intermediate_blob_ids.push(await context.putBlob({ step_index: i, step_name: step, data: { ...current }, timestamp: now() }));
      }
      return { final_result: current, intermediate_blob_ids };
    },
  }),
};
