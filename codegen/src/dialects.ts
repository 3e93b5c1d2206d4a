import { Ajv, type Options } from "ajv";
import { Ajv2019 } from "ajv/dist/2019.js";
import { Ajv2020 } from "ajv/dist/2020.js";
import AjvDraft04 from "ajv-draft-04";
import type { Dialect, JsonObject } from "@flowspec/schema-diff/schema-files";

/**
 * What differs between the dialects codegen reads, in one place: each compiles with ajv's own
 * build for it (ajv-draft-04 is ajv's draft-04 class), so generated validators judge as ajv does.
 */

/** The keyword that names a schema resource: `id` in draft-04, `$id` since draft-06. */
export function idKeyword(dialect: Dialect): "id" | "$id" {
  return dialect === "draft-04" ? "id" : "$id";
}

/** Where a bundle hoists the schemas it references: `definitions` before 2019-09, `$defs` since. */
export function defsKeyword(dialect: Dialect): "definitions" | "$defs" {
  return dialect === "draft-04" || dialect === "draft-07" ? "definitions" : "$defs";
}

/** The plain-name fragment a subschema declares: `$anchor` (and 2020-12 `$dynamicAnchor`), or `$id: "#name"` before 2019-09. */
export function anchorOf(dialect: Dialect, node: JsonObject): string[] {
  if (dialect === "draft-04" || dialect === "draft-07") {
    const id = node[idKeyword(dialect)];
    return typeof id === "string" && id.startsWith("#") ? [id.slice(1)] : [];
  }
  return [node.$anchor, node.$dynamicAnchor].filter((anchor): anchor is string => typeof anchor === "string");
}

/** ajv for a dialect. 2019-09 and 2020-12 declare anchors with `$anchor`, which ajv resolves but its strict mode calls an unknown keyword. */
export function ajvFor(dialect: Dialect, options: Options): Ajv {
  switch (dialect) {
    case "draft-04":
      // The package's types name its own copy of ajv's class; at run time it is ajv's core.
      return new (AjvDraft04 as unknown as new (options: Options) => Ajv)(options);
    case "draft-07":
      return new Ajv(options);
    case "draft-2019-09":
      return new Ajv2019(withAnchor(options));
    case "draft-2020-12":
      return new Ajv2020(withAnchor(options));
  }
}

function withAnchor(options: Options): Options {
  const keywords = options.keywords ?? [];
  return keywords.includes("$anchor") ? options : { ...options, keywords: [...keywords, "$anchor"] };
}
