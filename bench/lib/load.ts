// Load generation with autocannon: timed or batched runs, and the interleaved baseline/subject comparison every ratio uses.
import autocannon from 'autocannon';
import { performance } from 'node:perf_hooks';
import { PROJECT, RUN, TOKEN, runId } from './data.js';

export const SECONDS = 3; // per measured round
export const ROUNDS = 2; // rounds per side, alternating baseline and subject
/** How a comparison alternates its sides: rounds per side and seconds per round. */
export interface Pace {
  rounds: number;
  seconds: number;
}
export const PLAIN: Pace = { rounds: ROUNDS, seconds: SECONDS };
/**
 * For rows whose target sits within a tenth of their figure (b-raw, flt, c-p, pgw1-p): many short rounds a side. This
 * machine's speed drifts by a fifth over a few seconds, so one round's ratio ranges over about a third; 18 alternating
 * rounds of 1 s pair each round with a neighbour under nearly the same drift (rounds of 2 or 3 s ranged 0.76 to 1.06 x
 * on sb3's load, 30 rounds of 1 s 0.88 to 0.94 x), in the same 36 s a side.
 */
export const EDGE: Pace = { rounds: 18, seconds: 1 };
/**
 * For rows whose figure sits within its spread of the target (sh, sb3): two identical servers in this harness spread
 * by 5.7 % (one standard deviation) over 20 rounds of 1 s a side, and 48 rounds narrow it to about 3.5 %.
 */
export const PRECISE: Pace = { rounds: 48, seconds: 1 };
export const CONNECTIONS = 10;
export const AUTH = { authorization: `Bearer ${TOKEN}` };
export const JSON_POST = { 'content-type': 'application/json' };
export const runPath = (id: string) => `/api/v3/projects/${PROJECT}/runs/${id}`;

export interface Load {
  /** Several URLs: autocannon spreads the connections over them in turn (a round-robin client, per connection). */
  url: string | string[];
  /**
   * One path; several, sent in turn on each connection (each request built once, as one path is); or a function called
   * for each request (autocannon builds that request anew each time, which costs the client more than the others).
   */
  path: string | readonly string[] | (() => string);
  method?: 'GET' | 'POST' | 'PUT';
  headers?: Record<string, string>;
  body?: string;
  /** Connections (default CONNECTIONS). */
  connections?: number;
  /** Send fixed batches of `size` requests (timed), calling `before` (untimed) ahead of each: a pool reset. */
  batch?: { size: number; before?: () => Promise<void> };
  /** Called (untimed) before each round of this side: one server set up for either side in turn. */
  before?: () => Promise<void>;
}
export interface Side {
  ok: number; // 2xx responses
  bad: number; // non-2xx responses and socket errors
  why: Record<string, number>; // what the bad ones were: a status code, `errors` or `timeouts`, with counts
  seconds: number;
  latencySum: number; // mean latency x rounds
  rounds: number;
}
const emptySide = (): Side => ({ ok: 0, bad: 0, why: {}, seconds: 0, latencySum: 0, rounds: 0 });

/** One autocannon run; `track.last` gets the time of the last response (autocannon's `amount` runs end on a 1 s tick). */
function cannon(load: Load, limit: { duration: number } | { amount: number }, track?: { last: number }) {
  const dynamic = typeof load.path === 'function';
  const several = typeof load.path !== 'string' && !dynamic;
  const request = (path?: string): autocannon.Request => {
    const r: autocannon.Request = path === undefined ? {} : { path };
    if (dynamic) r.setupRequest = (req) => ({ ...req, path: (load.path as () => string)() });
    if (track) r.onResponse = () => void (track.last = performance.now());
    return r;
  };
  const requests = several ? (load.path as readonly string[]).map(request) : [request()];
  const urls = (Array.isArray(load.url) ? load.url : [load.url]).map((u) => (dynamic || several ? u : u + (load.path as string)));
  return autocannon({
    url: (urls.length === 1 ? urls[0] : urls) as string, // autocannon takes several (its types say one)
    connections: load.connections ?? CONNECTIONS,
    ...limit,
    method: load.method ?? 'GET',
    headers: load.headers,
    body: load.body,
    ...(dynamic || several || track ? { requests } : {}),
  });
}

