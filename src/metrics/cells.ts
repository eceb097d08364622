// What the request path and the commit pipeline count into: plain numbers in cells bound once, read only when scraped.

/** Upper bounds (seconds) of the request and commit duration histograms: 0.5 ms to 10 s. */
const DURATION_BUCKETS: readonly number[] = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 10];
/** Upper bounds of the commit group size histogram (change sets per group). */
const GROUP_BUCKETS: readonly number[] = [1, 2, 4, 8, 16, 32, 64, 128, 256];

/**
 * One histogram series: a count per bucket (not cumulative: the scrape adds them up), the sum and the count. Observing is
 * a few comparisons and three additions; nothing is allocated.
 */
export class HistogramCell {
  readonly counts: Float64Array;
  sum = 0;
  count = 0;
  constructor(readonly bounds: readonly number[]) {
    this.counts = new Float64Array(bounds.length + 1);
  }
  observe(v: number): void {
    const b = this.bounds;
    let i = 0;
    while (i < b.length && v > b[i]) i++;
    this.counts[i]++;
    this.sum += v;
    this.count++;
  }
}

/** The status classes a request is counted by; index 0 holds an answer never sent (a reset or hung connection). */
export const STATUS_CLASSES = ['none', '1xx', '2xx', '3xx', '4xx', '5xx'] as const;
const statusIndex = (status: number): number => (status >= 100 && status < 600 ? Math.floor(status / 100) : 0);

/** One operation's requests in one scope: counts by status class and the duration histogram. */
export class OperationCell {
  readonly statuses = new Float64Array(STATUS_CLASSES.length);
  readonly duration = new HistogramCell(DURATION_BUCKETS);
  request(status: number, seconds: number): void {
    this.statuses[statusIndex(status)]++;
    this.duration.observe(seconds);
  }
}

/** The operation label of a request no operation answered (an unknown path, a wrong method, a fault before routing). */
const NO_OPERATION = 'none';

/**
 * Everything one scope (the default mock, or all sandboxes together) counts. A sandbox's traffic is told from the default
 * mock's by the scope label; one series per sandbox id would grow without bound, so sandboxes share their cells.
 */
export class ScopeCells {
  /** By operation name: every declared operation's cell is made up front, so a request only looks one up. */
  readonly operations = new Map<string, OperationCell>();
  /** Fault answers and transport faults fired, by what they did. */
  readonly faults = new Map<string, number>();
  commitConflicts = 0;
  commitReruns = 0;
  /** Mocks of this scope built and closed in this instance (the sandboxes live are the difference). */
  opened = 0;
  closed = 0;
  readonly commitGroups = new HistogramCell(GROUP_BUCKETS);
  readonly commitSeconds = new HistogramCell(DURATION_BUCKETS);

  constructor(
    readonly scope: 'default' | 'sandbox',
    operations: readonly string[],
  ) {
    for (const name of [...operations, NO_OPERATION]) this.operations.set(name, new OperationCell());
  }

  /** One answered (or given up) request of `operation` (null: none matched). */
  request(operation: string | null, status: number, seconds: number): void {
    (this.operations.get(operation ?? NO_OPERATION) ?? this.operations.get(NO_OPERATION)!).request(status, seconds);
  }

  fault(kind: string): void {
    this.faults.set(kind, (this.faults.get(kind) ?? 0) + 1);
  }

  /** A group of `size` change sets was stored in `seconds` (the fsync, or the query, it waited for). */
  commitGroup(size: number, seconds: number): void {
    this.commitGroups.observe(size);
    this.commitSeconds.observe(seconds);
  }

  /** A group found its head moved by another writer of the same store. */
  conflict(): void {
    this.commitConflicts++;
  }

  /** A transaction ran again on the caught-up state after a conflict. */
  rerun(): void {
    this.commitReruns++;
  }
}

/** The server-wide counts that are no request's: sandboxes that expired, and simulation events. */
export class ServerCells {
  sandboxesExpired = 0;
  simulationEvents = 0;
}
