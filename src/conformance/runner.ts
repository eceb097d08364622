// Runs the catalogue against the target and the in-process mock, compares each probe's answers, and folds a
// difference met again by a later probe into a reference to the first (a drift is reported once, where first seen).
import { randomUUID } from 'node:crypto';
import { compareAnswers } from './compare.js';
import type { Difference } from '../compare/index.js';
import { readOnlyCatalogue } from './catalogue.js';
import { discover, readCatalogue } from './reads.js';
import { writeCatalogue } from './writes.js';
import { mockSide, targetSide, type SideOptions } from './sides.js';
import type { DriftFinding, Probe, ProbeResult, ProbeVerdict, Side } from './probe.js';
import type { Schema } from '../compare/index.js';
import { scrubber } from './secrets.js';

export interface ConformanceOptions extends SideOptions {
  /** The target's base URL (`https://staging.example`, or one with a path prefix). */
  target: string;
  /** Run the writes (needs `disposableProject`). */
  write?: boolean;
  /** The in-process mock's fixture document (the CLI's --fixtures; default the bundled demo). */
  fixtures: unknown;
  /** The probes' own UUIDs (default crypto.randomUUID); the same value goes to both sides. */
  random?: () => string;
  /** Requests in flight at once, per side (default 8). */
  concurrency?: number;
  /** After each probe: how many are done of how many. */
  onProgress?(done: number, total: number, probe: string): void;
  fetch?: typeof fetch;
}

interface ConformanceSummary {
  probes: number;
  same: number;
  different: number;
  not_comparable: number;
  /** Distinct differences: causes (a field with the same mock and target values), however many probes met each. */
  differences: number;
  /** Distinct warnings: optional fields the target dropped. */
  warnings: number;
  compatible: number;
}
export interface ConformanceReport {
  target: string;
  summary: ConformanceSummary;
  /** What the writes did (or, on a dry run, would do). */
  writes: string[];
  /** The differences and warnings by cause, each listing the operations and probes it showed in. */
  findings: DriftFinding[];
  results: ProbeResult[];
}

/** The target could not be reached at all (no HTTP answer): a usage problem, not a difference. */
export class TargetUnreachable extends Error {}

/** Every probe, in the order it runs: the read-only catalogue, then the reads of --project, then the writes if asked. */
export function catalogue(doc: Schema, o: { write?: boolean; random?: () => string }): Probe[] {
  const random = o.random ?? randomUUID;
  return [...readOnlyCatalogue(doc, random), ...readCatalogue(doc), ...(o.write ? writeCatalogue() : [])];
}

const requestText = (p: Probe, side: Side) => {
  const r = p.request?.(side);
  return typeof r === 'object' ? `${r.method} ${r.path}` : p.group === 'write' ? `(${p.says})` : `(${p.name})`;
};

async function verdict(p: Probe, mock: Side, target: Side): Promise<ProbeVerdict> {
  if (p.run) return p.run(mock, target);
  const m = p.request!(mock);
  const t = p.request!(target);
  if (typeof t === 'string') return { outcome: 'not comparable', reason: t };
  if (typeof m === 'string') return { outcome: 'not comparable', reason: `the mock: ${m}` };
  const [ma, ta] = await Promise.all([mock.send(m), target.send(t)]);
  return { outcome: 'compared', ...compareAnswers(p.operation, ma, ta, { ownInput: p.ownInput }), statuses: [ma.status, ta.status] };
}

