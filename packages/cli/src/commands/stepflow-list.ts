import { resolve } from "node:path";
import type { Command } from "commander";
import { stringify } from "@flowspec/runtime/yaml";
import { listComponents, type ListedComponent } from "@flowspec/stepflow";
import { createConfiguredRouter, resolveConfig } from "@flowspec/stepflow/node";
import { CliError, colours, EXIT, type CliIo } from "../io.js";
import { collect, configError, loadOverlays, OVERLAY_HELP } from "./stepflow-options.js";

/** `flowspec stepflow list-components`: what each plugin of a config serves, and the routes to it. */
export function registerStepflowList(stepflow: Command, io: CliIo, setExit: (code: number) => void): void {
  stepflow
    .command("list-components")
    .description("List the components of every plugin of a stepflow-config, with their routes and schemas")
    .option("--config <file>", "the stepflow-config (default: stepflow-config.yml in the current directory, else builtins only)")
    .option("--overlay <file>", OVERLAY_HELP, collect, [])
    .option("--format <format>", "text (alias pretty), json or yaml", "text")
    .option("--schemas <bool>", "include input and output schemas (true or false)", "true")
    .option("--no-hide-unreachable", "also list components that no route reaches")
    .addHelpText(
      "after",
      `
Every plugin is started (component servers over stdio and HTTP are asked with components/list)
and closed again. JSON and YAML have upstream's shape: {components: [{component, description,
input_schema, output_schema, plugin, routes: [{pathPattern, resolvedPath, conditions,
isConditional}]}]}.

Exit codes: 0 every plugin listed, 1 a plugin could not be started or listed (the others are
still listed), 2 usage error or a config that cannot be read.

Examples:
  flowspec stepflow list-components --config stepflow-config.yml
  flowspec stepflow list-components --format json --schemas false`,
    )
    .action(async (options: { config?: string; overlay: string[]; format: string; schemas: string; hideUnreachable: boolean }) => {
      const format = options.format === "pretty" ? "text" : options.format;
      if (format !== "text" && format !== "json" && format !== "yaml") throw new CliError(`--format must be text, json or yaml, not "${options.format}"`);
      if (options.schemas !== "true" && options.schemas !== "false") throw new CliError(`--schemas must be true or false, not "${options.schemas}"`);
      const overlays = loadOverlays(io, options.overlay);
      let router;
      try {
        // Found as for a flow in the current directory: --config, else stepflow-config.* here.
        router = createConfiguredRouter(resolveConfig(resolve(io.cwd, "stepflow-config.yml"), { configFile: options.config, overlays, cwd: io.cwd }), { env: io.env });
      } catch (error) {
        throw configError(error, options.config);
      }
      let listing;
      try {
        listing = await listComponents(router, { includeUnreachable: !options.hideUnreachable });
      } finally {
        await router.close();
      }
      // An undefined field is left out of JSON and YAML alike.
      const components = options.schemas === "true" ? listing.components : listing.components.map((c) => ({ ...c, input_schema: undefined, output_schema: undefined }));
      if (format === "json") io.stdout.write(JSON.stringify({ components }, null, 2) + "\n");
      else if (format === "yaml") io.stdout.write(stringify({ components }, { lineWidth: 0 }));
      else printComponents(io, components);
      for (const { plugin, message } of listing.errors) io.stderr.write(`flowspec: plugin ${JSON.stringify(plugin)}: ${message}\n`);
      setExit(listing.errors.length > 0 ? EXIT.failed : EXIT.ok);
    });
}

function printComponents(io: CliIo, components: ListedComponent[]): void {
  const c = colours(io);
  const indent = (text: string, by: string) => text.replace(/^/gm, by);
  for (const component of components) {
    io.stdout.write(`${c.bold(component.component)} (plugin: ${component.plugin})\n`);
    if (component.description) io.stdout.write(`  ${component.description}\n`);
    io.stdout.write(component.routes.length > 0 ? "  routes:\n" : "  routes: none\n");
    for (const route of component.routes) {
      const when = route.conditions.map((condition) => `${condition.path} = ${JSON.stringify(condition.value)}`).join(" and ");
      io.stdout.write(`    ${route.resolvedPath}${when ? c.dim(`  when ${when}`) : ""}\n`);
    }
    for (const [label, schema] of [["input schema", component.input_schema], ["output schema", component.output_schema]] as const) {
      if (schema !== undefined && schema !== null) io.stdout.write(`  ${label}:\n${indent(JSON.stringify(schema, null, 2), "    ")}\n`);
    }
  }
  io.stdout.write(`${components.length} component(s)\n`);
}
