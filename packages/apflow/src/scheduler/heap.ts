/** A binary min-heap of non-negative integer keys (the scheduler's ready queue). */
export interface IntHeap {
  readonly size: number;
  push(key: number): void;
  pop(): number | undefined;
}

export function createIntHeap(): IntHeap {
  const items: number[] = [];
  return {
    get size() {
      return items.length;
    },
    push(key) {
      let i = items.push(key) - 1;
      while (i > 0) {
        const parent = (i - 1) >> 1;
        if (items[parent]! <= key) break;
        items[i] = items[parent]!;
        i = parent;
      }
      items[i] = key;
    },
    pop() {
      if (items.length === 0) return undefined;
      const top = items[0]!;
      const last = items.pop()!;
      const n = items.length;
      if (n > 0) {
        let i = 0;
        for (;;) {
          let child = 2 * i + 1;
          if (child >= n) break;
          if (child + 1 < n && items[child + 1]! < items[child]!) child++;
          if (items[child]! >= last) break;
          items[i] = items[child]!;
          i = child;
        }
        items[i] = last;
      }
      return top;
    },
  };
}
