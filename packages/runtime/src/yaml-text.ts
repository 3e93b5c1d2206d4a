import { stringify, type ScalarTag } from "yaml";
import { isJsonFloat, type JsonFloat } from "./json-numbers.js";

/** Writes a `JsonFloat` as a YAML float that keeps its `.0` (`171.0`). */
const FLOAT: ScalarTag = {
  tag: "tag:yaml.org,2002:float",
  default: true,
  identify: isJsonFloat,
  resolve: (source) => Number(source),
  stringify: ({ value }) => (value as JsonFloat).toString(),
};

/** YAML text of a JSON value, without line folding, with each `JsonFloat` written as a float (`171.0`). */
export function stringifyYaml(value: unknown): string {
  return stringify(value, { customTags: [FLOAT], lineWidth: 0 });
}
