// The /_mock operation of shadow mode: what it found when the same requests went to a target.
import { DriftReportSchema } from '../schemas/drift.js';
import { answer } from './answers.js';
import { declareControl } from './declare.js';

export const CONTROL_DRIFT_OPERATIONS = [
  declareControl({
    operationId: 'controlDrift',
    method: 'get',
    path: '/_mock/drift',
    summary: 'What shadow mode found: where the target answered differently, grouped by operation and field',
    description:
      "With `--shadow URL` every v3 request is also sent to the target off the request path (GET only unless `--shadow-writes` with `--disposable-project`). Differences are grouped by cause: the same field with the same mock and target values is one group whichever operations showed it, listing them, with its count, first and last time and up to three examples (journal ids and operations; values redacted and cut). An optional field the mock sends and the target dropped is a group of level `warning` (a required one is drift). Also: requests compared, same and drifted; dropped (queue full, rate spent, target down); skipped by rule; the target's state (`up`, `down` since when, the last error code). Bounded in bytes (`max_bytes`); past it differences are only counted (`ungrouped`). Without `--shadow`, `enabled` is false. Reset clears it.",
    errors: [],
    success: [answer('DriftReport', DriftReportSchema, 'The drift report')],
    client: { name: 'drift', doc: "What shadow mode found (GET /_mock/drift): differences by operation and field, counts, the target's state." },
    handler:
      () =>
      ({ control }) =>
        control.drift(),
  }),
];
