// The coverage report: which statuses, reason codes and state transitions of each v3 operation the traffic so far exercised.
import type { WriteScope } from '../storage/index.js';
import type { CollectionName } from '../schemas/index.js';
import type { Removed } from '../simulation/index.js';
import { OPERATIONS, type OperationSpec } from './operations.js';

/** The entity name and status a stored record shows in transitions; collections without a lifecycle are not tracked. */
const STATUS_OF: Partial<Record<CollectionName, [string, (r: Record<string, unknown>) => string]>> = {
  runs: ['run', (r) => String(r.status)],
  approvals: ['approval', (r) => String(r.status)],
  projects: ['project', (r) => String(r.status)],
  users: ['user', (r) => String(r.status)],
  connections: ['connection', (r) => String(r.status)],
  jobs: ['job', (r) => String(r.status)],
  authorization_codes: ['authorization_code', (r) => (r.used ? 'used' : 'unused')],
  access_tokens: ['access_token', (r) => (r.revoked ? 'revoked' : 'active')],
  refresh_tokens: ['refresh_token', (r) => (r.revoked ? 'revoked' : r.used ? 'used' : 'active')],
};

type Rec = Record<string, unknown> | undefined;

/** The transitions one record write shows: its own status, and for runs each step's status. */
function transitionsOf(c: CollectionName, before: unknown, after: unknown): string[] {
  const spec = STATUS_OF[c];
  if (!spec) return [];
  const [entity, statusOf] = spec;
  const b = before as Rec;
  const a = after as Rec;
  const out: string[] = [];
  const from = b ? statusOf(b) : 'none';
  const to = a ? statusOf(a) : 'deleted';
  if (from !== to) out.push(`${entity}: ${from} -> ${to}`);
  if (c === 'runs' && a) {
    const old = new Map(((b?.steps as { id: string; status: string }[]) ?? []).map((s) => [s.id, s.status]));
    for (const s of (a.steps as { id: string; status: string }[]) ?? []) {
      const was = old.get(s.id) ?? 'none';
      if (was !== s.status && b) out.push(`step: ${was} -> ${s.status}`);
    }
  }
  return out;
}

/** Does an observed `run: queued -> cancelled` satisfy an expected pattern (with `*` for any status)? */
export function transitionMatches(pattern: string, seen: string): boolean {
  const p = /^(\w+): (\S+) -> (\S+)$/.exec(pattern);
  const s = /^(\w+): (\S+) -> (\S+)$/.exec(seen);
  if (!p || !s) return pattern === seen;
  return p[1] === s[1] && (p[2] === '*' || p[2] === s[2]) && (p[3] === '*' || p[3] === s[3]);
}

/**
 * What one operation's traffic exercised. Arrays rather than sets: each holds a few values of a finite list (an
 * operation's statuses, reason codes and transitions), where a set would cost about 180 bytes even when empty.
 */
interface Seen {
  requests: number;
  statuses: number[];
  reason_codes: string[];
  transitions: string[];
}

const addNew = <T>(list: T[], value: T): void => {
  if (!list.includes(value)) list.push(value);
};

export interface OperationCoverage {
  operation: string;
  method: string;
  path: string;
  requests: number;
  exercised: { statuses: number[]; reason_codes: string[]; transitions: string[] };
  missing: { statuses: number[]; reason_codes: string[]; transitions: string[] };
}

/** What the simulation did, kept apart from the client traffic that the operations report. */
interface SimulatedCoverage {
  events: number;
  by_kind: Record<string, number>;
  transitions: string[];
  /** What the retention of simulated history removed, and in how many slices (transactions). */
  removed: Removed;
}

/** Nothing removed: shared by every tracker until its first removal (then it counts in a copy of its own). */
const NONE_REMOVED: Readonly<Removed> = Object.freeze({ slices: 0, runs: 0, approvals: 0, traces: 0, chat_updates: 0 });

export interface CoverageReport {
  operations: OperationCoverage[];
  simulated: SimulatedCoverage;
  summary: {
    operations: { total: number; exercised: number };
    statuses: { total: number; exercised: number };
    reason_codes: { total: number; exercised: number };
    transitions: { total: number; exercised: number };
    /** Exercised share of every expected status, reason code and transition, 0..100. */
    percent: number;
    /** Operations never called. */
    never_called: string[];
  };
}

export class CoverageTracker {
  /*
   * Made at first use: a mock (a sandbox) that serves no request and simulates nothing holds none of them (an empty
   * map or set costs about 180 bytes).
   */
  private seen: Map<string, Seen> | undefined;
  private simulatedEvents = 0;
  private simulatedKinds: Map<string, number> | undefined;
  private simulatedTransitions: Set<string> | undefined;
  private removed: Readonly<Removed> = NONE_REMOVED;
  private scope: WriteScope | undefined;
  /**
   * The operation and status recorded last, and their record: a client repeating a request (a poll) adds only a count,
   * read from this object and that record, not through the map and its status list.
   */
  private lastOperation: string | undefined;
  private lastStatus = 0;
  private lastSeen: Seen | undefined;

