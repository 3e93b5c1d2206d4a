/**
 * The parts of the `yaml` package (https://github.com/eemeli/yaml, ISC licence, kept in
 * `dist/yaml.LICENSE`) that flowspec's packages use, bundled into this package's build rather than
 * loaded from `node_modules/yaml`: Node's build of `yaml` is 74 CommonJS files, and resolving,
 * reading and compiling each of them cost every process that imports `@flowspec/runtime` (so
 * `@flowspec/stepflow` and the `flowspec` commands that read YAML) about 50 ms of CPU. The bundled
 * code is `yaml`'s browser build (ES modules: a browser bundle keeps only what it uses) with the few
 * lines where its Node build differs put back (tsup.config.ts), so in Node it behaves as
 * `require("yaml")` does: `process.emitWarning`, `Buffer` for `!!binary`. Each package of this
 * repository imports YAML from here, so a process loads one copy. The classes are this copy's:
 * `instanceof` against the `yaml` package's own classes does not hold (no public API of flowspec
 * returns them). For that reason no error class is exported: one would be two classes in a program
 * that loads both this package's ES module and CommonJS builds (each bundles its copy), where
 * flowspec's own errors are one (`isErrorInstance`).
 */
export {
  Composer,
  isAlias,
  isMap,
  isScalar,
  isSeq,
  LineCounter,
  parseDocument,
  Parser,
  stringify,
  visit,
  type Alias,
  type CST,
  type Document,
  type Node,
  type Pair,
  type ScalarTag,
  type YAMLMap,
} from "yaml";
