/**
 * The parts of the `yaml` package (https://github.com/eemeli/yaml, ISC licence, kept in
 * `dist/yaml.LICENSE`) that flowspec's packages use, bundled into this package's build rather than
 * loaded from `node_modules/yaml`: Node's build of `yaml` is 74 CommonJS files, and resolving, reading
 * and compiling each of them cost every process that imports `@flowspec/runtime` (so `@flowspec/stepflow`
 * and the `flowspec` CLI) ~60 ms of CPU, bundled ~15. It is Node's build, with `process` and `Buffer`
 * read from the global scope (where Node has them), so it behaves as `require("yaml")` does; in a
 * browser it behaves as `yaml`'s browser build. Each package of this repository imports YAML from
 * here, so a process loads one copy. The classes are this copy's: `instanceof` against the `yaml`
 * package's own classes does not hold (no public API of flowspec returns them).
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
  YAMLParseError,
  type Alias,
  type CST,
  type Document,
  type Node,
  type Pair,
  type ScalarTag,
  type YAMLMap,
} from "yaml";
