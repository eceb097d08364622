// GET /_mock/requests/export: the session since its start as a self-contained test file that rebuilds the mock and replays it.
import { Readable } from 'node:stream';
import { streamed, type Streamed } from '../json-stream.js';
import type { StateData } from '../schemas/index.js';
import type { Journal } from '../control/index.js';
import type { Sealer } from '../control/index.js';
import { ApiError, invalid } from '../errors.js';
import { bundleStream } from './bundle.js';
import { replaySteps } from './replay-steps.js';
import { startState, type SessionStart } from './session-start.js';
import { testFileChunks, type TestFormat } from './test-file.js';

/** Values that cannot repeat under a running clock: every timestamp the API answers. */
const CLOCK_FIELDS = ['*_at', 'at', 'now', 'since', 'until'];
/** Values that cannot repeat when ids come from a generator createApp was given rather than the seed. */
const ID_FIELDS = ['id', '*_id'];

export interface TestExportSource {
  start: SessionStart;
  seed: string | null;
  /** Ids come from the seeded generator (not one createApp was given). */
  idsSeeded: boolean;
  /** The clock stands still now (it must have all session for requests to be replayed at their times). */
  frozenNow: boolean;
  sealer: Sealer;
  journal: Journal;
  resetState: StateData;
  /** createApp options the answers depend on and the bundle does not carry. */
  options: { auth: 'on' | 'off'; bodyLimit: number };
}

export interface TestExportRequest {
  format?: TestFormat;
  /** The first request asserted; those before it are replayed only. */
  since?: number;
}

/** Checks everything first (seed, size, lost entries, `since`, cut bodies), then streams the file. */
export function exportTestStream(src: TestExportSource, request: TestExportRequest = {}): Streamed<string> {
  const { start, journal, sealer } = src;
  if (src.seed === null) {
    throw new ApiError('session_not_replayable', {
      message:
        'This mock has no seed: another mock could not mint its ids and tokens again. Start it with a seed (createApp({ seed }) or --seed) to export replayable tests.',
    });
  }
  const last = journal.next - 1;
  if (request.since !== undefined && (request.since < start.firstId || request.since > last)) {
    const held = last >= start.firstId ? `requests ${start.firstId}..${last}` : `no request yet (the next is ${start.firstId})`;
    throw invalid(['query', 'since'], `The session holds ${held}: since should be one of them`, 'value_error', request.since);
  }
  const running = !(start.frozen && src.frozenNow);
  const steps = replaySteps(journal, start.firstId, sealer, { since: request.since, withTime: !running });
  const shapeOnly = [...(running ? CLOCK_FIELDS : []), ...(src.idsSeeded ? [] : ID_FIELDS)];
  const bundle = bundleStream({
    sealer,
    seed: src.seed,
    generators: start.generators,
    faults: start.faults,
    journal: { next_id: start.firstId, left: start.firstId - 1, entries: [] },
    resetState: src.resetState,
    state: startState(start),
    mode: start.mode,
    retentionDays: start.retentionDays,
    credentials: true,
    keys: { admin_key: start.adminKey, broker_secret: start.brokerSecret },
  });
  const head = {
    format: request.format ?? 'node-test',
    first: start.firstId,
    last,
    since: request.since ?? start.firstId,
    shapeOnly,
    options: { ...src.options, journal: { bodyBytes: journal.limits.bodyBytes } },
  };
  return streamed(Readable.from(testFileChunks(head, steps, bundle), { objectMode: false }));
}
