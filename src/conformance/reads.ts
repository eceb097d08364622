// Probes that read --project: the lists (with each filter value), one record of each kind found on each side, cursor
// walks (no repeats, `limit` bounds) and the release diff with and without a baseline (fingerprint recomputed).
import { compareAnswers } from './compare.js';
import type { Answer, Difference } from '../compare/index.js';
import { bearer, type Found, type Probe, type ProbeVerdict, type Side } from './probe.js';
import { concrete } from './malformed.js';
import { v3Operations } from './operations.js';
import type { Schema } from '../compare/index.js';

const NO_PROJECT = 'no --project given';
const base = (side: Side) => `/api/v3/projects/${encodeURIComponent(side.project ?? '')}`;
const items = (a: Answer): Record<string, unknown>[] =>
  a.status === 200 && Array.isArray((a.body as { items?: unknown })?.items) ? ((a.body as { items: Record<string, unknown>[] }).items ?? []) : [];

/** Finds one record of each kind on a side's project (its ids are its own; the other side finds its own). */
export async function discover(side: Side, project: string | undefined): Promise<Found> {
  const found: Found = { releaseIds: [], runIds: [] };
  if (!project || !side.token) return found;
  const get = (path: string) => side.send({ method: 'GET', path: `/api/v3/projects/${encodeURIComponent(project)}${path}`, headers: bearer(side) });
  const [users, releases, approvals] = await Promise.all([get('/users?limit=200'), get('/releases?limit=200'), get('/approvals?limit=200')]);
  found.userId = items(users)[0]?.id as string | undefined;
  found.releaseIds = items(releases).map((r) => String(r.id));
  const resources = ((items(releases)[0]?.document as { resources?: { kind?: string; id?: string }[] })?.resources ?? []).filter(
    (r) => r.kind === 'connection',
  );
  found.connectionName = resources[0]?.id;
  found.approvalId = items(approvals)[0]?.approval_id as string | undefined;
  // The v3 API lists no runs: the runs an approval names (when the service shows it) are the ones a probe can read.
  found.runIds = [
    ...new Set(
      items(approvals)
        .map((a) => a.run_id)
        .filter((id): id is string => typeof id === 'string'),
    ),
  ];
  return found;
}

/** A GET on --project, built per side from what that side found; `need` names what must have been found. */
function read(name: string, operation: string, path: (side: Side) => string | undefined, need: string, group = 'read'): Probe {
  return {
    name: `${operation}: ${name}`,
    operation,
    group,
    request(side) {
      if (!side.project) return NO_PROJECT;
      if (!side.token) return 'no --token given';
      const p = path(side);
      return p === undefined ? `no ${need} found on the ${side.name}'s project` : { method: 'GET', path: p, headers: bearer(side) };
    },
  };
}

