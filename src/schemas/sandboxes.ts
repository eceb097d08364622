// Control documents of sandboxes and named snapshots: what POST /_mock/sandboxes and /_mock/snapshots take and answer.
import * as v from 'valibot';
import { AnyJson, Int, Timestamp, intQuery, model, strictModel } from './common.js';
import { SimulationMode, Speed, TrafficSchema } from './simulation.js';

/** A snapshot's name: a path segment as it is (letters, digits, `.`, `_`, `-`), 1-100 characters. */
const SnapshotName = v.pipe(v.string(), v.minLength(1), v.maxLength(100), v.regex(/^[A-Za-z0-9._-]+$/, 'Input should be letters, digits, ., _ or -'));

/** A sandbox's time to live after its last request: 1 ms .. 30 days. */
const TtlMs = v.pipe(Int, v.minValue(1), v.maxValue(30 * 24 * 60 * 60 * 1000));

export const CreateSandboxSchema = strictModel({
  /** A label shown in lists and the inspector (not an address). */
  name: v.optional(v.pipe(v.string(), v.maxLength(200))),
  /** A fixture document to start from (not with `snapshot`). */
  fixtures: v.optional(AnyJson),
  /** The name of a snapshot saved at the default mock to start from (not with `fixtures`). */
  snapshot: v.optional(SnapshotName),
  /** Seeds the sandbox's ids and tokens (and its simulation's draws). */
  seed: v.optional(v.union([v.pipe(v.string(), v.maxLength(200)), Int])),
  /** Freezes the sandbox's clock at `now`. */
  clock: v.optional(strictModel({ now: Timestamp })),
  simulation: v.optional(strictModel({ mode: v.optional(SimulationMode), speed: v.optional(Speed), traffic: v.optional(v.array(TrafficSchema)) })),
  ttl_ms: v.optional(TtlMs),
});
export type CreateSandboxInput = v.InferInput<typeof CreateSandboxSchema>;

export const SandboxPath = model({ sandbox_id: v.pipe(v.string(), v.maxLength(40)) });
export const SandboxPageQuerySchema = model({ limit: intQuery(1, 200, 50), cursor: v.optional(v.string()) });
export type SandboxPageQuery = v.InferInput<typeof SandboxPageQuerySchema>;

export const SaveSnapshotSchema = strictModel({ name: SnapshotName });
export const SnapshotPath = model({ name: SnapshotName });

/** A sandbox as the control surface answers it. */
export const SandboxInfoSchema = v.object({
  id: v.string(),
  name: v.nullable(v.string()),
  base_url: v.string(),
  created_at: Timestamp,
  expires_at: Timestamp,
  ttl_ms: Int,
});
export type SandboxInfo = v.InferOutput<typeof SandboxInfoSchema>;
export const SandboxPageSchema = v.object({ items: v.array(SandboxInfoSchema), next_cursor: v.nullable(v.string()) });
export type SandboxPage = v.InferOutput<typeof SandboxPageSchema>;

export const SnapshotInfoSchema = v.object({ name: v.string(), created_at: Timestamp, bytes: Int });
export const SnapshotPageSchema = v.object({ items: v.array(SnapshotInfoSchema) });
