/**
 * `@flowspec/stepflow-python`: StepFlow's Python UDF component on Pyodide. Its default export is the
 * component table `{ "/udf": … }`, as `type: module` plugins and `flowspec stepflow serve` take it.
 */
import type { ServerComponent } from "@flowspec/stepflow/server";
import { createPythonUdf, type PythonUdfInput } from "./udf.js";

export { createPythonUdf, type PythonUdfInput, type PythonUdfOptions } from "./udf.js";

/** `/udf` with the default limits. */
export const pythonUdf: ServerComponent<PythonUdfInput, unknown> = createPythonUdf();

const components: Record<string, ServerComponent<PythonUdfInput, unknown>> = { "/udf": pythonUdf };
export default components;