/** Every list with each value of its filters, one record of each kind, and the release diff both ways. */
export function readCatalogue(doc: Schema): Probe[] {
  const out: Probe[] = [
    read('first page', 'listUsers', (s) => `${base(s)}/users`, 'project'),
    read('first page', 'listReleases', (s) => `${base(s)}/releases`, 'project'),
    read('one app user', 'getUser', (s) => s.found.userId && `${base(s)}/users/${s.found.userId}`, 'app user'),
    read('one approval', 'getApproval', (s) => s.found.approvalId && `${base(s)}/approvals/${encodeURIComponent(s.found.approvalId)}`, 'approval'),
    read(
      'one connection',
      'getConnection',
      (s) => s.found.connectionName && `${base(s)}/connections/${encodeURIComponent(s.found.connectionName)}`,
      'connection',
    ),
    read('one run', 'getRun', (s) => s.found.runIds[0] && `${base(s)}/runs/${s.found.runIds[0]}`, 'run id (named by an approval)'),
    read(
      'newest release against the one before',
      'diffRelease',
      (s) => s.found.releaseIds[0] && `${base(s)}/releases/${s.found.releaseIds[0]}/diff`,
      'release',
      'diff',
    ),
    read(
      'newest release against an explicit baseline',
      'diffRelease',
      (s) => s.found.releaseIds[1] && `${base(s)}/releases/${s.found.releaseIds[0]}/diff?baseline_release_id=${s.found.releaseIds.at(-1)}`,
      'second release',
      'diff',
    ),
    read(
      'oldest release (no baseline)',
      'diffRelease',
      (s) => s.found.releaseIds[0] && `${base(s)}/releases/${s.found.releaseIds.at(-1)}/diff`,
      'release',
      'diff',
    ),
  ];
  // Each filter value the document lists, so a value set that differs shows on the filter that names it.
  for (const op of v3Operations(doc).filter((o) => o.id === 'listJobs' || o.id === 'listApprovals')) {
    const suffix = op.template.slice(op.template.lastIndexOf('/'));
    out.push(read('all', op.id, (s) => `${base(s)}${suffix}`, 'project'));
    for (const q of op.query) {
      const values = concrete(doc, q.schema).enum as string[] | undefined;
      for (const v of values ?? []) out.push(read(`${q.name}=${v}`, op.id, (s) => `${base(s)}${suffix}?${q.name}=${encodeURIComponent(v)}`, 'project'));
    }
  }
  out.push(walk('listUsers', 'users'), walk('listReleases', 'releases'));
  return out;
}

const WALK_LIMIT = 2;
const MAX_PAGES = 200;

/** Walks a list by its cursor on both sides: each page compared, and on each side no id twice and no page past `limit`. */
function walk(operation: string, resource: string): Probe {
  return {
    name: `${operation}: cursor walk (limit ${WALK_LIMIT})`,
    operation,
    group: 'walk',
    async run(mock, target): Promise<ProbeVerdict> {
      if (!target.project || !target.token) return { outcome: 'not comparable', reason: target.project ? 'no --token given' : NO_PROJECT };
      const [m, t] = await Promise.all([pages(mock, resource), pages(target, resource)]);
      const differences = new Map<string, Difference>();
      const compatible = new Map<string, Difference>();
      const warnings = new Map<string, Difference>();
      for (let i = 0; i < Math.min(m.answers.length, t.answers.length); i++) {
        const c = compareAnswers(operation, m.answers[i], t.answers[i]);
        for (const d of c.differences) if (!differences.has(d.field)) differences.set(d.field, d);
        for (const d of c.compatible) if (!compatible.has(d.field)) compatible.set(d.field, d);
        for (const d of c.warnings) if (!warnings.has(d.field)) warnings.set(d.field, d);
      }
      for (const [field, broken] of [
        ['body.items[].id (repeated across the walk)', 'repeats'],
        ['body.items (more than limit)', 'overLimit'],
      ] as const) {
        if (m[broken].length === 0 && t[broken].length > 0) differences.set(field, { field, mock: m[broken], target: t[broken] });
      }
      return {
        outcome: 'compared',
        differences: [...differences.values()],
        compatible: [...compatible.values()],
        warnings: [...warnings.values()],
        statuses: [m.answers[0].status, t.answers[0].status],
      };
    },
  };
}

async function pages(side: Side, resource: string) {
  const answers: Answer[] = [];
  const seen = new Set<string>();
  const repeats: string[] = [];
  const overLimit: number[] = [];
  let cursor: string | null = null;
  do {
    const query: string = `limit=${WALK_LIMIT}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`;
    const a = await side.send({ method: 'GET', path: `${base(side)}/${resource}?${query}`, headers: bearer(side) });
    answers.push(a);
    const list = items(a);
    if (list.length > WALK_LIMIT) overLimit.push(answers.length);
    for (const item of list) {
      const id = String(item.id);
      if (seen.has(id)) repeats.push(id);
      seen.add(id);
    }
    const next = (a.body as { next_cursor?: unknown } | null)?.next_cursor;
    cursor = a.status === 200 && typeof next === 'string' && next !== '' ? next : null;
  } while (cursor && answers.length < MAX_PAGES);
  return { answers, repeats, overLimit };
}
