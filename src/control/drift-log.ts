// One mock's drift record: counts of shadowed requests, and differences grouped by cause (field and both values), bounded in bytes.
import type { DriftGroup, DriftItem, DriftReport, DriftSource } from '../schemas/index.js';

/** Why shadow mode did not send a request. */
export type Refusal = keyof DriftReport['dropped'];

/** What a record reads of shadow mode's sender: its queue and the target's health (shadow mode's ShadowSender). */
export interface DriftSender {
  readonly pending: number;
  readonly health: { view(): Omit<NonNullable<DriftReport['target']>, 'url' | 'writes'> };
  settled(): Promise<void>;
}

/**
 * The groups of all a server's mocks (its default mock and every sandbox) hold at most this many bytes together (values
 * counted as JSON text), so a thousand sandboxes cannot hold a thousand times as much; past it differences are only counted.
 */
export const DRIFT_MAX_BYTES = 256 * 1024;

/** The bytes the drift records of one server's mocks hold together. */
export class DriftBudget {
  used = 0;
  constructor(readonly max: number = DRIFT_MAX_BYTES) {}

  /** Takes `size` bytes when they fit, and answers whether they did. */
  take(size: number): boolean {
    if (this.used + size > this.max) return false;
    this.used += size;
    return true;
  }
}
/** Requests kept as examples of each group: the first ones by journal id. */
export const EXAMPLES_PER_GROUP = 3;
/** Fixed cost counted per group and per example on top of their text. */
const GROUP_OVERHEAD = 160;
const EXAMPLE_OVERHEAD = 48;
const OPERATION_OVERHEAD = 8;

type Group = DriftGroup;

type Skip = keyof DriftReport['skipped'];

const jsonSize = (v: unknown): number => (v === undefined ? 0 : JSON.stringify(v).length);

type Counts = ReturnType<typeof zero>;

function zero() {
  return {
    compared: 0,
    same: 0,
    drifted: 0,
    compatible: 0,
    unreachable: 0,
    ungrouped: 0,
    dropped: { queue_full: 0, rate_limited: 0, target_down: 0 },
    skipped: { method: 0, fault: 0, not_comparable: 0 },
  };
}

/** Nothing counted: what every record reads until its first count (then it counts in its own). */
const NONE: Counts = zero();

export class DriftLog implements DriftSource {
  /*
   * Made at the first difference and the first count: a mock without a shadow target (every sandbox by default)
   * holds neither (an empty map costs about 180 bytes, the counts three objects).
   */
  private groups: Map<string, Group> | undefined;
  private bytes = 0;
  private own: Counts | undefined;

  constructor(
    /** The server's sender (null: shadow mode is off). */
    private readonly sender: DriftSender | null,
    private readonly target: { url: string; writes: boolean } | null,
    /** Shared with the server's other mocks (a record of its own when none is given). */
    private readonly budget: DriftBudget = new DriftBudget(),
  ) {}

  /** The counts to add to. */
  private get counts(): Counts {
    return (this.own ??= zero());
  }

  dropped(reason: Refusal): void {
    this.counts.dropped[reason]++;
  }

  skipped(reason: Skip): void {
    this.counts.skipped[reason]++;
  }

  unreachable(): void {
    this.counts.unreachable++;
  }

  /**
   * One compared request: its differences and warnings (already bounded and redacted) and how many compatible ones it
   * had. A request with warnings only (optional fields dropped) counts as the same, its warnings grouped.
   */
  compared(operation: string, requestId: number | null, at: string, drift: readonly DriftItem[], compatible: number): void {
    this.counts.compared++;
    this.counts.compatible += compatible;
    if (drift.some((d) => d.level === undefined)) this.counts.drifted++;
    else this.counts.same++;
    for (const d of drift) this.group(operation, requestId, at, d);
  }

  /** Into the group of its cause: the field and both values, whichever operation showed it. */
  private group(operation: string, requestId: number | null, at: string, d: DriftItem): void {
    const level = d.level ?? 'drift';
    const key = JSON.stringify([level, d.field, d.mock ?? null, d.target ?? null]);
    const groups = (this.groups ??= new Map());
    let g = groups.get(key);
    if (!g) {
      const size = GROUP_OVERHEAD + d.field.length + jsonSize(d.mock) + jsonSize(d.target);
      if (!this.budget.take(size)) {
        this.counts.ungrouped++;
        return;
      }
      this.bytes += size;
      g = { level, field: d.field, operations: [], count: 0, first_at: at, last_at: at, examples: [] };
      if (d.mock !== undefined) g.mock = d.mock;
      if (d.target !== undefined) g.target = d.target;
      groups.set(key, g);
    }
    g.count++;
    g.last_at = at;
    // Operations are a finite list (those of the document); each listed once, its name counted against the bound.
    if (!g.operations.includes(operation) && this.take(OPERATION_OVERHEAD + operation.length)) g.operations.push(operation);
    this.example(g, requestId, operation);
  }

  /**
   * Keeps the group's first requests by journal id: comparisons finish in any order (several are in flight at once), so
   * a later request's answer can come first. A request without an id ranks last. A swap counts the bytes it changes.
   */
  private example(g: Group, requestId: number | null, operation: string): void {
    const ex = g.examples;
    const rank = requestId ?? Infinity;
    let at = ex.length;
    while (at > 0 && (ex[at - 1].request_id ?? Infinity) > rank) at--;
    if (at >= EXAMPLES_PER_GROUP) return;
    if (ex.length < EXAMPLES_PER_GROUP) {
      if (!this.take(EXAMPLE_OVERHEAD + operation.length)) return;
    } else {
      const delta = operation.length - ex[ex.length - 1].operation.length;
      if (delta > 0 && !this.take(delta)) return;
      if (delta < 0) this.give(-delta);
      ex.pop();
    }
    ex.splice(at, 0, { request_id: requestId, operation });
  }

  private give(size: number): void {
    this.budget.used -= size;
    this.bytes -= size;
  }

  private take(size: number): boolean {
    if (!this.budget.take(size)) return false;
    this.bytes += size;
    return true;
  }

  report(): DriftReport {
    const c = this.own ?? NONE;
    const groups = [...(this.groups?.values() ?? [])]
      .sort((a, b) => (a.level === b.level ? 0 : a.level === 'drift' ? -1 : 1) || b.count - a.count || a.field.localeCompare(b.field))
      .map((g) => ({ ...g, operations: [...g.operations], examples: g.examples.map((e) => ({ ...e })) }));
    return {
      enabled: this.sender !== null,
      target: this.sender && this.target ? { url: this.target.url, ...this.sender.health.view(), writes: this.target.writes } : null,
      pending: this.sender?.pending ?? 0,
      compared: c.compared,
      same: c.same,
      drifted: c.drifted,
      compatible: c.compatible,
      dropped: { ...c.dropped },
      skipped: { ...c.skipped },
      unreachable: c.unreachable,
      groups,
      ungrouped: c.ungrouped,
      bytes: this.bytes,
      max_bytes: this.budget.max,
    };
  }

  async settled(): Promise<DriftReport> {
    await this.sender?.settled();
    return this.report();
  }

  /** Forgets everything (a reset, or the mock went): its bytes are free for the server's other mocks again. */
  clear(): void {
    this.budget.used -= this.bytes;
    this.groups = undefined;
    this.bytes = 0;
    this.own = undefined;
  }
}
