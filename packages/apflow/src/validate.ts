/** The one door to the generated validators of this package (semantic checks join them here). */
export * from "./generated/index.js";
