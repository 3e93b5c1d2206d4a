import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { formatIssues, parseSourceDocument } from "@flowspec/runtime";
import { describe, expect, it } from "vitest";
import { validateFlow } from "../src/index.js";
import { corpusDir } from "../../../test/support.js";

const corpus = corpusDir("stepflow");
const isFlowFile = (path: string) =>
  (/\.ya?ml$/.test(path) && !/stepflow[-_]config/.test(path)) || path.startsWith("load-tests/workflows/");
const flows = (readdirSync(corpus, { recursive: true }) as string[])
  .map((path) => path.split("\\").join("/"))
  .filter(isFlowFile)
  .sort();
const WITHOUT_SCHEMA = "load-tests/workflows/rust-builtin-messages.json";

describe("StepFlow corpus flows against the generated Flow validator", () => {
  it("finds the 29 corpus flows", () => {
    expect(flows).toHaveLength(29);
  });

  it.each(flows.filter((path) => path !== WITHOUT_SCHEMA))("%s validates as Flow", (path) => {
    const file = join(corpus, path);
    const document = parseSourceDocument(readFileSync(file, "utf8"), { file: relative(process.cwd(), file) });
    const result = validateFlow(document.value);
    expect(result.ok, result.ok ? "" : `${path}:\n${formatIssues(result.errors)}`).toBe(true);
  });

  it(`${WITHOUT_SCHEMA} fails because it has no schema`, () => {
    const result = validateFlow(JSON.parse(readFileSync(join(corpus, WITHOUT_SCHEMA), "utf8")));
    expect(result.ok).toBe(false);
    expect(!result.ok && result.errors).toEqual([
      expect.objectContaining({ path: "/schema", keyword: "required", message: 'missing required property "schema"' }),
    ]);
  });
});
