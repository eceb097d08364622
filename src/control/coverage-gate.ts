// The coverage gate for CI: a threshold and required OPERATION:STATUS[:REASON] checked against a coverage report, each gap with how to provoke it.
import type { CoverageReport } from './coverage.js';
import { OPERATIONS } from './operations.js';
import { provoke, type Provocation } from './coverage-provoke.js';

/** Below the threshold, this many missing reason codes come with how to provoke them. */
const THRESHOLD_HINTS = 10;

export interface Requirement {
  operation: string;
  status: number;
  reason?: string;
}

export interface Gap extends Provocation {
  /** `threshold`, or the requirement as written (`cancelRun:409:run_not_cancellable`). */
  what: string;
  message: string;
}

export interface GateResult {
  ok: boolean;
  percent: number;
  failUnder: number | null;
  gaps: Gap[];
}

/** Parses `OPERATION:STATUS[:REASON]`; a malformed one or an unknown operation throws a TypeError naming it. */
export function parseRequirement(text: string): Requirement {
  const m = /^(\w+):(\d{3})(?::(\w+))?$/.exec(text);
  if (!m) throw new TypeError(`requirement ${JSON.stringify(text)} should be OPERATION:STATUS[:REASON], e.g. cancelRun:409:run_not_cancellable`);
  if (!OPERATIONS.some((o) => o.operation === m[1]))
    throw new TypeError(`requirement ${text}: unknown operation ${m[1]} (one of ${OPERATIONS.map((o) => o.operation).join(', ')})`);
  return { operation: m[1], status: Number(m[2]), ...(m[3] ? { reason: m[3] } : {}) };
}

const requirementText = (r: Requirement): string => `${r.operation}:${r.status}${r.reason ? `:${r.reason}` : ''}`;

/** Checks the report: `percent >= failUnder`, and each requirement's status (and reason) exercised by its operation. */
export function gate(report: CoverageReport, options: { failUnder?: number; require?: (Requirement | string)[] }): GateResult {
  const gaps: Gap[] = [];
  const percent = report.summary.percent;
  if (options.failUnder !== undefined && percent < options.failUnder) {
    // The operations never called, each with how to reach it: the cheapest way up.
    const never = report.operations.filter((o) => o.requests === 0).map((o) => `${o.method} ${o.path}`);
    gaps.push({
      what: 'threshold',
      message: `coverage ${percent}% is under ${options.failUnder}%${never.length ? `; never called: ${never.join(', ')}` : ''}`,
      calls: [],
      then: 'exercise what the gaps below name',
    });
    // The first missing reason codes of the operations called, each with how to provoke it (the cheapest way up).
    const missing = report.operations.filter((o) => o.requests > 0).flatMap((o) => o.missing.reason_codes.map((reason) => [o.operation, reason] as const));
    for (const [operation, reason] of missing.slice(0, THRESHOLD_HINTS)) {
      const spec = OPERATIONS.find((o) => o.operation === operation)!;
      gaps.push({ what: `${operation}:${reason}`, message: `${operation} never answered ${reason}`, ...provoke(spec, null, reason) });
    }
  }
  for (const given of options.require ?? []) {
    const r = typeof given === 'string' ? parseRequirement(given) : given;
    const spec = OPERATIONS.find((o) => o.operation === r.operation);
    if (!spec) throw new TypeError(`requirement ${requirementText(r)}: unknown operation ${r.operation}`);
    const seen = report.operations.find((o) => o.operation === r.operation)!;
    const statusSeen = seen.exercised.statuses.includes(r.status);
    const reasonSeen = r.reason === undefined || seen.exercised.reason_codes.includes(r.reason);
    if (statusSeen && reasonSeen) continue;
    const missing = !statusSeen ? `status ${r.status}` : `reason ${r.reason}`;
    gaps.push({
      what: requirementText(r),
      message: `${r.operation} never answered ${missing} (${seen.requests} requests)`,
      ...provoke(spec, r.status, r.reason),
    });
  }
  return { ok: gaps.length === 0, percent, failUnder: options.failUnder ?? null, gaps };
}

/** The gaps as text: each with its control calls, ready to paste. */
export function gapText(gaps: Gap[]): string {
  return gaps.map((g) => [`- ${g.what}: ${g.message}`, ...g.calls.map((c) => `    ${c}`), `    // then: ${g.then}`].join('\n')).join('\n');
}
