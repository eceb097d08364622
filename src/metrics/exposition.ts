// The Prometheus exposition of one server's counts, through prom-client: a registry of its own per createApp (never
// prom-client's global one), whose metrics read the cells when scraped, so a request only adds to numbers it holds.
import { Counter, Gauge, Registry } from 'prom-client';
import { STATUS_CLASSES, type HistogramCell, type ScopeCells, type ServerCells } from './cells.js';

/** What a scrape reads besides the cells: figures other parts of the server keep already. */
export interface MetricSources {
  /** Journal entries and bytes held by every journal of the server (its byte budget's figures). */
  journal(): { entries: number; bytes: number };
  /** The default mock's shadow counts (null: no shadow target). */
  shadow(): { compared: number; same: number; drifted: number; dropped: Record<string, number>; skipped: Record<string, number> } | null;
}

type Labels = Record<string, string>;

/**
 * A histogram read from cells: prom-client's Histogram takes one observation at a time (it hashes its labels on each, about
 * a microsecond), so this one hands the registry the values of cells the hot path filled, in the same shape.
 */
class CellHistogram {
  readonly type = 'histogram';
  readonly aggregator = 'sum';
  constructor(
    readonly name: string,
    readonly help: string,
    private readonly series: () => Iterable<[Labels, HistogramCell]>,
  ) {}
  get() {
    const values: { labels: Labels; value: number; metricName: string }[] = [];
    for (const [labels, cell] of this.series()) {
      let cumulative = 0;
      cell.bounds.forEach((le, i) => {
        cumulative += cell.counts[i];
        values.push({ labels: { le: String(le), ...labels }, value: cumulative, metricName: `${this.name}_bucket` });
      });
      values.push({ labels: { le: '+Inf', ...labels }, value: cell.count, metricName: `${this.name}_bucket` });
      values.push({ labels, value: cell.sum, metricName: `${this.name}_sum` });
      values.push({ labels, value: cell.count, metricName: `${this.name}_count` });
    }
    return { name: this.name, help: this.help, type: this.type, values, aggregator: this.aggregator };
  }
}

/** A counter or gauge whose values are set from `read` at each scrape. */
function readOut(kind: 'counter' | 'gauge', registry: Registry, name: string, help: string, labelNames: string[], read: () => Iterable<[Labels, number]>) {
  const Kind = kind === 'counter' ? Counter : Gauge;
  return new Kind({
    name,
    help,
    labelNames,
    registers: [registry],
    collect(this: Counter | Gauge) {
      this.reset();
      for (const [labels, value] of read()) {
        if (this instanceof Counter) this.inc(labels, value);
        else (this as Gauge).set(labels, value);
      }
    },
  });
}

/** The registry of one server: `scopes` are the default mock's cells and the sandboxes' (shared by all of them). */
export function exposition(scopes: readonly ScopeCells[], server: ServerCells, sources: MetricSources): Registry {
  const registry = new Registry();
  const sandboxes = scopes.find((s) => s.scope === 'sandbox') ?? { opened: 0, closed: 0 };
  const each = function* <T>(pick: (s: ScopeCells) => Iterable<[Labels, T]>) {
    for (const s of scopes) yield* pick(s);
  };
  readOut(
    'counter',
    registry,
    'prm_requests_total',
    'API requests answered, by operation and status class (none: no answer was sent).',
    ['scope', 'operation', 'status_class'],
    () =>
      each(function* (s) {
        for (const [operation, cell] of s.operations)
          for (const [i, status_class] of STATUS_CLASSES.entries())
            if (cell.statuses[i] > 0) yield [{ scope: s.scope, operation, status_class }, cell.statuses[i]];
      }),
  );
  const durations = new CellHistogram('prm_request_duration_seconds', 'Time from a request to its answer, by operation.', () =>
    each(function* (s) {
      for (const [operation, cell] of s.operations) if (cell.duration.count > 0) yield [{ scope: s.scope, operation }, cell.duration];
    }),
  );
  const groups = new CellHistogram('prm_commit_group_size', 'Change sets stored together in one commit group.', () =>
    each((s) => [[{ scope: s.scope }, s.commitGroups]]),
  );
  const commits = new CellHistogram(
    'prm_commit_duration_seconds',
    "Time a commit group waited for storage (the JSON file's fdatasync, PostgreSQL's query).",
    () => each((s) => [[{ scope: s.scope }, s.commitSeconds]]),
  );
  for (const h of [durations, groups, commits]) registry.registerMetric(h as never);
  readOut(
    'counter',
    registry,
    'prm_commit_conflicts_total',
    'Commit groups that found their head moved by another instance writing the same mock.',
    ['scope'],
    () => each((s) => [[{ scope: s.scope }, s.commitConflicts]]),
  );
  readOut('counter', registry, 'prm_commit_reruns_total', 'Transactions run again on the caught-up state after a conflict.', ['scope'], () =>
    each((s) => [[{ scope: s.scope }, s.commitReruns]]),
  );
  readOut('counter', registry, 'prm_faults_fired_total', 'Faults that acted on a request, by what they did.', ['scope', 'kind'], () =>
    each(function* (s) {
      for (const [kind, n] of s.faults) yield [{ scope: s.scope, kind }, n];
    }),
  );
  readOut('gauge', registry, 'prm_sandboxes_live', 'Sandboxes open in this instance.', [], () => [[{}, sandboxes.opened - sandboxes.closed]]);
  readOut('counter', registry, 'prm_sandboxes_created_total', 'Sandboxes opened in this instance (created, or opened from shared storage).', [], () => [
    [{}, sandboxes.opened],
  ]);
  readOut('counter', registry, 'prm_sandboxes_expired_total', 'Sandboxes dropped because their time to live ran out.', [], () => [
    [{}, server.sandboxesExpired],
  ]);
  readOut('gauge', registry, 'prm_journal_entries', 'Request journal entries held by every mock of the server.', [], () => [[{}, sources.journal().entries]]);
  readOut('gauge', registry, 'prm_journal_bytes', 'Bytes the request journals of every mock hold (their shared budget).', [], () => [
    [{}, sources.journal().bytes],
  ]);
  readOut(
    'counter',
    registry,
    'prm_shadow_comparisons_total',
    "Answers compared with the shadow target's (the default mock), by outcome.",
    ['outcome'],
    function* () {
      const s = sources.shadow();
      if (!s) return;
      yield [{ outcome: 'same' }, s.same];
      yield [{ outcome: 'drifted' }, s.drifted];
    },
  );
  readOut('counter', registry, 'prm_shadow_dropped_total', 'Requests not sent to the shadow target (the default mock), by reason.', ['reason'], function* () {
    const s = sources.shadow();
    if (!s) return;
    for (const [reason, n] of Object.entries({ ...s.dropped, ...s.skipped })) yield [{ reason }, n];
  });
  readOut('counter', registry, 'prm_simulation_events_total', 'Simulation events executed by every mock of the server.', [], () => [
    [{}, server.simulationEvents],
  ]);
  return registry;
}
