import { Ajv, type AnySchemaObject, type ErrorObject, type Options, type ValidateFunction } from "ajv";
import { Ajv2019 } from "ajv/dist/2019.js";
import { Ajv2020 } from "ajv/dist/2020.js";
import AjvDraft04 from "ajv-draft-04";
import { formats } from "@flowspec/runtime/ajv";
import { isRecord } from "../json-text.js";
import { escape } from "../walk.js";
import type { LoadedFile, SchemaSide } from "../diff/load.js";

/**
 * One side's schemas as ajv validates them: the files as written (not their normal form), each under
 * the base URI the diff resolves it by, with ajv's class for the root's dialect and the formats that
 * generated validators check (`@flowspec/runtime/ajv`). Unknown keywords and formats are ignored
 * (`strict: false`), as a validator of someone else's schemas must. Built on first use.
 */
export interface SideValidator {
  /** The errors of a document against the subschema at `file#pointer`, placed in the files; [] when it passes. */
  errors(file: LoadedFile, pointer: string, document: unknown): PlacedError[];
}

/** An ajv error, with the file and JSON Pointer of the keyword that raised it. */
export interface PlacedError {
  file: string;
  pointer: string;
  keyword: string;
  /** JSON Pointer in the document. */
  at: string;
  message: string;
}

type AjvLike = Pick<Ajv, "addSchema" | "addFormat" | "getSchema">;

export function sideValidator(side: SchemaSide): SideValidator {
  let ajv: AjvLike | undefined;
  const index = new Map<object, { file: string; pointer: string }>();
  const compiled = new Map<string, ValidateFunction | Error>();

  const setUp = (): AjvLike => {
    const root = side.files[0]!;
    const options: Options = { strict: false, allErrors: true, verbose: true, allowUnionTypes: true, validateSchema: false, logger: false };
    const instance: AjvLike =
      root.dialect === "draft-04"
        ? new (AjvDraft04 as unknown as new (options: Options) => AjvLike)(options)
        : root.dialect === "draft-2019-09"
          ? new Ajv2019(options)
          : root.dialect === "draft-2020-12"
            ? new Ajv2020(options)
            : new Ajv(options);
    for (const [name, format] of Object.entries(formats)) instance.addFormat(name, format as never);
    for (const file of side.files) {
      // A deep copy: an error is placed by the identity of its schema object, which an in-memory schema may share between places.
      const copy: AnySchemaObject = { ...(JSON.parse(JSON.stringify(file.source)) as AnySchemaObject), [root.dialect === "draft-04" ? "id" : "$id"]: file.uri };
      indexObjects(copy, file.path, "", index);
      instance.addSchema(copy);
    }
    return instance;
  };

  const validatorAt = (file: LoadedFile, pointer: string): ValidateFunction | Error => {
    const key = `${file.uri}#${pointer.split("/").map((t) => encodeURIComponent(t)).join("/")}`;
    let known = compiled.get(key);
    if (!known) {
      try {
        ajv ??= setUp();
        known = ajv.getSchema(key) ?? new Error(`ajv finds no schema at ${file.path}#${pointer}`);
      } catch (error) {
        known = error as Error;
      }
      compiled.set(key, known);
    }
    return known;
  };

  return {
    errors(file, pointer, document) {
      const validate = validatorAt(file, pointer);
      if (validate instanceof Error) throw validate;
      if (validate(document)) return [];
      return (validate.errors ?? []).map((error) => place(error, index, file.path));
    },
  };
}

function indexObjects(node: unknown, file: string, pointer: string, index: Map<object, { file: string; pointer: string }>): void {
  if (typeof node !== "object" || node === null) return;
  if (!index.has(node)) index.set(node, { file, pointer });
  if (Array.isArray(node)) node.forEach((item, i) => indexObjects(item, file, `${pointer}/${i}`, index));
  else for (const [key, value] of Object.entries(node)) indexObjects(value, file, `${pointer}/${escape(key)}`, index);
}

/** Where an error's keyword is: by the identity of the schema object that holds it (ajv's `schemaPath` restarts at each `$ref`). */
function place(error: ErrorObject, index: Map<object, { file: string; pointer: string }>, rootFile: string): PlacedError {
  const keyword = error.schemaPath.split("/").pop() ?? error.keyword;
  const parent = isRecord(error.parentSchema) ? index.get(error.parentSchema) : undefined;
  const where = parent ? { file: parent.file, pointer: `${parent.pointer}/${keyword}` } : { file: rootFile, pointer: decodeURIComponent(error.schemaPath.replace(/^[^#]*#/, "")) };
  return { ...where, keyword: error.keyword, at: error.instancePath, message: error.message ?? error.keyword };
}
