import { upgradeCreateRunBody } from "@flowspec/agent-service";
import { exportTools, type ToolFormat } from "@flowspec/agents-json";
import { checkDocument, DEFAULT_MAX_DOCUMENT_BYTES, documentGraph, DRAWABLE_KINDS, GraphInputError, KINDS, findKind, toSvg, type DocumentCheck } from "@flowspec/documents";
import { flowToBuilderCode, FlowConversionError } from "@flowspec/stepflow/flow";
import examples from "virtual:examples";
import { createEditor } from "./editor.js";
import { readShareFragment, shareFragment } from "./share.js";

const $ = <T extends HTMLElement>(id: string) => document.getElementById(id) as T;
const exampleMenu = $<HTMLSelectElement>("example");
const kindMenu = $<HTMLSelectElement>("kind");
const variantMenu = $<HTMLSelectElement>("variant");
const conversionMenu = $<HTMLSelectElement>("conversion");
const status = $("status");
const diagnosticsList = $("diagnostics");
const picture = $("picture");
const output = $("output");
const useOutput = $<HTMLButtonElement>("use-output");
const shareUrl = $<HTMLInputElement>("share-url");

/** A conversion a user needs, offered for the kinds it reads. `document`: its output is a document to edit. */
interface Conversion {
  id: string;
  label: string;
  kind: string;
  run(value: unknown): string;
  document?: boolean;
}
const TOOL_FORMATS: ToolFormat[] = ["openai-chat", "openai-responses", "anthropic", "json"];
const CONVERSIONS: Conversion[] = [
  { id: "builder", label: "FlowBuilder program (TypeScript)", kind: "stepflow:Flow", run: (value) => flowToBuilderCode(value) },
  ...TOOL_FORMATS.map((format) => ({
    id: `tools-${format}`,
    label: `LLM tools, ${format}`,
    kind: "agents-json:AgentsJson",
    run: (value: unknown) => JSON.stringify(exportTools(value as object, { format }), null, 2),
  })),
  { id: "upgrade", label: "upgradeCreateRunBody: an older body as the current one", kind: "agent-service:CreateRunCommand", run: (value) => JSON.stringify(upgradeCreateRunBody(value), null, 2), document: true },
];

let current: DocumentCheck | undefined;
let generation = 0;
let timer: ReturnType<typeof setTimeout> | undefined;
const editor = createEditor($<HTMLTextAreaElement>("text"), $("gutter"), () => {
  clearTimeout(timer);
  timer = setTimeout(() => void refresh(), 120);
});

for (const [i, example] of examples.entries()) exampleMenu.append(new Option(`${example.name} (${example.file})`, String(i)));
for (const kind of KINDS) kindMenu.append(new Option(kind.id, kind.id));

/** Checks the text, then shows what the check found, the picture and the conversion. A newer edit wins. */
async function refresh(): Promise<void> {
  const mine = ++generation;
  const kind = kindMenu.value || undefined;
  const variant = kind && variantMenu.value ? variantMenu.value : undefined;
  const check = await checkDocument(editor.text(), { ...(kind ? { kind } : {}), ...(variant ? { variant } : {}) });
  if (mine !== generation) return;
  current = check;
  showStatus(check);
  showVariants(check);
  showDiagnostics(check);
  showPicture(check);
  showConversions(check);
  document.body.dataset.checked = String(mine);
}

function showStatus(check: DocumentCheck): void {
  const count = (severity: string) => check.diagnostics.filter((d) => d.severity === severity).length;
  const summary = `${count("error")} error(s), ${count("warning")} warning(s)`;
  status.textContent = check.kind ? `${check.kind.id} (${check.variant}${check.detected ? ", detected" : ""}): ${summary}` : summary;
  status.className = check.ok ? "ok" : "failed";
}

function showVariants(check: DocumentCheck): void {
  const variants = check.kind?.variants ?? [];
  const wanted = check.variant ?? "";
  if ([...variantMenu.options].map((o) => o.value).join() !== variants.join()) variantMenu.replaceChildren(...variants.map((v) => new Option(v, v)));
  variantMenu.value = wanted;
}

function showDiagnostics(check: DocumentCheck): void {
  const items = check.diagnostics.map((d) => {
    const button = document.createElement("button");
    button.type = "button";
    button.dataset.line = String(d.line);
    button.dataset.column = String(d.column);
    const where = document.createElement("span");
    where.className = "where";
    where.textContent = `${d.line}:${d.column}`;
    const code = document.createElement("code");
    code.textContent = d.code;
    button.append(where, ` ${d.severity} `, code, ` ${d.path || "/"}: ${d.message}${d.hint ? ` (${d.hint})` : ""}`);
    button.addEventListener("click", () => editor.goTo(d.line, d.column));
    const item = document.createElement("li");
    item.className = d.severity;
    item.append(button);
    return item;
  });
  diagnosticsList.replaceChildren(...items);
  const marks = new Map<number, "error" | "warning" | "info">();
  const rank = { error: 3, warning: 2, info: 1 };
  for (const d of check.diagnostics) if (rank[d.severity] > rank[marks.get(d.line) ?? "info"] || !marks.has(d.line)) marks.set(d.line, d.severity);
  editor.mark(marks);
}

