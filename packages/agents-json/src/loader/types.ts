import type { SourceDocument } from "@flowspec/runtime";
import type { Diagnostic, Mode } from "../diagnostics.js";
import type { Action, FlowRequestBody, FlowResponses, Info, Override, Source } from "../generated/types.js";
import type { Compat } from "../validate.js";

/** A link endpoint after normalisation: `actionId` is always a string (the flow id for flow data). */
export interface NormalisedEndpoint {
  actionId: string;
  fieldPath: string;
}

export interface NormalisedLink {
  origin: NormalisedEndpoint;
  target: NormalisedEndpoint;
  /** The index of the link in the raw document's `links` array, for JSON Pointers. */
  index: number;
}

export interface NormalisedFlow {
  id: string;
  title: string;
  description: string;
  actions: Action[];
  links: NormalisedLink[];
  fields: {
    /** Compat mode keeps `enum`, `default`, `items` and `properties` (D4). */
    parameters: Compat.FlowParameter[];
    /** Absent when the raw document has none, `null` or `{}` (D3). */
    requestBody?: FlowRequestBody;
    responses: FlowResponses;
  };
  /** The index of the flow in the raw document's `flows` array. */
  index: number;
}

/**
 * The view of a document the executor and the exporter use (§2.4): null/absent `actionId`s are
 * the flow id, aliases are rewritten, `requestBody: null`/`{}` and `additionalProperties` keys are
 * gone, and `links` is always an array.
 */
export interface NormalisedAgentsJson {
  agentsJson: string;
  info: Info;
  sources: Source[];
  overrides: Override[];
  flows: NormalisedFlow[];
}

/** What `load()` returns. */
export interface LoadedAgentsJson {
  /** The document exactly as given (for round-tripping). */
  raw: Compat.AgentsJson;
  document: NormalisedAgentsJson;
  mode: Mode;
  /** Warnings and infos (errors make `load()` throw). */
  diagnostics: Diagnostic[];
  /** Where the document came from (a file path or URL): relative source paths resolve against it. */
  location?: string;
  /** The parsed text, when the document came from text: maps JSON Pointers to file:line:column. */
  source?: SourceDocument;
}
