/**
 * A UDF's `input_schema`, checked as upstream's `jsonschema.validate` does: JSON Schema 2020-12
 * unless `$schema` names draft-07, unknown keywords ignored, `format` not checked. Only the first
 * failure is reported (as `jsonschema.validate` raises one), which keeps the check linear.
 */
import { Ajv, type ValidateFunction } from "ajv";
import { Ajv2020 } from "ajv/dist/2020.js";
import { issuesFromAjv } from "@flowspec/runtime";

const options = { allErrors: false, strict: false, validateFormats: false } as const;
let draft2020: Ajv2020 | undefined;
let draft07: Ajv | undefined;

/** A check of values against a schema: `undefined` when one passes, else `<pointer>: <what>` of its first failure. */
export type InputCheck = (value: unknown) => string | undefined;

/** Compiles a schema; throws an `Error` saying why when it is not one (an unknown `$schema`, a bad keyword value). */
export function compileInputSchema(schema: Record<string, unknown>): InputCheck {
  const dialect = schema.$schema;
  let ajv: Ajv | Ajv2020;
  if (dialect === undefined || (typeof dialect === "string" && /json-schema\.org\/draft\/2020-12\/schema#?$/.test(dialect))) ajv = draft2020 ??= new Ajv2020(options);
  else if (typeof dialect === "string" && /json-schema\.org\/draft-07\/schema#?$/.test(dialect)) ajv = draft07 ??= new Ajv(options);
  else throw new Error(`$schema ${JSON.stringify(dialect)} is not supported (JSON Schema 2020-12, the default, or draft-07)`);
  let validate: ValidateFunction;
  try {
    validate = ajv.compile(schema);
  } finally {
    // The compiled function is all that is kept: ajv would otherwise hold every schema (and refuse a second one with the same $id).
    ajv.removeSchema(schema);
  }
  return (value) => {
    if (validate(value)) return undefined;
    const [issue] = issuesFromAjv(validate.errors);
    return issue ? `${issue.path || "(root)"}: ${issue.message}` : "(root): does not match the schema";
  };
}
