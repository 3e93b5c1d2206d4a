/**
 * Type-level tests of the builder: `npm run typecheck` checks every `@ts-expect-error` below (a
 * line that compiles makes the directive itself an error); vitest runs the file for expectTypeOf.
 */
import { describe, expectTypeOf, it } from "vitest";
import {
  builtins,
  defineComponent,
  FlowBuilder,
  onError,
  type FlowResult,
  type Ref,
  type RefValue,
  type StepHandle,
} from "../src/index.js";

interface Order {
  id: string;
  items: { sku: string; qty: number }[];
  customer?: { name: string };
  "odd.key": boolean;
}

const lookup = defineComponent<{ id: string }, Order>("/shop/lookup");
const total = defineComponent(
  "/ts/total",
  async (input: { items: { qty: number }[] }) => ({
    total: input.items.length,
  }),
);
const b = builtins();

describe("FlowBuilder types", () => {
  it("types step handles by the component's output and references by their path", () => {
    const f = new FlowBuilder<{ orderId: string; flags: number[] }>();
    const order = f.addStep(lookup, {
      id: "order",
      input: { id: f.input("orderId") },
    });
    expectTypeOf(order).toEqualTypeOf<StepHandle<Order>>();
    expectTypeOf(order.ref()).toEqualTypeOf<Ref<Order>>();
    expectTypeOf(order.ref("id")).toEqualTypeOf<Ref<string>>();
    expectTypeOf(order.ref("odd.key")).toEqualTypeOf<Ref<boolean>>();
    expectTypeOf(order.ref("$.items")).toEqualTypeOf<
      Ref<{ sku: string; qty: number }[]>
    >();
    expectTypeOf(order.ref("$.items[0].qty")).toEqualTypeOf<Ref<number>>();
    expectTypeOf(order.ref('$["items"][ 1 ]')).toEqualTypeOf<
      Ref<{ sku: string; qty: number }>
    >();
    expectTypeOf(order.ref("$.customer.name")).toEqualTypeOf<Ref<string>>();
    expectTypeOf(f.input("$.flags[2]")).toEqualTypeOf<Ref<number>>();
    expectTypeOf(f.input()).toEqualTypeOf<
      Ref<{ orderId: string; flags: number[] }>
    >();

    const sum = f.addStep(total, {
      id: "sum",
      input: { items: order.ref("items") },
    });
    expectTypeOf(sum.ref("total")).toEqualTypeOf<Ref<number>>();
    expectTypeOf(
      f
        .addStep(b.createMessages, {
          id: "m",
          input: { user_prompt: order.ref("id") },
        })
        .ref("$.messages[0].role"),
    ).toEqualTypeOf<Ref<"system" | "user" | "assistant">>();
    expectTypeOf(
      f
        .addStep(b.eval, {
          id: "e",
          input: { workflow: new FlowBuilder(), input: null },
        })
        .ref("result"),
    ).toEqualTypeOf<Ref<FlowResult>>();
  });

  it("types paths through nullable objects and unions by the members that have them", () => {
    type Out = { a: { b: number } | null; u: { kind: "x"; x: number } | { kind: "y"; y: string } };
    const f = new FlowBuilder<{ n: number }>();
    const s = f.addStep(defineComponent<{ n: number }, Out>("/x/out"), { id: "s", input: { n: f.input("n") } });
    // A null `a` or a `y` member fails the run at that path; when it resolves, it is a number.
    expectTypeOf(s.ref("$.a.b")).toEqualTypeOf<Ref<number>>();
    expectTypeOf(s.ref("$.u.x")).toEqualTypeOf<Ref<number>>();
    f.addStep(defineComponent<{ n: number }, unknown>("/x/use"), { id: "u", input: { n: s.ref("$.a.b") } });
    const compileOnly = () => {
      // @ts-expect-error: no member of the union has "z"
      s.ref("$.u.z");
    };
    void compileOnly;
  });

  it("rejects paths the output type does not have", () => {
    const f = new FlowBuilder<{ orderId: string }>();
    const order = f.addStep(lookup, {
      id: "order",
      input: { id: f.input("orderId") },
    });
    // Not called: some of these paths would also throw at run time.
    const compileOnly = () => {
      // @ts-expect-error: Order has no field "nope"
      order.ref("nope");
      // @ts-expect-error: no field "nope" under $.items[0]
      order.ref("$.items[0].nope");
      // @ts-expect-error: "id" is a string, not an array
      order.ref("$.id[0]");
      // @ts-expect-error: an unquoted bracket must be an index
      order.ref("$[items]");
      // @ts-expect-error: a path must continue with "." or "[" after "$"
      order.ref("$items");
      // @ts-expect-error: the input has no field "missing"
      f.input("missing");
    };
    void compileOnly;
  });

  it("rejects inputs that do not fit a typed component", () => {
    const f = new FlowBuilder<{ orderId: string; count: number }>();
    // @ts-expect-error: id must be a string, and count is a number
    f.addStep(lookup, { id: "a", input: { id: f.input("count") } });
    // @ts-expect-error: id is required
    f.addStep(lookup, { id: "b", input: {} });
    // @ts-expect-error: the component needs an input, and a step without one passes it null
    f.addStep(lookup, { id: "b2" });
    // A component whose input may be null, or an untyped one, can do without.
    f.addStep(defineComponent<{ id: string } | null, Order>("/shop/any"), { id: "b3" });
    f.addStep("/x/untyped", { id: "b4" });
    // @ts-expect-error: user_prompt must be a string
    f.addStep(b.createMessages, { id: "c", input: { user_prompt: 42 } });
    f.addStep(b.createMessages, {
      id: "d",
      input: { user_prompt: f.input("orderId"), system_instructions: null },
    });
  });

  it("offers the four onError actions and typed skipIf", () => {
    const f = new FlowBuilder<{ skip: boolean }>();
    for (const policy of [
      onError.fail(),
      onError.skip(),
      onError.useDefault(),
      onError.useDefault({ fallback: true }),
      onError.retry(),
    ]) {
      f.addStep("/x/y", {
        id: `s${f.check().flow.steps.length}`,
        onError: policy,
        skipIf: f.input("skip"),
      });
    }
    // @ts-expect-error: "default" is not an onError action
    f.addStep("/x/y", { id: "bad", onError: { action: "default" } });
  });

  it("references can only come from handles or input()", () => {
    const f = new FlowBuilder();
    const a = f.addStep("/x/a", { id: "a" });
    // Untyped components give untyped handles: any path is allowed and typed `any`.
    const anything = a.ref("$.anything[3]");
    expectTypeOf<RefValue<typeof anything>>().toBeAny();
    const typed = new FlowBuilder<{ orderId: string }>();
    // @ts-expect-error: a raw $from object is not a reference where a typed input is expected
    typed.addStep(lookup, { id: "raw", input: { id: { $from: { step: "a" } } } });
    // @ts-expect-error: a step handle cannot be made from an id
    const forged: StepHandle<string> = { id: "a" };
    void forged;
  });
});
