/**
 * Child process of `scripts/schemastore-corpus.mjs`: compares one generated validator (the emitted
 * `index.js` of a compiled output folder) with SchemaStore's ajv set-up on the schema's test
 * documents, and prints the summary as one JSON line. A process per schema keeps one crash or one
 * slow schema from taking the run down.
 */
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { readLimited, testDocuments, type SchemaStoreLayout } from "./checkout.js";
import { referenceValidator, type SchemaStoreOptions } from "./reference.js";
import { compareVerdicts, type GeneratedValidate } from "./verdicts.js";

interface Job {
  layout: SchemaStoreLayout;
  file: string;
  rootName: string;
  indexJs: string;
  options: SchemaStoreOptions;
}

const job = JSON.parse(process.argv[2]!) as Job;
const out: Record<string, unknown> = { file: job.file };
try {
  const schemaText = (file: string) => JSON.parse(readLimited(join(job.layout.schemaDir, file))) as unknown;
  const documents = testDocuments(job.layout, job.file.replace(/\.json$/, ""));
  let reference: ((value: unknown) => boolean) | undefined;
  try {
    const validate = referenceValidator(schemaText(job.file), { ...job.options, externalSchemas: job.options.externalSchemas.map(schemaText) });
    reference = (value) => validate(value) as boolean;
  } catch (error) {
    out.referenceError = (error as Error).message.split("\n")[0];
  }
  const api = (await import(pathToFileURL(job.indexJs).href)) as Record<string, unknown>;
  const generated = api[`validate${job.rootName}`] as GeneratedValidate | undefined;
  if (typeof generated !== "function") throw new Error(`${job.indexJs} exports no validate${job.rootName}`);
  if (reference) Object.assign(out, compareVerdicts(documents, generated, reference));
} catch (error) {
  out.error = (error as Error).message.split("\n")[0];
}
process.stdout.write(`${JSON.stringify(out)}\n`);
