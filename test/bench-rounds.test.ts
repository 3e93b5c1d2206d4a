import { describe, expect, it } from "vitest";
import { alternatingRounds, balancedOrders } from "../bench/support/rounds.js";

describe("bench rounds: balancedOrders", () => {
  for (const n of [2, 3, 4, 5, 6, 7]) {
    it(`balances position and predecessor for ${n} subjects`, () => {
      const items = Array.from({ length: n }, (_, i) => i);
      const orders = balancedOrders(items);
      expect(orders).toHaveLength(n % 2 === 0 ? n : 2 * n);
      for (const order of orders) expect([...order].sort((a, b) => a - b)).toEqual(items);
      // Each subject in each position equally often.
      for (let position = 0; position < n; position++) {
        const counts = items.map((item) => orders.filter((order) => order[position] === item).length);
        expect(new Set(counts).size, `position ${position}: ${counts}`).toBe(1);
      }
      // Each ordered pair (a directly before b) equally often.
      const pairs = new Map<string, number>();
      for (const order of orders) for (let i = 1; i < n; i++) pairs.set(`${order[i - 1]}>${order[i]}`, (pairs.get(`${order[i - 1]}>${order[i]}`) ?? 0) + 1);
      expect(pairs.size).toBe(n * (n - 1));
      expect(new Set(pairs.values()).size).toBe(1);
    });
  }

  it("cycles the subjects so none always runs first", async () => {
    const firsts: string[] = [];
    let ran = 0;
    const subject = (name: string) => () => {
      if (ran++ % 5 === 0) firsts.push(name);
      return 1;
    };
    await alternatingRounds({ a: subject("a"), b: subject("b"), c: subject("c"), d: subject("d"), e: subject("e") }, 10);
    expect(new Set(firsts)).toEqual(new Set(["a", "b", "c", "d", "e"]));
  });
});
