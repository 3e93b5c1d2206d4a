/**
 * Typed-array work space a check reuses from one call to the next. Each `new Int32Array` or
 * `new Uint8Array` of more than a few entries gets its own memory outside the JS heap, and a check
 * needed about thirty of them (the tree walk's growing lists, the per-task verdicts, the cycle
 * search's four arrays); borrowing them took 5-11% off a 1k-task check's CPU time. A check now
 * borrows them from here and gives them back when it ends, so a program that checks many trees
 * allocates them once.
 *
 * Only what does not outlive the check is borrowed: the arrays handed to runTaskTree (edge offsets,
 * parent indexes) are still allocated per call. Arrays longer than `KEEP_UP_TO` entries are not
 * kept (a large check allocates its own, a cost small beside its O(n) work), so the space kept is
 * bounded. A check that starts while another one is running (a getter of the input calling
 * checkTaskTree) finds the space taken and allocates its own, as before.
 */
export const KEEP_UP_TO = 1 << 16;

/** The slots of the space: one array per use, so no two uses of one check share memory. */
export const PARENT_SLOT = 0;
export const CHILD_INDEX = 1;
export const TASK_SLOT = 2;
export const TASK_NODE = 3;
export const PARENTS = 4;
export const OFFSETS = 5;
export const NEXT = 6;
export const STACK = 7;
export const DEPTH = 8;
export const VERDICTS = 9;
export const STATE = 10;
const SLOTS = 11;

export class Scratch {
  private readonly ints: (Int32Array | undefined)[] = new Array(SLOTS).fill(undefined);
  private readonly bytes: (Uint8Array | undefined)[] = new Array(SLOTS).fill(undefined);

  /** An Int32Array of at least `length` entries (more when a larger one is kept); its contents are left over. */
  int(slot: number, length: number): Int32Array {
    const kept = this.ints[slot];
    if (kept !== undefined && kept.length >= length) return kept;
    const fresh = new Int32Array(length);
    this.keepInt(slot, fresh);
    return fresh;
  }

  /** Keeps `array` in `slot` for the next check (a list that grew), unless it is too large. */
  keepInt(slot: number, array: Int32Array): void {
    if (array.length <= KEEP_UP_TO) this.ints[slot] = array;
  }

  /** A Uint8Array of at least `length` entries, the first `length` of them zero. */
  zeroedBytes(slot: number, length: number): Uint8Array {
    const kept = this.bytes[slot];
    if (kept !== undefined && kept.length >= length) return kept.fill(0, 0, length);
    const fresh = new Uint8Array(length);
    if (length <= KEEP_UP_TO) this.bytes[slot] = fresh;
    return fresh;
  }
}

let shared: Scratch | undefined = new Scratch();

/** The shared space, or a fresh one while it is in use (a check inside a check). Give it back with `release`. */
export function acquireScratch(): Scratch {
  const space = shared;
  if (space === undefined) return new Scratch();
  shared = undefined;
  return space;
}

export function releaseScratch(space: Scratch): void {
  shared ??= space;
}
