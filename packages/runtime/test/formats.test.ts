import { fullFormats } from "ajv-formats/dist/formats.js";
import { describe, expect, it } from "vitest";
import { formats, isDateTime } from "../src/formats.js";
import { seededRandom } from "../../../test/support.js";

/** ajv-formats' own full `date-time`, which `isDateTime` replaces and must agree with. */
const reference = (fullFormats["date-time"] as { validate: (s: string) => boolean }).validate;

describe("date-time format", () => {
  it("is isDateTime in the table the generated validators use", () => {
    expect(formats["date-time"]).toBe(isDateTime);
  });

  it.each([
    "2025-01-01T00:00:00Z",
    "2025-01-01t00:00:00z",
    "2025-01-01 00:00:00Z",
    "2025-01-01T23:59:59.123456789Z",
    "2025-01-01T12:00:00+05:30",
    "2025-01-01T12:00:00-0800",
    "2025-01-01T12:00:00+05",
    "0000-01-01T00:00:00Z",
    "9999-12-31T23:59:59Z",
    // February 29 in leap years only.
    "2024-02-29T00:00:00Z",
    "2000-02-29T00:00:00Z",
    // Leap seconds: 23:59:60 in UTC, whatever the offset.
    "1990-12-31T23:59:60Z",
    "1990-12-31T23:59:60.5Z",
    "1990-12-31T15:59:60-08:00",
    "1991-01-01T00:59:60+01:00",
  ])("accepts %s", (value) => {
    expect(isDateTime(value)).toBe(true);
    expect(reference(value)).toBe(true);
  });

  it.each([
    "",
    "2025-01-01",
    "2025-01-01T00:00:00", // no time zone
    "2025-01-01T00:00Z",
    "2025-01-01T00:00:00.Z",
    "2025-01-01T00:00:00ZZ",
    "2025-01-01T00:00:00+5:00",
    "2025-01-01T00:00:00+05:",
    "2025-01-01T00:00:00+053",
    "2025-01-01T00:00:00+24:00",
    "2025-01-01T00:00:00+00:60",
    "2025-01-01TT00:00:00Z",
    "2025-01-01x00:00:00Z",
    " 2025-01-01T00:00:00Z",
    "2025-01-01T00:00:00Z ",
    "2025-1-01T00:00:00Z",
    "+02025-01-01T00:00:00Z",
    "٢٠٢٥-01-01T00:00:00Z", // non-ASCII digits
    // Invalid dates.
    "2025-00-01T00:00:00Z",
    "2025-13-01T00:00:00Z",
    "2025-01-00T00:00:00Z",
    "2025-01-32T00:00:00Z",
    "2025-04-31T00:00:00Z",
    "2023-02-29T00:00:00Z",
    "1900-02-29T00:00:00Z",
    // Invalid times.
    "2025-01-01T24:00:00Z",
    "2025-01-01T23:60:00Z",
    "2025-01-01T23:59:61Z",
    // A second of 60 anywhere but 23:59 UTC.
    "1990-12-31T23:58:60Z",
    "1990-12-31T22:59:60Z",
    "1990-12-31T23:59:60+01:00",
    "1990-12-31T23:59:60.5-00:01",
  ])("rejects %j", (value) => {
    expect(isDateTime(value)).toBe(false);
    expect(reference(value)).toBe(false);
  });

  it("agrees with ajv-formats on the product of tricky dates, separators, times and offsets", () => {
    const dates = ["0000-02-29", "1900-02-28", "1900-02-29", "2000-02-29", "2023-02-29", "2024-02-29", "2024-06-30", "2024-06-31", "2024-12-31", "2024-00-10", "2024-13-10", "2024-10-00"];
    const separators = ["T", "t", " ", "\t", "\n", "\u00a0", "\u2028", "\ufeff", "x", "_", "", "TT"];
    const times = ["00:00:00", "23:59:59", "23:59:60", "23:60:00", "23:60:60", "24:00:00", "22:59:60", "00:59:60", "00:00:60", "12:34:56", "99:99:99", "1:00:00", "00:00"];
    const fractions = ["", ".", ".0", ".5", ".999", ".9999999999999999999", ".99999999999999", "..5", ".5.5"];
    const zones = ["", "Z", "z", "+00", "-00", "+01", "-01", "+0001", "-0001", "+00:01", "-00:01", "+01:00", "-01:00", "+23:59", "-23:59", "+24:00", "+00:60", "+1", "+01:", "+010", "Z+01:00", "UTC"];
    let checked = 0;
    for (const date of dates)
      for (const separator of separators)
        for (const time of times)
          for (const fraction of fractions)
            for (const zone of zones) {
              const value = `${date}${separator}${time}${fraction}${zone}`;
              if (isDateTime(value) !== reference(value)) expect.fail(`${JSON.stringify(value)}: isDateTime ${isDateTime(value)}, ajv-formats ${reference(value)}`);
              checked++;
            }
    expect(checked).toBeGreaterThan(300_000);
  });

  it("agrees with ajv-formats on random mutations of valid timestamps", () => {
    const random = seededRandom(42);
    const alphabet = "0123456789:-+.TtZz \t\u00a0x";
    const seeds = ["2024-02-29T23:59:60.5+00:00", "1990-12-31T15:59:60-08:00", "2025-06-30T12:00:00Z", "2025-01-01 00:00:00.000-0130"];
    for (let n = 0; n < 200_000; n++) {
      let value = seeds[random(seeds.length)]!;
      for (let edits = 1 + random(3); edits > 0; edits--) {
        const at = random(value.length + 1);
        const char = alphabet[random(alphabet.length)]!;
        const op = random(3);
        value = op === 0 ? value.slice(0, at) + char + value.slice(at) : op === 1 ? value.slice(0, at) + value.slice(at + 1) : value.slice(0, at) + char + value.slice(at + 1);
      }
      if (isDateTime(value) !== reference(value)) expect.fail(`${JSON.stringify(value)}: isDateTime ${isDateTime(value)}, ajv-formats ${reference(value)}`);
    }
  });
});
