import { writeFileSync } from "node:fs";
import { resolve } from "node:path";
import type { Command } from "commander";
import { documentGraph, DRAWABLE_KINDS, GraphInputError, toDot, toMermaid, toSvg, type Graph } from "@flowspec/documents/graph";
import { detectKind, findKind } from "@flowspec/documents/kinds";
import { readDocument } from "../read-document.js";
import { CliError, colours, EXIT, type CliIo } from "../io.js";

const FORMATS = ["mermaid", "dot", "svg"] as const;

export function registerGraph(command: Command, io: CliIo, setExit: (code: number) => void): void {
  command
    .argument("<file>", "a JSON or YAML document")
    .option("--format <format>", "mermaid, dot or svg", "mermaid")
    .option("--spec <spec>", "stepflow, agents-json or apflow; detected when omitted")
    .option("--flow <id>", "agents.json: draw only this flow")
    .option("-o, --output <file>", "write the picture to a file instead of stdout")
    .addHelpText(
      "after",
      `
What is drawn:
  stepflow     the workflow input, each step (id, component) and the output; an arrow per $from
               reference; skipIf arrows dashed orange, onSkip defaults orange, onError default
               references dotted red
  agents-json  one group per flow: its input, actions (id, source: operation) and output; an arrow
               per link, labelled origin fieldPath → target fieldPath
  apflow       a box per task (name, status); parent → child dotted grey; dependency → dependent
               solid when required, dashed when optional

SVG is laid out by flowspec itself (layered, in TypeScript: no Graphviz needed). References to
missing steps, actions or tasks are drawn in red and reported on stderr.

Exit codes: 0 drawn, 2 usage error, an unreadable file or a document that cannot be drawn.

Examples:
  flowspec graph flow.yaml > flow.mmd
  flowspec graph agents.json --flow search --format dot | dot -Tpng -o search.png
  flowspec graph tree.json --format svg -o tree.svg`,
    )
    .action(async (file: string, options: { format: string; spec?: string; flow?: string; output?: string }) => {
      if (!(FORMATS as readonly string[]).includes(options.format)) throw new CliError(`--format must be one of ${FORMATS.join(", ")}, not "${options.format}"`);
      const document = readDocument(io.cwd, file);
      const kind = options.spec === undefined ? detectKind(document.value) : findKind(options.spec);
      if (!kind || !DRAWABLE_KINDS.includes(kind.id)) {
        const what = kind ? `a ${kind.id} document` : options.spec ? `--spec "${options.spec}"` : "a document of no kind flowspec recognises";
        throw new CliError(`${file}: ${what}; graph draws stepflow flows, agents-json documents and apflow task trees (pass --spec if detection fails)`);
      }
      if (options.flow !== undefined && kind.id !== "agents-json:AgentsJson") throw new CliError("--flow only applies to agents.json documents");
      const at = (pointer: string) => {
        const { line, column } = document.locate(pointer);
        return `${file}:${line}:${column} ${pointer || "/"}`;
      };
      let graph: Graph;
      try {
        graph = documentGraph(kind.id, document.value, options.flow === undefined ? {} : { flow: options.flow });
      } catch (error) {
        if (error instanceof GraphInputError) throw new CliError(`${at(error.pointer)}: ${error.message}`);
        throw error;
      }
      const c = colours(io);
      for (const warning of graph.warnings) io.stderr.write(`${c.yellow("warning")} ${at(warning.pointer)}: ${warning.message}\n`);
      const picture = options.format === "svg" ? toSvg(graph) : options.format === "dot" ? toDot(graph) : toMermaid(graph);
      if (options.output) {
        try {
          writeFileSync(resolve(io.cwd, options.output), picture);
        } catch (error) {
          throw new CliError(`${options.output}: cannot write: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
        }
        io.stderr.write(`wrote ${options.output} (${kind.id}, ${graph.nodes.length} nodes, ${graph.edges.length} edges)\n`);
      } else {
        io.stdout.write(picture);
      }
      setExit(EXIT.ok);
    });
}
