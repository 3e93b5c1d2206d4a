import type { DependencyEdges } from "../checks/graph.js";

/**
 * The dependency edges of a validated task list as flat typed arrays, both ways. Edge k of task i
 * (k in `[depStart[i], depStart[i + 1])`, in listed order) points at task `depTarget[k]`, required
 * unless `depRequired[k]` is 0. The dependents of task t are `dependentOf[s]` for s in
 * `[dependentStart[t], dependentStart[t + 1])`, each through edge `dependentEdge[s]`.
 */
export interface DependencyLayout {
  depStart: Int32Array;
  depTarget: readonly number[];
  depRequired: Uint8Array;
  dependentStart: Int32Array;
  dependentOf: Int32Array;
  dependentEdge: Int32Array;
}

/**
 * Lays out the edges the check resolved (`resolved`, every target a task index), with
 * `depRequired` already filled in by the caller (it reads each task's dependencies while the
 * task's copy is fresh in the cache).
 */
export function layoutDependencies(resolved: DependencyEdges, depRequired: Uint8Array): DependencyLayout {
  const { offsets: depStart, targets: depTarget } = resolved;
  const n = depStart.length - 1;
  const edges = depStart[n]!;
  const dependentStart = new Int32Array(n + 1);
  for (let k = 0; k < edges; k++) dependentStart[depTarget[k]! + 1]!++;
  for (let i = 0; i < n; i++) dependentStart[i + 1]! += dependentStart[i]!;
  const fill = dependentStart.slice(0, n);
  const dependentOf = new Int32Array(edges);
  const dependentEdge = new Int32Array(edges);
  for (let i = 0; i < n; i++) {
    for (let k = depStart[i]!; k < depStart[i + 1]!; k++) {
      const slot = fill[depTarget[k]!]!++;
      dependentOf[slot] = i;
      dependentEdge[slot] = k;
    }
  }
  return { depStart, depTarget, depRequired, dependentStart, dependentOf, dependentEdge };
}
