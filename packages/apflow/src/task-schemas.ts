/**
 * `Task.schemas` as the notes describe it (§2.2), narrower than the generated
 * `{[k: string]: unknown} | null`: the executor id, where it runs, and the inputs' JSON Schema.
 */
export interface TaskSchemas {
  /** The executor id in the registry. */
  method: string;
  type?: "local" | "remote" | "external";
  /** A draft-07 JSON Schema for `inputs`. */
  input_schema?: Record<string, unknown>;
  [key: string]: unknown;
}