/** Runs the catalogue; rejects with TargetUnreachable when the target gives no HTTP answer. */
export async function runConformance(o: ConformanceOptions): Promise<ConformanceReport> {
  let scrub = scrubber([o.token, o.adminKey]);
  const target = targetSide(o.target, o, o.fetch);
  await target.send({ method: 'GET', path: '/openapi.json' }).catch((err: Error) => {
    throw new TargetUnreachable(scrub(`cannot reach ${o.target}: ${(err.cause as Error | undefined)?.message ?? err.message}`));
  });
  const { side: mock, app } = await mockSide(o.fixtures, o);
  scrub = scrubber([o.token, o.adminKey, mock.token, mock.adminKey]);
  try {
    const doc = (await mock.send({ method: 'GET', path: '/openapi.json' })).body as Schema;
    const probes = catalogue(doc, { ...o, write: o.write && o.disposableProject !== undefined });
    [mock.found, target.found] = await Promise.all([discover(mock, mock.project), discover(target, target.project)]);
    const verdicts: ProbeVerdict[] = new Array(probes.length);
    let done = 0;
    const one = async (i: number) => {
      verdicts[i] = await verdict(probes[i], mock, target).catch((err: Error) => ({
        outcome: 'not comparable' as const,
        reason: `request failed: ${err.message}`,
      }));
      o.onProgress?.(++done, probes.length, scrub(probes[i].name));
    };
    const reads = probes.map((p, i) => i).filter((i) => probes[i].group !== 'write');
    let next = 0;
    const workers = Array.from({ length: Math.max(1, o.concurrency ?? 8) }, async () => {
      while (next < reads.length) await one(reads[next++]);
    });
    await Promise.all(workers);
    // Writes one at a time, in order: each finds its record in the state the previous one left.
    for (let i = 0; i < probes.length; i++) if (probes[i].group === 'write') await one(i);
    return JSON.parse(scrub(JSON.stringify(report(o.target, fold(probes, verdicts, target), probes)))) as ConformanceReport;
  } finally {
    await app.close();
  }
}

/** One cause: the field and both values, whichever operation showed it (a renamed reason code is one finding). */
const keyOf = (level: DriftFinding['level'], d: Difference) => JSON.stringify([level, d.field, d.mock ?? null, d.target ?? null]);

/** Each probe's causes met first there, the others named as repeats; and every cause with where it showed. */
function fold(probes: Probe[], verdicts: ProbeVerdict[], target: Side): { results: ProbeResult[]; findings: DriftFinding[] } {
  const findings = new Map<string, DriftFinding>();
  const seenCompatible = new Set<string>();
  const results = probes.map((p, i): ProbeResult => {
    const v = verdicts[i];
    const base = {
      probe: p.name,
      operation: p.operation,
      group: p.group,
      request: requestText(p, target),
      differences: [],
      compatible: [],
      warnings: [],
      repeats: [],
    };
    if (v.outcome === 'not comparable') return { ...base, outcome: 'not comparable', reason: v.reason };
    const result: ProbeResult = { ...base, outcome: 'same', statuses: { mock: v.statuses[0], target: v.statuses[1] } };
    const meet = (level: DriftFinding['level'], d: Difference, into: Difference[]) => {
      const key = keyOf(level, d);
      const f = findings.get(key);
      if (!f) {
        findings.set(key, { level, field: d.field, mock: d.mock, target: d.target, operations: [p.operation], probes: [p.name] });
        into.push(d);
        return;
      }
      if (!f.operations.includes(p.operation)) f.operations.push(p.operation);
      if (!f.probes.includes(p.name)) f.probes.push(p.name);
      if (level === 'drift') result.repeats.push({ field: d.field, first: f.probes[0] });
    };
    for (const d of v.differences) meet('drift', d, result.differences);
    for (const d of v.warnings ?? []) meet('warning', d, result.warnings);
    for (const d of v.compatible) {
      const key = keyOf('drift', d);
      if (!seenCompatible.has(key)) result.compatible.push(d);
      seenCompatible.add(key);
    }
    if (result.differences.length || result.repeats.length) result.outcome = 'different';
    return result;
  });
  return { results, findings: [...findings.values()] };
}

function report(targetUrl: string, folded: ReturnType<typeof fold>, probes: Probe[]): ConformanceReport {
  const { results, findings } = folded;
  const count = (o: ProbeResult['outcome']) => results.filter((r) => r.outcome === o).length;
  return {
    target: shownUrl(targetUrl),
    summary: {
      probes: results.length,
      same: count('same'),
      different: count('different'),
      not_comparable: count('not comparable'),
      differences: findings.filter((f) => f.level === 'drift').length,
      warnings: findings.filter((f) => f.level === 'warning').length,
      compatible: results.reduce((n, r) => n + r.compatible.length, 0),
    },
    writes: probes.filter((p) => p.says).map((p) => `${p.name}: ${p.says}`),
    findings,
    results,
  };
}

/** A URL as reports show it: without user name or password. */
export function shownUrl(url: string): string {
  try {
    const u = new URL(url);
    u.username = '';
    u.password = '';
    return u.toString().replace(/\/$/, '');
  } catch {
    return url;
  }
}
