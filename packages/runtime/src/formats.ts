import { fullFormats } from "ajv-formats/dist/formats.js";

/**
 * Formats the generated validators check, by name: ajv-formats' full set plus the integer-width
 * formats StepFlow's Rust-derived schema uses (`int64`, `uint16`, `uint32`, `uint64`), read as
 * ranges of JS numbers. Codegen registers this same table, so generation and run time agree.
 */
export const formats = {
  ...fullFormats,
  int64: { type: "number", validate: (n: number) => Number.isSafeInteger(n) },
  uint16: { type: "number", validate: (n: number) => Number.isInteger(n) && n >= 0 && n <= 0xffff },
  uint32: { type: "number", validate: (n: number) => Number.isInteger(n) && n >= 0 && n <= 0xffffffff },
  uint64: { type: "number", validate: (n: number) => Number.isSafeInteger(n) && n >= 0 },
} as const;