function showPicture(check: DocumentCheck): void {
  const note = (text: string) => {
    const p = document.createElement("p");
    p.className = "note";
    p.textContent = text;
    picture.replaceChildren(p);
  };
  if (!check.kind || !check.document) return note("No picture: the document did not parse, or its kind is not known.");
  if (!DRAWABLE_KINDS.includes(check.kind.id)) return note(`Pictures are drawn for ${DRAWABLE_KINDS.join(", ")}; this is a ${check.kind.id}.`);
  let svg: string;
  try {
    svg = toSvg(documentGraph(check.kind.id, check.document.value));
  } catch (error) {
    if (!(error instanceof GraphInputError)) throw error;
    const { line, column } = check.document.locate(error.pointer);
    return note(`Cannot draw it: ${line}:${column} ${error.pointer || "/"}: ${error.message}`);
  }
  const parsed = new DOMParser().parseFromString(svg, "image/svg+xml").documentElement;
  picture.replaceChildren(document.importNode(parsed, true));
}

// A node of the picture is a step, an action or a task: clicking it goes to it in the text.
picture.addEventListener("click", (event) => {
  const pointer = (event.target as Element).closest("g.node")?.getAttribute("data-pointer");
  if (pointer === null || pointer === undefined || !current?.document) return;
  const { line, column } = current.document.locate(pointer);
  editor.goTo(line, column);
});

function showConversions(check: DocumentCheck): void {
  const offered = CONVERSIONS.filter((c) => c.kind === check.kind?.id);
  const previous = conversionMenu.value;
  if ([...conversionMenu.options].map((o) => o.value).join() !== offered.map((c) => c.id).join()) {
    conversionMenu.replaceChildren(...offered.map((c) => new Option(c.label, c.id)));
    if (offered.some((c) => c.id === previous)) conversionMenu.value = previous;
  }
  convert();
}

function convert(): void {
  const conversion = CONVERSIONS.find((c) => c.id === conversionMenu.value && c.kind === current?.kind?.id);
  useOutput.hidden = true;
  output.className = "";
  if (!conversion || !current?.document) {
    output.textContent = current?.kind ? `No conversion for a ${current.kind.id}.` : "";
    return;
  }
  try {
    output.textContent = conversion.run(current.document.value);
    useOutput.hidden = !conversion.document;
  } catch (error) {
    output.className = "failed";
    output.textContent = error instanceof FlowConversionError ? error.message : `Cannot convert it: ${(error as Error).message}`;
  }
}

conversionMenu.addEventListener("change", convert);
useOutput.addEventListener("click", () => {
  kindMenu.value = "";
  editor.setText(output.textContent ?? "");
});
exampleMenu.addEventListener("change", () => {
  kindMenu.value = "";
  editor.setText(examples[Number(exampleMenu.value)]!.text);
});
kindMenu.addEventListener("change", () => {
  variantMenu.value = "";
  void refresh();
});
variantMenu.addEventListener("change", () => void refresh());

$("share").addEventListener("click", async () => {
  const fragment = await shareFragment({ text: editor.text(), ...(kindMenu.value ? { kind: kindMenu.value, variant: variantMenu.value } : {}) });
  history.replaceState(null, "", `#${fragment}`);
  shareUrl.value = location.href;
  shareUrl.hidden = false;
  shareUrl.select();
});

/** Opens the document of the URL's fragment, or the first example when there is none. */
async function openFromLocation(): Promise<void> {
  let shared;
  try {
    shared = await readShareFragment(location.hash, DEFAULT_MAX_DOCUMENT_BYTES);
  } catch (error) {
    editor.setText("");
    await settled();
    status.textContent = `Cannot open the shared link: ${(error as Error).message}`;
    status.className = "failed";
    return;
  }
  if (!shared) {
    exampleMenu.value = "0";
    return editor.setText(examples[0]!.text);
  }
  kindMenu.value = shared.kind && findKind(shared.kind) ? shared.kind : "";
  variantMenu.replaceChildren(...(shared.variant ? [new Option(shared.variant, shared.variant)] : []));
  editor.setText(shared.text);
}

/** Waits for the check of the current text, so a message written after it stays. */
async function settled(): Promise<void> {
  clearTimeout(timer);
  await refresh();
}

window.addEventListener("hashchange", () => void openFromLocation());
void openFromLocation();
