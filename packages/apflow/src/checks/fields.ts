/** The 17 fields of the Spec's Task (protocol notes §2.1), in the Spec's order. */
export const TASK_FIELD_ORDER: readonly string[] = [
  "id", "parent_id", "user_id", "name", "status", "priority", "inputs", "schemas", "params", "result",
  "error", "dependencies", "progress", "created_at", "started_at", "updated_at", "completed_at",
];

export const TASK_FIELDS: ReadonlySet<string> = new Set(TASK_FIELD_ORDER);

/** Fields a v1 server (0.18.x) is known to send beyond the 17 (notes §2.5); wire mode does not warn on them. */
export const V1_EXTENSION_FIELDS: ReadonlySet<string> = new Set([
  "origin_type", "original_task_id", "has_references", "schedule_type", "schedule_expression",
  "schedule_enabled", "schedule_start_at", "schedule_end_at", "next_run_at", "last_run_at", "max_runs",
  "run_count", "task_tree_id", "has_children", "lease_id", "lease_expires_at", "placement_constraints",
  "attempt_id", "idempotency_key", "last_assigned_node",
]);

export const SCHEMAS_TYPES: ReadonlySet<string> = new Set(["local", "remote", "external"]);