async function hit(load: Load, seconds: number, into?: Side): Promise<Side> {
  const side = into ?? emptySide();
  await load.before?.();
  let spent = 0;
  let latencySum = 0;
  let batches = 0;
  do {
    await load.batch?.before?.();
    const track = { last: performance.now() };
    const t0 = track.last;
    const r = await cannon(load, load.batch ? { amount: load.batch.size } : { duration: seconds }, load.batch ? track : undefined);
    spent += load.batch ? (track.last - t0) / 1000 : r.duration;
    side.ok += r['2xx'];
    side.bad += r.non2xx + r.errors;
    const stats = (r as { statusCodeStats?: Record<string, { count: number }> }).statusCodeStats ?? {};
    for (const [code, { count }] of Object.entries(stats)) if (!code.startsWith('2')) side.why[code] = (side.why[code] ?? 0) + count;
    if (r.errors) side.why.errors = (side.why.errors ?? 0) + r.errors;
    if (r.timeouts) side.why.timeouts = (side.why.timeouts ?? 0) + r.timeouts;
    latencySum += r.latency.average;
    batches++;
  } while (spent < seconds);
  side.seconds += spent;
  side.latencySum += latencySum / batches;
  side.rounds++;
  return side;
}

export const rps = (s: Side) => s.ok / s.seconds;
export const latency = (s: Side) => s.latencySum / s.rounds;

/** Warm-up (1 s each), then `pace.rounds` rounds per side in alternating order (B S, S B, ...). `acked` counts the subject's 2xx including warm-up. */
export async function compare(base: Load, subject: Load, pace: Pace = PLAIN) {
  const { rounds, seconds } = pace;
  const warmBase = await hit(base, 1);
  const warmSubject = await hit(subject, 1);
  const b = emptySide();
  const s = emptySide();
  for (let i = 0; i < rounds; i++) {
    if (i % 2 === 0) {
      await hit(base, seconds, b);
      await hit(subject, seconds, s);
    } else {
      await hit(subject, seconds, s);
      await hit(base, seconds, b);
    }
  }
  return { base: b, subject: s, acked: s.ok + warmSubject.ok, baseAcked: b.ok + warmBase.ok };
}

/** Paths that cancel pool runs first, first + 1, ... once each; `rewind` starts over (after a reset of the pool). */
export function cancelPaths(first = 0) {
  let i = first;
  return { next: () => `${runPath(runId(i++))}/cancel`, rewind: () => void (i = first) };
}
export const cancelLoad = (url: string, path: () => string): Load => ({
  url,
  path,
  method: 'POST',
  headers: { ...AUTH, ...JSON_POST },
  body: '{"reason":"bench"}',
});

/** A pool of queued runs for cancels in batches: each batch cancels runs 0..size-1 once (autocannon builds one request per connection ahead of time, so a batch stays short of the pool). */
export const POOL = 2_000;
export const POOL_BATCH = POOL - 2 * CONNECTIONS;

/** Cancels of the pool's runs at `url` in batches of POOL_BATCH, with POST /_mock/reset (untimed) bringing the pool back before each. */
export function poolCancels(url: string): Load {
  const paths = cancelPaths();
  const reset = async () => {
    const res = await fetch(`${url}/_mock/reset`, { method: 'POST' });
    if (res.status !== 200) throw new Error(`/_mock/reset answered ${res.status}`);
    paths.rewind();
  };
  return { ...cancelLoad(url, paths.next), batch: { size: POOL_BATCH, before: reset } };
}

/** Makes `n` sandboxes at `url` (POST /_mock/sandboxes) and answers the paths to GET run detail in each, sent in turn. */
export async function sandboxRoundRobin(url: string, n: number): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < n; i++) {
    const res = await fetch(`${url}/_mock/sandboxes`, { method: 'POST', headers: JSON_POST, body: '{}' });
    if (res.status !== 201) throw new Error(`POST /_mock/sandboxes answered ${res.status}`);
    ids.push(((await res.json()) as { id: string }).id);
  }
  return ids.map((id) => `/sandboxes/${id}${runPath(RUN)}`);
}
