import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { isUuidV4 } from "@flowspec/apflow";

/** The Spec's UUID v4 pattern, as `isUuidV4` used to test it; the hand-written check must agree. */
const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/i;

// Characters next to every boundary the check tests: digits, a–f and A–F, the letters just past
// them, the characters whose code differs only in the 0x20 bit, '-' and the version/variant digits.
const near = fc.constantFrom(..."0123456789abcdefABCDEFgGzZ-4389@`/:[{ \u0000\u00e9");
const uuid = fc.uuid({ version: 4 });

describe("isUuidV4", () => {
  it("agrees with the Spec's pattern on UUIDs, mutated UUIDs and near-UUID strings", () => {
    const mutated = fc.tuple(uuid, fc.nat(36), near, fc.boolean()).map(([id, at, char, upper]) => {
      const text = id.slice(0, at) + char + id.slice(at + 1);
      return upper ? text.toUpperCase() : text;
    });
    const resized = fc.tuple(uuid, fc.integer({ min: -2, max: 2 })).map(([id, by]) => (by < 0 ? id.slice(0, 36 + by) : id + "0".repeat(by)));
    fc.assert(
      fc.property(fc.oneof(uuid, mutated, resized, fc.string({ unit: near, maxLength: 40 })), (text) => {
        expect(isUuidV4(text)).toBe(UUID_V4.test(text));
      }),
      { numRuns: 5000 },
    );
  });
  it.each([
    ["7c2d9e1f-3a4b-4c5d-8e6f-1a2b3c4d5e6f", true],
    ["7C2D9E1F-3A4B-4C5D-BE6F-1A2B3C4D5E6F", true],
    ["7c2d9e1f-3a4b-4c5d-ce6f-1a2b3c4d5e6f", false],
    ["7c2d9e1f-3a4b-1c5d-8e6f-1a2b3c4d5e6f", false],
    ["7c2d9e1f-3a4b-4c5d-8e6f-1a2b3c4d5e6g", false],
    ["7c2d9e1f-3a4b-4c5d-8e6f_1a2b3c4d5e6f", false],
    ["{7c2d9e1f-3a4b-4c5d-8e6f-1a2b3c4d5e6f}", false],
  ])("%s → %s", (text, expected) => {
    expect(isUuidV4(text)).toBe(expected);
  });
});
