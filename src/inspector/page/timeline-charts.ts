// The Timeline's charts, as uPlot options and data built from one GET /_mock/timeline answer (pure: no DOM, no
// Preact), so each chart is described once: its title, its series (a key, a label, a colour, how to read it) and its unit.
import type uPlot from 'uplot';
import type { S } from './api.js';

export type TimelineAnswer = S['ControlTimeline'];

export interface SeriesSpec {
  /** `runs.succeeded`, `requests.4xx`, `spend.{project}`: what the totals table and the tests name it by. */
  key: string;
  label: string;
  color: string;
  /** One value per bucket. */
  values: (t: TimelineAnswer) => (number | null)[];
  /** Marks only (faults): points, no line, nothing where the value is 0. */
  marks?: boolean;
  /** A dashed line (a budget limit). */
  dashed?: boolean;
  /** The figure the totals table shows (a sum of counts, or the spend in USD). */
  total: (t: TimelineAnswer) => number;
}

export interface ChartSpec {
  id: string;
  title: string;
  unit: string;
  series: (t: TimelineAnswer) => SeriesSpec[];
}

const sum = (xs: readonly number[]) => xs.reduce((a, b) => a + b, 0);
const RUN_COLORS: Record<string, string> = {
  queued: '#6b7280',
  running: '#2563eb',
  waiting_approval: '#d97706',
  succeeded: '#15803d',
  failed: '#b91c1c',
  cancelled: '#7c3aed',
};
const REQUEST_COLORS: Record<string, string> = { '2xx': '#15803d', '3xx': '#0e7490', '4xx': '#d97706', '5xx': '#b91c1c', other: '#6b7280' };
const PROJECT_COLORS = ['#2563eb', '#15803d', '#d97706', '#7c3aed', '#0e7490', '#be185d', '#4d7c0f', '#b91c1c'];

/** Requests in a bucket as a rate per minute (buckets of any width read alike). */
const perMinute = (t: TimelineAnswer, n: number) => Math.round((n / (t.bucket_ms / 60_000)) * 1000) / 1000;

/** Spend so far in the span, bucket by bucket (a running sum reads against a limit). */
function running(xs: readonly number[]): number[] {
  let acc = 0;
  return xs.map((x) => Math.round((acc += x) * 1e6) / 1e6);
}

export const CHARTS: ChartSpec[] = [
  {
    id: 'runs',
    title: 'Runs created, by status now',
    unit: 'runs',
    series: (t) =>
      Object.keys(t.runs).map((s) => ({ key: `runs.${s}`, label: s, color: RUN_COLORS[s] ?? '#111', values: (a) => a.runs[s], total: (a) => sum(a.runs[s]) })),
  },
  {
    id: 'requests',
    title: 'Requests per minute, by status class (faults marked)',
    unit: 'req/min',
    series: () => [
      ...(['2xx', '3xx', '4xx', '5xx', 'other'] as const).map((c) => ({
        key: `requests.${c}`,
        label: c,
        color: REQUEST_COLORS[c],
        values: (a: TimelineAnswer) => a.requests[c].map((n) => perMinute(a, n)),
        total: (a: TimelineAnswer) => sum(a.requests[c]),
      })),
      {
        key: 'requests.faults',
        label: 'faults',
        color: '#b91c1c',
        marks: true,
        values: (a) => a.requests.faults.map((n) => (n > 0 ? perMinute(a, n) : null)),
        total: (a) => sum(a.requests.faults),
      },
      {
        key: 'requests.simulated',
        label: 'simulated',
        color: '#9ca3af',
        dashed: true,
        values: (a) => a.requests.simulated.map((n) => perMinute(a, n)),
        total: (a) => sum(a.requests.simulated),
      },
    ],
  },
  {
    id: 'approvals',
    title: 'Approvals opened and decided, jobs fired',
    unit: 'count',
    series: () => [
      { key: 'approvals.opened', label: 'approvals opened', color: '#d97706', values: (a) => a.approvals.opened, total: (a) => sum(a.approvals.opened) },
      { key: 'approvals.decided', label: 'approvals decided', color: '#15803d', values: (a) => a.approvals.decided, total: (a) => sum(a.approvals.decided) },
      { key: 'jobs.fired', label: 'jobs fired', color: '#2563eb', values: (a) => a.jobs_fired, total: (a) => sum(a.jobs_fired) },
    ],
  },
  {
    id: 'spend',
    title: 'Spend in the span per project, against its daily limit',
    unit: 'USD',
    series: (t) =>
      t.spend.flatMap((p, i) => {
        const color = PROJECT_COLORS[i % PROJECT_COLORS.length];
        const find = (a: TimelineAnswer) => a.spend.find((s) => s.project_id === p.project_id);
        const spent: SeriesSpec = {
          key: `spend.${p.project_id}`,
          label: p.name,
          color,
          values: (a) => running(find(a)?.usd ?? []),
          total: (a) => Math.round(sum(find(a)?.usd ?? []) * 1e4) / 1e4,
        };
        const limit = p.daily_limit_usd;
        if (limit === null) return [spent];
        const line: SeriesSpec = {
          key: `limit.${p.project_id}`,
          label: `${p.name}: daily limit`,
          color,
          dashed: true,
          values: (a) => a.runs.queued.map(() => limit),
          total: () => limit,
        };
        return [spent, line];
      }),
  },
];

/** The x values: each bucket's start, in seconds (uPlot's time unit). */
const xs = (t: TimelineAnswer): number[] => Array.from({ length: t.buckets }, (_, i) => (Date.parse(t.from) + i * t.bucket_ms) / 1000);

/** The chart's data: x, then each series' values. */
export const dataOf = (t: TimelineAnswer, series: SeriesSpec[]): uPlot.AlignedData => [xs(t), ...series.map((s) => s.values(t))];

/** A tick of the time axis (seconds): `14:00`, or `11-21 00:00` where a day starts. */
function tickText(seconds: number, first: boolean): string {
  const iso = new Date(seconds * 1000).toISOString();
  const time = iso.slice(11, 16);
  return first || time === '00:00' ? `${iso.slice(5, 10)} ${time}` : time;
}

/** The uPlot options of one chart: UTC times, a drag along x selects (never zooms), cursors in step across the charts. */
export function optionsOf(lib: typeof uPlot, chart: ChartSpec, series: SeriesSpec[], width: number): uPlot.Options {
  return {
    width,
    height: 170,
    title: chart.title,
    tzDate: (ts) => lib.tzDate(new Date(ts * 1000), 'Etc/UTC'),
    cursor: { drag: { x: true, y: false, setScale: false }, sync: { key: 'timeline' } },
    scales: { x: { time: true } },
    // Times in UTC on 24 hours, the date where a day starts (or on the first tick), as the rest of the page shows them.
    axes: [{ values: (_u, ticks) => ticks.map((t, i) => tickText(t, i === 0)) }, { label: chart.unit, size: 56 }],
    series: [
      { label: 'UTC' },
      ...series.map((s) => ({
        label: s.label,
        stroke: s.color,
        width: s.marks ? 0 : 1.5,
        dash: s.dashed ? [6, 4] : undefined,
        points: s.marks ? { show: true, size: 9, fill: s.color, stroke: s.color } : { show: false },
        paths: s.marks ? () => null : lib.paths.stepped!({ align: 1 }),
      })),
    ],
  };
}