  /**
   * The write scope of the simulation's transactions: the store's observer adds their transitions here when they are
   * stored (which may be after the event ran), and they move into the report's set at the next event or report.
   */
  get simulatedScope(): WriteScope {
    return (this.scope ??= { transitions: [] });
  }

  /** One executed simulation event (kinds and transitions are finite sets, so this stays bounded). */
  recordSimulated(kind: string): void {
    this.simulatedEvents++;
    const kinds = (this.simulatedKinds ??= new Map());
    kinds.set(kind, (kinds.get(kind) ?? 0) + 1);
    this.drainSimulated();
  }

  /** One slice of simulated history removed. */
  recordRemoved(r: Removed): void {
    const removed = this.removed === NONE_REMOVED ? { ...NONE_REMOVED } : (this.removed as Removed);
    for (const k of Object.keys(removed) as (keyof Removed)[]) removed[k] += r[k];
    this.removed = removed;
  }

  private drainSimulated(): void {
    const seen = this.scope?.transitions;
    if (!seen?.length) return;
    const transitions = (this.simulatedTransitions ??= new Set());
    for (const t of seen) transitions.add(t);
    seen.length = 0;
  }

  /** The store observer: adds a committed write's transitions to the request it was made for. */
  onWrite(c: CollectionName, before: unknown, after: unknown, scope: WriteScope | undefined): void {
    if (scope?.transitions) scope.transitions.push(...transitionsOf(c, before, after));
  }

  record(operation: string, status: number, reasonCode: string | undefined, transitions: string[]): void {
    if (operation === this.lastOperation && status === this.lastStatus && !reasonCode && transitions.length === 0) {
      this.lastSeen!.requests++;
      return;
    }
    const seen = (this.seen ??= new Map());
    let s = seen.get(operation);
    // Made holding its first status: an array first grown by a push reserves room for 17.
    if (!s) seen.set(operation, (s = { requests: 0, statuses: [status], reason_codes: [], transitions: [] }));
    s.requests++;
    addNew(s.statuses, status);
    if (reasonCode) addNew(s.reason_codes, reasonCode);
    for (const t of transitions) addNew(s.transitions, t);
    this.lastOperation = operation;
    this.lastStatus = status;
    this.lastSeen = s;
  }

  clear(): void {
    this.seen = undefined;
    this.lastOperation = undefined;
    this.lastSeen = undefined;
    this.simulatedEvents = 0;
    this.simulatedKinds = undefined;
    this.simulatedTransitions = undefined;
    if (this.scope) this.scope.transitions!.length = 0;
    this.removed = NONE_REMOVED;
  }

  report(): CoverageReport {
    this.drainSimulated();
    const totals = { statuses: [0, 0], reason_codes: [0, 0], transitions: [0, 0] };
    const operations = OPERATIONS.map((spec: OperationSpec): OperationCoverage => {
      const s = this.seen?.get(spec.operation);
      const statuses = [...(s?.statuses ?? [])].sort((a, b) => a - b);
      const reasons = [...(s?.reason_codes ?? [])].sort();
      const transitions = [...(s?.transitions ?? [])].sort();
      const missing = {
        statuses: spec.statuses.filter((x) => !statuses.includes(x)),
        reason_codes: spec.reason_codes.filter((x) => !reasons.includes(x)),
        transitions: spec.transitions.filter((p) => !transitions.some((t) => transitionMatches(p, t))),
      };
      totals.statuses[0] += spec.statuses.length;
      totals.statuses[1] += spec.statuses.length - missing.statuses.length;
      totals.reason_codes[0] += spec.reason_codes.length;
      totals.reason_codes[1] += spec.reason_codes.length - missing.reason_codes.length;
      totals.transitions[0] += spec.transitions.length;
      totals.transitions[1] += spec.transitions.length - missing.transitions.length;
      return {
        operation: spec.operation,
        method: spec.method,
        path: spec.path,
        requests: s?.requests ?? 0,
        exercised: { statuses, reason_codes: reasons, transitions },
        missing,
      };
    });
    const all = totals.statuses[0] + totals.reason_codes[0] + totals.transitions[0];
    const hit = totals.statuses[1] + totals.reason_codes[1] + totals.transitions[1];
    const pair = ([total, exercised]: number[]) => ({ total, exercised });
    return {
      operations,
      simulated: {
        events: this.simulatedEvents,
        by_kind: Object.fromEntries([...(this.simulatedKinds ?? [])].sort(([a], [b]) => (a < b ? -1 : 1))),
        transitions: [...(this.simulatedTransitions ?? [])].sort(),
        removed: { ...this.removed },
      },
      summary: {
        operations: { total: operations.length, exercised: operations.filter((o) => o.requests > 0).length },
        statuses: pair(totals.statuses),
        reason_codes: pair(totals.reason_codes),
        transitions: pair(totals.transitions),
        percent: all === 0 ? 100 : Math.round((hit / all) * 1000) / 10,
        never_called: operations.filter((o) => o.requests === 0).map((o) => o.operation),
      },
    };
  }
}
