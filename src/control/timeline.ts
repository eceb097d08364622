// GET /_mock/timeline: the state and the journal as bucketed series over a span of the mock clock (runs by status,
// spend per project against its budget, approvals opened and decided, jobs fired, requests by status class), bounded
// in bytes by the bucket cap whatever the length of the history.
import type { ReadView } from '../storage/index.js';
import type { Stored } from './journal-types.js';
import { defaultBudget } from '../domain/index.js';
import { RunStatus } from '../schemas/index.js';
import { TIMELINE_DEFAULT_SPAN_MS, TimelineQuerySchema, type TimelineQuery } from '../schemas/index.js';
import { parse } from '../validation.js';
import { invalid } from '../errors.js';

/** Spend series for at most this many projects (the most spent in the span first); the others are counted. */
const TIMELINE_MAX_SPEND_PROJECTS = 8;

/** The request series: a status class each (`other` is 0, a connection a fault broke), then two marks. */
const REQUEST_SERIES = ['2xx', '3xx', '4xx', '5xx', 'other', 'faults', 'simulated'] as const;

/** A run as the series read it, parsed once per change of the runs (Store.derive). */
interface RunPoint {
  ms: number;
  id: string;
  project: string;
  status: string;
  cost: number;
  job: boolean;
}

export interface Timeline {
  from: string;
  to: string;
  bucket_ms: number;
  buckets: number;
  runs: Record<string, number[]>;
  approvals: { opened: number[]; decided: number[] };
  jobs_fired: number[];
  spend: { project_id: string; name: string; usd: number[]; daily_limit_usd: number | null; today_usd: number }[];
  spend_projects_omitted: number;
  requests: Record<(typeof REQUEST_SERIES)[number], number[]>;
  /** When the oldest entry the journal holds arrived (null: it holds none): before it, the request series know nothing. */
  journal_from: string | null;
  /** Per bucket, what a click opens: the first request (journal id) and the first run created in it. */
  first: { request: (number | null)[]; run: ({ id: string; project_id: string } | null)[] };
}

const zeros = (n: number) => new Array<number>(n).fill(0);
/** Cents of a cent: spend sums stay short in JSON. */
const usd = (n: number) => Math.round(n * 1e6) / 1e6;

/** Approvals' times, parsed once per change of the approvals, each list sorted (NaN-free: decided ones only). */
function approvalTimes(view: ReadView): { opened: number[]; decided: number[] } {
  return view.derive('timeline:approvals', ['approvals'], () => {
    const opened: number[] = [];
    const decided: number[] = [];
    for (const a of view.values('approvals')) {
      opened.push(Date.parse(a.requested_at));
      if (a.decided_at) decided.push(Date.parse(a.decided_at));
    }
    return { opened: opened.sort((x, y) => x - y), decided: decided.sort((x, y) => x - y) };
  });
}

/** The first index of `sorted` whose time is at or after `ms`. */
function firstAt<T>(sorted: readonly T[], ms: number, at: (t: T) => number): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (at(sorted[mid]) < ms) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

function runPoints(view: ReadView): RunPoint[] {
  return view.derive('timeline:runs', ['runs'], () => {
    const out: RunPoint[] = [];
    for (const r of view.values('runs'))
      out.push({
        ms: Date.parse(r.created_at),
        id: r.id,
        project: r.project_id,
        status: r.status,
        cost: r.cost_usd ?? 0,
        job: (r.request_metadata as { source?: unknown } | undefined)?.source === 'job',
      });
    // Runs are mostly stored in creation order: sort only when they are not.
    for (let i = 1; i < out.length; i++) if (out[i].ms < out[i - 1].ms) return out.sort((a, b) => a.ms - b.ms);
    return out;
  });
}

/** The span and its buckets: `[from, to)` cut into at most `buckets` of a whole number of ms (an empty span has none). */
function span(query: TimelineQuery, nowMs: number) {
  const q = parse(TimelineQuerySchema, query, 'query');
  const to = q.to !== undefined ? Date.parse(q.to) : nowMs;
  const from = q.from !== undefined ? Date.parse(q.from) : to - TIMELINE_DEFAULT_SPAN_MS;
  if (from > to) throw invalid(['query', 'from'], 'Input should be at or before `to`', 'value_error', q.from);
  const width = Math.max(1, Math.ceil((to - from) / q.buckets));
  return { from, to, width, count: Math.ceil((to - from) / width) };
}

export function timeline(view: ReadView, journal: readonly Stored[], nowMs: number, query: TimelineQuery = {}): Timeline {
  const { from, to, width, count } = span(query, nowMs);
  const slot = (ms: number) => (ms >= from && ms < to ? Math.floor((ms - from) / width) : -1);

  const runs: Record<string, number[]> = Object.fromEntries(RunStatus.options.map((s) => [s, zeros(count)]));
  const jobs = zeros(count);
  const firstRun: Timeline['first']['run'] = new Array(count).fill(null);
  const spendBy = new Map<string, number[]>();
  const spentIn = new Map<string, number>();
  // Sorted by time: only the runs of the span are read.
  const points = runPoints(view);
  for (let k = firstAt(points, from, (p) => p.ms); k < points.length && points[k].ms < to; k++) {
    const r = points[k];
    const i = slot(r.ms);
    runs[r.status][i]++;
    if (r.job) jobs[i]++;
    firstRun[i] ??= { id: r.id, project_id: r.project };
    if (r.cost > 0) {
      let s = spendBy.get(r.project);
      if (!s) spendBy.set(r.project, (s = zeros(count)));
      s[i] += r.cost;
      spentIn.set(r.project, (spentIn.get(r.project) ?? 0) + r.cost);
    }
  }

  const approvals = { opened: zeros(count), decided: zeros(count) };
  const times = approvalTimes(view);
  for (const key of ['opened', 'decided'] as const) {
    const list = times[key];
    for (let k = firstAt(list, from, (ms) => ms); k < list.length && list[k] < to; k++) approvals[key][slot(list[k])]++;
  }

  const requests = Object.fromEntries(REQUEST_SERIES.map((s) => [s, zeros(count)])) as Timeline['requests'];
  const firstRequest: (number | null)[] = new Array(count).fill(null);
  for (const e of journal) {
    const i = slot(e.atMs);
    if (i < 0) continue;
    const cls = e.status >= 200 && e.status < 600 ? (`${Math.floor(e.status / 100)}xx` as '2xx') : 'other';
    requests[cls in requests ? cls : 'other'][i]++;
    if (e.fault) requests.faults[i]++;
    if (e.simulated) requests.simulated[i]++;
    firstRequest[i] ??= e.id;
  }

  const ranked = [...spentIn].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1));
  const spend = ranked.slice(0, TIMELINE_MAX_SPEND_PROJECTS).map(([id]) => {
    const budget = view.get('budgets', id) ?? defaultBudget(id);
    return {
      project_id: id,
      name: view.get('projects', id)?.name ?? id,
      usd: spendBy.get(id)!.map(usd),
      daily_limit_usd: budget.limits.project_daily_usd ?? null,
      today_usd: usd(budget.current_daily_spend_usd),
    };
  });

  return {
    from: new Date(from).toISOString(),
    to: new Date(to).toISOString(),
    bucket_ms: width,
    buckets: count,
    runs,
    approvals,
    jobs_fired: jobs,
    spend,
    spend_projects_omitted: ranked.length - spend.length,
    requests,
    journal_from: journal.length ? new Date(journal[0].atMs).toISOString() : null,
    first: { request: firstRequest, run: firstRun },
  };
}
