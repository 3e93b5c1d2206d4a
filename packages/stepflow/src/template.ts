/**
 * Value templates and expressions (protocol notes §2.4): the structural reading of `$from` references
 * and `$literal` escapes, done once per flow. A compiled template is resolved many times by the engine.
 */
import { toPointer } from "@flowspec/runtime";
import { parsePath, PathSyntaxError, type PathSegment } from "./path.js";
import { isObject } from "./values.js";

/** What a reference reads: the run input, or the result of a step. */
export type RefBase = { kind: "input" } | { kind: "step"; step: string };

/** What a reference to a skipped step gives (protocol notes §6.2). */
export type OnSkip = { action: "skip" } | { action: "useDefault"; defaultValue: unknown };

export interface RefTemplate {
  kind: "ref";
  base: RefBase;
  path: PathSegment[];
  onSkip: OnSkip;
  /** JSON Pointer of the reference object in its flow. */
  pointer: string;
}

/** A compiled template: a constant, a reference, or an object/array with references inside. */
export type Template =
  | { kind: "value"; value: unknown }
  | RefTemplate
  | { kind: "object"; keys: string[]; values: Template[] }
  | { kind: "array"; items: Template[] };

/** A malformed `$from` or `$literal` object, or a path that does not parse. */
export interface StructureIssue {
  rule: "malformed-reference" | "invalid-path";
  pointer: string;
  message: string;
}

const NULL_TEMPLATE: Template = { kind: "value", value: null };
/** What most references share (read, never written): one object each, not one per reference. */
const INPUT_BASE: RefBase = Object.freeze({ kind: "input" });
const ON_SKIP_SKIP: OnSkip = Object.freeze({ action: "skip" });
const WHOLE_VALUE: PathSegment[] = Object.freeze([]) as unknown as PathSegment[];

/** Collects issues and references while templates of one flow are compiled. */
export class TemplateCompiler {
  readonly issues: StructureIssue[] = [];
  readonly refs: RefTemplate[] = [];

  /** A ValueTemplate position (`input`, `output`, `onError.defaultValue`): references at any depth. */
  template(value: unknown, pointer: string): Template {
    if (value === undefined || value === null) return NULL_TEMPLATE;
    if (Array.isArray(value)) {
      const items = value.map((item, i) => this.template(item, `${pointer}/${i}`));
      return items.every((item, i) => item.kind === "value" && item.value === value[i]) ? { kind: "value", value } : { kind: "array", items };
    }
    if (!isObject(value)) return { kind: "value", value };
    if (Object.hasOwn(value, "$from")) return this.reference(value, pointer);
    if (Object.hasOwn(value, "$literal")) return { kind: "value", value: value.$literal ?? null };
    const keys = Object.keys(value);
    const values = keys.map((key) => this.template(value[key], pointer + toPointer([key])));
    return values.every((v, i) => v.kind === "value" && v.value === value[keys[i]!]) ? { kind: "value", value } : { kind: "object", keys, values };
  }

  /** An Expr position (`skipIf`): only the top level may be a reference or an escaped literal. */
  expr(value: unknown, pointer: string): Template {
    if (isObject(value) && Object.hasOwn(value, "$from")) return this.reference(value, pointer);
    if (isObject(value) && Object.hasOwn(value, "$literal")) return { kind: "value", value: value.$literal ?? null };
    return { kind: "value", value: value ?? null };
  }

  private reference(value: Record<string, unknown>, pointer: string): Template {
    const from = value.$from;
    let base: RefBase | undefined;
    if (isObject(from) && typeof from.step === "string") base = { kind: "step", step: from.step };
    else if (isObject(from) && from.workflow === "input" && Object.keys(from).length === 1) base = INPUT_BASE;
    if (!base) {
      this.issue("malformed-reference", `${pointer}/$from`, `$from must be {"workflow": "input"} or {"step": "<step id>"}, not ${preview(from)}`);
    }
    let path = WHOLE_VALUE;
    if (value.path !== undefined && value.path !== null) {
      if (typeof value.path !== "string") {
        this.issue("malformed-reference", `${pointer}/path`, `path must be a string, not ${preview(value.path)}`);
      } else {
        try {
          path = parsePath(value.path);
        } catch (error) {
          if (!(error instanceof PathSyntaxError)) throw error;
          this.issue("invalid-path", `${pointer}/path`, `invalid path ${JSON.stringify(value.path)}: ${error.reason}`);
        }
      }
    }
    let onSkip = ON_SKIP_SKIP;
    const skip = value.onSkip;
    if (skip !== undefined && skip !== null) {
      if (isObject(skip) && skip.action === "skip") onSkip = ON_SKIP_SKIP;
      else if (isObject(skip) && skip.action === "useDefault") onSkip = { action: "useDefault", defaultValue: skip.defaultValue ?? null };
      else {
        this.issue("malformed-reference", `${pointer}/onSkip`, `onSkip must be {"action": "skip"} or {"action": "useDefault", "defaultValue"?: …}, not ${preview(skip)}`);
      }
    }
    if (!base) return NULL_TEMPLATE;
    const ref: RefTemplate = { kind: "ref", base, path, onSkip, pointer };
    this.refs.push(ref);
    return ref;
  }

  private issue(rule: StructureIssue["rule"], pointer: string, message: string): void {
    this.issues.push({ rule, pointer, message });
  }
}

function preview(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
}
