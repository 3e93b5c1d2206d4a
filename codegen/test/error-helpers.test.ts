import { describe, expect, it } from "vitest";
import { addErrorsByHelpers, errorLiteral } from "../src/error-helpers.js";

// Each error object ajv writes as a five-property literal is built by a helper of the module: the
// same object (same properties, order and values), one call instead of two lines of text.

const PUSH = `function pushError_(list, error, count, maxErrors){
if(list === null){
return [error];
}
if(count < maxErrors){
list.push(error);
}
return list;
}`;

/** A validator in ajv's form with the given error literals, each pushed where its branch fails. */
const validator = (errors: readonly string[]) =>
  [
    'function validate1(data, {instancePath="", maxErrors=100}={}){',
    "let vErrors = null;",
    "let errors = 0;",
    "const key0 = Object.keys(data)[0];",
    "const missing0 = \"m\";",
    'const schema1 = {"enum": ["a", 1]};',
    ...errors.flatMap((literal, i) => [`if(data.fail${i}){`, `const err${i} = ${literal};`, `vErrors = pushError_(vErrors, err${i}, errors++, maxErrors);`, "}"]),
    "validate1.errors = vErrors;",
    "validate1.errorCount = errors;",
    "return errors === 0;",
    "}",
    PUSH,
  ].join("\n");

const run = (code: string, data: Record<string, unknown>, maxErrors = 100) => {
  const validate = new Function(`${code}\nreturn validate1;`)() as ((data: unknown, context: unknown) => boolean) & { errors: unknown[] | null; errorCount: number };
  const valid = validate(data, { instancePath: "/at", maxErrors });
  return { valid, errors: JSON.stringify(validate.errors), errorCount: validate.errorCount };
};

const LITERALS = [
  '{instancePath,schemaPath:"#/required",keyword:"required",params:{missingProperty: "name"},message:"must have required property \'"+"name"+"\'"}',
  '{instancePath,schemaPath:"#/required",keyword:"required",params:{missingProperty: missing0},message:"must have required property \'"+missing0+"\'"}',
  '{instancePath:instancePath+"/name",schemaPath:"#/properties/name/type",keyword:"type",params:{type: "string"},message:"must be string"}',
  '{instancePath:instancePath+"/" + key0.replace(/~/g, "~0").replace(/\\//g, "~1"),schemaPath:"#/additionalProperties",keyword:"additionalProperties",params:{additionalProperty: key0},message:"must NOT have additional properties"}',
  '{instancePath:instancePath+"/a,b",schemaPath:"#/properties/a,b/minLength",keyword:"minLength",params:{limit: 1},message:"must NOT have fewer than 1 characters"}',
  '{instancePath,schemaPath:"#/x",keyword:"format",params:{format: "a,message:b"},message:"must match format \\""+"a,message:b"+"\\""}',
  '{instancePath,schemaPath:"#/maxLength",keyword:"maxLength",params:{limit: 256},message:"must NOT have more than 256 characters"}',
  '{instancePath,schemaPath:"#/minimum",keyword:"minimum",params:{comparison: ">=", limit: -1},message:"must be >= -1"}',
  '{instancePath,schemaPath:"#/enum",keyword:"enum",params:{allowedValues: schema1.enum},message:"must be equal to one of the allowed values"}',
  '{instancePath,schemaPath:"#/const",keyword:"const",params:{allowedValue: "a\\"b"},message:"must be equal to constant"}',
  '{instancePath,schemaPath:"#/oneOf",keyword:"oneOf",params:{passingSchemas: missing0},message:"must match exactly one schema in oneOf"}',
];

describe("addErrorsByHelpers", () => {
  it("builds each error in one helper call, the shorter helpers where params and message are the derived ones", () => {
    const code = addErrorsByHelpers(validator(LITERALS));
    expect(code).not.toMatch(/const err\d+ =/);
    expect(code).toContain('vErrors = addRequiredError_(vErrors, instancePath, "#/required", "name", errors++, maxErrors);');
    expect(code).toContain('vErrors = addRequiredError_(vErrors, instancePath, "#/required", missing0, errors++, maxErrors);');
    expect(code).toContain('vErrors = addTypeError_(vErrors, instancePath+"/name", "#/properties/name/type", "string", errors++, maxErrors);');
    expect(code).toContain('vErrors = addMinLengthError_(vErrors, instancePath+"/a,b", "#/properties/a,b/minLength", 1, errors++, maxErrors);');
    expect(code).toContain('vErrors = addMinimumError_(vErrors, instancePath, "#/minimum", -1, errors++, maxErrors);');
    expect(code).toContain('vErrors = addEnumError_(vErrors, instancePath, "#/enum", schema1.enum, errors++, maxErrors);');
    expect(code).toContain('vErrors = addError_(vErrors, instancePath, "#/oneOf", "oneOf", {passingSchemas: missing0}, "must match exactly one schema in oneOf", errors++, maxErrors);');
    // One declaration per helper used: the general one and eight derived ones.
    expect(code.match(/^function add\w*Error_\(/gm)).toHaveLength(10);
  });

  it("returns the very errors ajv's literals made (JSON text, property order included), for every subset of failures and caps", () => {
    const before = validator(LITERALS);
    const after = addErrorsByHelpers(before);
    for (let mask = 0; mask < 1 << LITERALS.length; mask++) {
      const data = Object.fromEntries(LITERALS.map((_, i) => [`fail${i}`, (mask >> i) & 1 ? 1 : 0]));
      for (const maxErrors of [1, 3, 100]) expect(run(after, data, maxErrors)).toEqual(run(before, data, maxErrors));
    }
  });

  it("leaves alone an error of another form: a message that is not the derived one, a sixth property, an error read elsewhere", () => {
    const odd = [
      '{instancePath,schemaPath:"#/type",keyword:"type",params:{type: "string"},message:"should be string"}',
      '{instancePath,schemaPath:"#/type",keyword:"type",params:{type: "string"},message:"must be string",propertyName:key0}',
    ];
    const code = addErrorsByHelpers(validator(odd));
    expect(code).toContain('vErrors = addError_(vErrors, instancePath, "#/type", "type", {type: "string"}, "should be string", errors++, maxErrors);');
    expect(code).toContain(`const err1 = ${odd[1]};`);
    const read = validator([LITERALS[2]!]).replace("validate1.errors = vErrors;", "validate1.errors = vErrors;\nvalidate1.last = err0;");
    expect(() => addErrorsByHelpers(read)).toThrow(/reads err0 beyond its push/);
  });
});

describe("errorLiteral", () => {
  it("splits at the object's own commas, not those inside strings, calls or regular expressions", () => {
    expect(errorLiteral(`const err3 = ${LITERALS[3]};`)).toEqual({
      name: "err3",
      instancePath: 'instancePath+"/" + key0.replace(/~/g, "~0").replace(/\\//g, "~1")',
      schemaPath: '"#/additionalProperties"',
      keyword: '"additionalProperties"',
      params: "{additionalProperty: key0}",
      message: '"must NOT have additional properties"',
    });
    expect(errorLiteral(`const err5 = ${LITERALS[5]};`)?.params).toBe('{format: "a,message:b"}');
  });

  it("is undefined for any other line", () => {
    for (const line of ["const err0 = {};", 'const err0 = {schemaPath:"#",instancePath,keyword:"k",params:{},message:"m"};', "const schema1 = {instancePath: 1};", 'const err0 = {instancePath,schemaPath:"#",keyword:"k",params:{}};']) {
      expect(errorLiteral(line)).toBeUndefined();
    }
  });
});
