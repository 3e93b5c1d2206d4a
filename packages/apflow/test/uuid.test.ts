import { describe, expect, it } from "vitest";
import { isUuidV4 } from "@flowspec/apflow";

// The pattern isUuidV4 implements without a regex (the regex was the check's largest cost).
const PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/i;
const VALID = ["0b6f3a4e-8c1d-4f2a-9e3b-5d7c1a2b3c4d", "7C2D9E1F-3A4B-4C5D-BE6F-1A2B3C4D5E6F", "00000000-0000-4000-8000-000000000000"];
// Characters worth trying at every position: each class edge, upper case, the separators, non-ASCII.
const PROBES = [..."0459:@`afgAFGz-_ 89abAB\n\u0000\u0018\u0019", "\u00e9", "\uff41", "\u0130", "\u212a"];

describe("isUuidV4", () => {
  it("accepts v4 UUIDs in either case", () => {
    for (const id of VALID) expect(isUuidV4(id)).toBe(true);
  });
  it("agrees with the Spec's pattern on every one-character change, insertion and deletion", () => {
    let compared = 0;
    for (const id of VALID) {
      for (let i = 0; i <= id.length; i++) {
        const variants = [id.slice(0, i) + id.slice(i + 1), ...PROBES.flatMap((c) => [id.slice(0, i) + c + id.slice(i + 1), id.slice(0, i) + c + id.slice(i)])];
        for (const text of variants) {
          expect(isUuidV4(text), JSON.stringify(text)).toBe(PATTERN.test(text));
          compared++;
        }
      }
    }
    expect(compared).toBeGreaterThan(5000);
  });
  it("rejects the shapes the Spec leaves out", () => {
    for (const text of ["", "urn:uuid:0b6f3a4e-8c1d-4f2a-9e3b-5d7c1a2b3c4d", "{0b6f3a4e-8c1d-4f2a-9e3b-5d7c1a2b3c4d}", "6ba7b810-9dad-11d1-80b4-00c04fd430c8", "0b6f3a4e-8c1d-4f2a-ce3b-5d7c1a2b3c4d", "0b6f3a4e8c1d4f2a9e3b5d7c1a2b3c4d"]) {
      expect(isUuidV4(text), text).toBe(false);
    }
  });
});
