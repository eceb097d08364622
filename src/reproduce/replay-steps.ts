// The journal of one session as replay steps: each request as it was sent (credentials sealed) and the answer it got (as the journal shows it).
import type { JournalEntry, Stored } from '../control/index.js';
import { parseQuery } from '../control/index.js';
import { bodyParts } from '../control/index.js';
import type { Sealed, Sealer } from '../control/index.js';
import { ApiError } from '../errors.js';

/** At most this many requests are replayed by one exported test. */
const EXPORT_MAX_REQUESTS = 10_000;

/** One request to send again, and what to assert of its answer. */
export interface ReplayStep {
  id: number;
  /** What a failure names: method, the path as the journal shows it (redacted), the operation. */
  name: string;
  /** The mock clock when it arrived: replayed at that time (only when the clock stood still all session). */
  at?: string;
  method: string;
  /** Path and query as sent; sealed when they hold a credential. */
  url: string | Sealed;
  headers: Record<string, string | Sealed>;
  /** The body as sent (exact text, so a signature over it still holds); sealed when it holds a credential. */
  body: string | Sealed | null;
  /** The sealed body as the journal shows it (redacted), for the reader. */
  shows?: unknown;
  status: number;
  /** The answer's body as the journal shows it: the replay's journal shows its own answer the same way. */
  response: unknown;
  /** False before `since`: replayed to rebuild the state, not asserted. */
  assert: boolean;
  /** A `hang` fault held it and its client gave up: the replay gives up on it too (it would wait out the fault's cap). */
  hang?: true;
}

/** Headers a client or a proxy sets per connection: the replay's fetch sets its own. */
const HOP_HEADERS = new Set([
  'host',
  'connection',
  'content-length',
  'transfer-encoding',
  'keep-alive',
  'upgrade',
  'expect',
  'te',
  'trailer',
  'proxy-connection',
  'x-mock-sandbox',
]);

const same = (a: unknown, b: unknown): boolean => JSON.stringify(a) === JSON.stringify(b);

const notReplayable = (message: string) => new ApiError('session_not_replayable', { message });

/** The body as it was received, parsed as the journal view parses it (to compare with what the journal shows). */
function received(text: string, json: boolean): unknown {
  if (!json) return text;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/** One request as it was sent: every part the journal shows redacted is sealed whole, the rest is written as is. */
function step(raw: Stored, shown: JournalEntry, sealer: Sealer, withTime: boolean, assert: boolean): ReplayStep {
  const sent = raw.requestBody === null ? null : bodyParts(raw.requestBody);
  if (sent?.truncatedFrom !== undefined) {
    throw notReplayable(
      `Request ${raw.id}'s body was cut to the journal's body limit, so it cannot be sent again: raise createApp({ journal: { bodyBytes } }) and run the session again.`,
    );
  }
  const url = raw.querystring ? `${raw.path}?${raw.querystring}` : raw.path;
  const urlShown = shown.path === raw.path && same(shown.query, parseQuery(raw.querystring));
  const headers: Record<string, string | Sealed> = {};
  for (const [k, v] of Object.entries(raw.requestHeaders)) {
    if (v === undefined || HOP_HEADERS.has(k.toLowerCase())) continue;
    const text = Array.isArray(v) ? v.join(', ') : String(v);
    headers[k] = same(shown.request.headers[k], v) ? text : sealer.seal(text);
  }
  const text = sent?.text ?? null;
  const bodyShown = sent === null || same(shown.request.body, received(sent.text, sent.json));
  const out: ReplayStep = {
    id: raw.id,
    name: `${shown.method} ${shown.path}${shown.operation ? ` (${shown.operation})` : ''}`,
    method: raw.method,
    url: urlShown ? url : sealer.seal(url),
    headers,
    body: bodyShown ? text : sealer.seal(text),
    status: shown.status,
    response: shown.response.body,
    assert,
  };
  if (!bodyShown) out.shows = shown.request.body;
  if (withTime) out.at = shown.at;
  if (raw.fault?.transport === 'hang') out.hang = true;
  return out;
}

/**
 * The session's requests from `firstId` (raw, and as shown), checked whole before a step is written: at most
 * EXPORT_MAX_REQUESTS (413), none lost (409), `since` one of them (422 at its loc, raised by the caller's check).
 */
export function replaySteps(
  journal: { next: number; records(f: { after: number }): readonly Stored[]; list(f: { after: number }): JournalEntry[] },
  firstId: number,
  sealer: Sealer,
  options: { since?: number; withTime: boolean },
): ReplayStep[] {
  const count = journal.next - firstId;
  if (count > EXPORT_MAX_REQUESTS) {
    throw new ApiError('export_too_large', {
      message: `The session holds ${count} requests (${firstId}..${journal.next - 1}); an exported test replays at most ${EXPORT_MAX_REQUESTS}: start a new session closer to the failure (POST /_mock/reset, or a state or snapshot restore) and export that.`,
    });
  }
  const raw = journal.records({ after: firstId - 1 });
  if (raw.length !== count || (count > 0 && raw[0].id !== firstId)) {
    const lost = count - raw.length;
    throw notReplayable(
      `${lost} of the session's ${count} requests (from ${firstId}) have left the journal (its bounds pushed them out, or it was cleared): the replay could not rebuild the state. Keep the journal larger than the session (createApp({ journal: { entries } })), or start a new session closer to the failure.`,
    );
  }
  const shown = journal.list({ after: firstId - 1 });
  // The simulation's own traffic is not replayed: the replay's simulation sends it again, from the same seed.
  return raw.flatMap((r, i) => (r.simulated ? [] : [step(r, shown[i], sealer, options.withTime, options.since === undefined || r.id >= options.since)]));
}
