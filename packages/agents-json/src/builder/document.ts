import { formatDiagnostic, type Diagnostic, type Mode } from "../diagnostics.js";
import { AgentsJsonBuildError } from "../errors.js";
import type { AgentsJson, Info, Override } from "../generated/types.js";
import { lintDocument, reporter } from "../lint/document-rules.js";
import { inspectAgentsJson } from "../loader/load.js";
import type { Compat } from "../validate.js";
import { FlowBuilder } from "./flow.js";

export interface AgentsJsonBuilderOptions {
  /** `strict` (default): output passes the canonical schema. `compat` allows D2/D4 extras. */
  mode?: Mode;
}

/** Builds an agents.json document; `build()` validates it (strict unless compat) and lints it. */
export class AgentsJsonBuilder<Sources extends string = never> {
  readonly #info: Info;
  readonly #mode: Mode;
  readonly #sources: { id: string; path: string; description?: string }[] = [];
  readonly #overrides: Override[] = [];
  readonly #flows: FlowBuilder<string, string, string>[] = [];

  constructor(info: Info, options: AgentsJsonBuilderOptions = {}) {
    this.#info = { ...info };
    this.#mode = options.mode ?? "strict";
  }

  /** An OpenAPI source: a URL or a path relative to the document. */
  source<Id extends string>(id: Id, path: string, description?: string): AgentsJsonBuilder<Sources | Id> {
    this.#sources.push({ id, path, ...(description === undefined ? {} : { description }) });
    return this as unknown as AgentsJsonBuilder<Sources | Id>;
  }

  /** An override (§5). Integral values are refused unless building in compat mode (defect D2). */
  override(sourceId: Sources, operationId: string, fieldPath: string, value: Override["value"]): this {
    if (typeof value === "number" && Number.isInteger(value) && this.#mode !== "compat") {
      throw new AgentsJsonBuildError(
        `override ${sourceId}/${operationId} "${fieldPath}": the integral value ${value} matches both the integer and number branches of the canonical schema's oneOf (defect D2), so strict validators reject it; build in compat mode to emit it`,
      );
    }
    this.#overrides.push({ sourceId, operationId, fieldPath, value });
    return this;
  }

  /** A flow, described in a callback that receives a typed flow builder. */
  flow(
    id: string,
    meta: { title: string; description: string },
    define: (flow: FlowBuilder<Sources>) => FlowBuilder<Sources, string, string>,
  ): this {
    this.#flows.push(define(new FlowBuilder<Sources>(id, meta.title, meta.description, this.#mode)) as unknown as FlowBuilder<string, string, string>);
    return this;
  }

  /** The document, validated (strict, or compat in compat mode) and linted: throws `AgentsJsonBuildError` listing every error. */
  build(): AgentsJson {
    const doc = {
      agentsJson: "0.1.0",
      info: { ...this.#info },
      sources: this.#sources.map((s) => ({ ...s })),
      ...(this.#overrides.length ? { overrides: structuredClone(this.#overrides) } : {}),
      flows: this.#flows.map((flow) => flow.toJSON()),
    };
    const inspection = inspectAgentsJson(doc, { mode: this.#mode });
    const findings: Diagnostic[] = [...inspection.diagnostics];
    if (inspection.ok) lintDocument(doc as Compat.AgentsJson, reporter(findings, this.#mode));
    const errors = findings.filter((d) => d.severity === "error");
    if (errors.length > 0) throw new AgentsJsonBuildError(`the built document has ${errors.length} error(s):\n${errors.map((d) => `  ${formatDiagnostic(d)}`).join("\n")}`);
    return doc as AgentsJson;
  }
}

/** Starts a document: `agentsJson({title, version, description}).source(…).flow(…).build()`. */
export function agentsJson(info: Info, options: AgentsJsonBuilderOptions = {}): AgentsJsonBuilder {
  return new AgentsJsonBuilder(info, options);
}
