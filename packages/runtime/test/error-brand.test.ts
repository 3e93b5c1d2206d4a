import { describe, expect, it } from "vitest";
import { isErrorInstance } from "@flowspec/runtime";

/** A class hierarchy as a package declares it; `copy` makes a second, separate copy (another build). */
function hierarchy() {
  class Base extends Error {
    static readonly "~brand": string = "test:Base";
    static override [Symbol.hasInstance](value: unknown): boolean {
      return isErrorInstance(this, value);
    }
  }
  class Child extends Base {
    static override readonly "~brand": string = "test:Child";
  }
  class Sibling extends Base {
    static override readonly "~brand": string = "test:Sibling";
  }
  return { Base, Child, Sibling };
}

describe("isErrorInstance", () => {
  const one = hierarchy();
  const other = hierarchy();

  it("takes an instance of another copy's class for one of this copy's, subclass-aware", () => {
    const child = new other.Child("x");
    expect(child instanceof one.Child).toBe(true);
    expect(child instanceof one.Base).toBe(true);
    expect(child instanceof one.Sibling).toBe(false);
    expect(new other.Base("x") instanceof one.Child).toBe(false);
  });

  it("gives a subclass without a brand of its own (user code) the ordinary check", () => {
    class Mine extends one.Child {}
    expect(new Mine("x") instanceof Mine).toBe(true);
    expect(new Mine("x") instanceof one.Base).toBe(true);
    expect(new one.Child("x") instanceof Mine).toBe(false);
    expect(new other.Child("x") instanceof Mine).toBe(false);
  });

  it.each([null, undefined, 1, "Base", {}, Object.create(null), new Error("x")])("is false for %s", (value) => {
    expect(value instanceof one.Base).toBe(false);
  });
});
