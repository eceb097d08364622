// The one diff engine: compares two normalized desired states into sorted semantic changes (plans and release diffs).
import type { AuthorityEffect, ChangeCategory, DesiredState, SemanticChange } from '../../schemas/index.js';
import { CATALOG, cmp, entitySubject } from './catalog.js';
import { makeChange } from './change.js';
import { edgeChanges } from './diff-edges.js';
import { fingerprint, sameJson } from './fingerprint.js';
import { emptyDesiredState } from './normalize.js';

type Row = { id: string; display_name: string } & Record<string, unknown>;

interface EntityTable {
  category: ChangeCategory;
  label: string;
  rows: (s: DesiredState) => Row[];
  /** Fields compared for `modified`; an agent's edges are excluded: they are changes of their own. */
  fields: string[];
  /** Whether anything in `s` hangs off entity `id` (then removing it reduces authority). */
  hasEdges: (s: DesiredState, id: string) => boolean;
}

const AGENT_EDGE_FIELDS = ['skills', 'capabilities', 'connections', 'memory', 'delegations'] as const;

const TABLES: EntityTable[] = [
  {
    category: 'agent',
    label: 'Agent',
    rows: (s) => s.agents,
    fields: ['display_name', 'soul', 'model', 'limits', 'config'],
    hasEdges: (s, id) => {
      const agent = s.agents.find((a) => a.id === id);
      return !!agent && AGENT_EDGE_FIELDS.some((f) => agent[f].length > 0);
    },
  },
  ...CATALOG.map((kind) => ({
    category: kind.category,
    label: kind.label,
    rows: (s: DesiredState): Row[] => s[kind.key],
    fields: kind.key === 'connections' ? ['display_name', 'kind', 'name'] : ['display_name'],
    hasEdges: (s: DesiredState, id: string) => s.agents.some((a) => kind.agentRefs(a).includes(id)),
  })),
];

function entityChanges(t: EntityTable, before: DesiredState, after: DesiredState): SemanticChange[] {
  const old = new Map(t.rows(before).map((r) => [r.id, r]));
  const now = new Map(t.rows(after).map((r) => [r.id, r]));
  const base = (id: string) => ({ category: t.category, subject_id: entitySubject(t.category, id) });
  const changes: SemanticChange[] = [];
  for (const [id, row] of old) {
    if (now.has(id)) continue;
    const authority: AuthorityEffect = t.hasEdges(before, id) ? 'reduced' : 'none';
    const text = `${t.label} '${row.display_name}' removed`;
    changes.push(makeChange({ ...base(id), action: 'removed', authority_effect: authority, reason_code: `${t.category}_removed`, text }));
  }
  for (const [id, row] of now) {
    const prev = old.get(id);
    if (!prev) {
      const text = `${t.label} '${row.display_name}' created`;
      changes.push(makeChange({ ...base(id), action: 'created', authority_effect: 'none', reason_code: `${t.category}_created`, text }));
      continue;
    }
    const changed = t.fields.filter((f) => !sameJson(prev[f] ?? null, row[f] ?? null));
    if (changed.length === 0) continue;
    const text = `${t.label} '${row.display_name}' modified (${changed.join(', ')})`;
    changes.push(
      makeChange({ ...base(id), action: 'modified', authority_effect: 'none', reason_code: `${t.category}_modified`, text, changed_fields: changed }),
    );
  }
  return changes;
}

interface Singleton {
  key: 'identity' | 'policy' | 'metadata';
  category: ChangeCategory;
  label: string;
  authority: AuthorityEffect;
}

/** Project-level objects; subjects `project:identity`, `project:policy`, `project:metadata`. An empty object counts as absent. */
const SINGLETONS: Singleton[] = [
  { key: 'identity', category: 'identity', label: 'Project identity', authority: 'changed' },
  { key: 'policy', category: 'policy', label: 'Project policy', authority: 'changed' },
  { key: 'metadata', category: 'project', label: 'Project metadata', authority: 'none' },
];

function singletonChange(s: Singleton, before: DesiredState, after: DesiredState): SemanticChange[] {
  const old: Record<string, unknown> = before[s.key];
  const now: Record<string, unknown> = after[s.key];
  const had = Object.keys(old).length > 0;
  const has = Object.keys(now).length > 0;
  const base = { category: s.category, subject_id: `project:${s.key}`, authority_effect: s.authority };
  if (!had && !has) return [];
  if (!had) return [makeChange({ ...base, action: 'created', reason_code: `${s.key}_set`, text: `${s.label} set` })];
  if (!has) return [makeChange({ ...base, action: 'removed', reason_code: `${s.key}_cleared`, text: `${s.label} cleared` })];
  const keys = [...new Set([...Object.keys(old), ...Object.keys(now)])];
  const changed = keys.filter((k) => !sameJson(old[k] ?? null, now[k] ?? null) || k in old !== k in now);
  if (changed.length === 0) return [];
  const text = `${s.label} changed (${changed.sort().join(', ')})`;
  return [makeChange({ ...base, action: 'modified', reason_code: `${s.key}_changed`, text, changed_fields: changed })];
}

/** Orders changes by (category, subject_id, action), the order the contract fingerprints. */
function sortChanges(changes: readonly SemanticChange[]): SemanticChange[] {
  return [...changes].sort((x, y) => cmp(x.category, y.category) || cmp(x.subject_id, y.subject_id) || cmp(x.action, y.action));
}

/**
 * Every semantic change from `before` to `after`, sorted. `before` null means "nothing yet": every
 * entity and edge of `after` is `created`. The result depends only on the two states, never on how
 * `after` was reached.
 */
export function diffStates(before: DesiredState | null, after: DesiredState): SemanticChange[] {
  const old = before ?? emptyDesiredState();
  return sortChanges([
    ...SINGLETONS.flatMap((s) => singletonChange(s, old, after)),
    ...TABLES.flatMap((t) => entityChanges(t, old, after)),
    ...edgeChanges(old, after),
  ]);
}

/** The semantic_diff_fingerprint: SHA-256 of the canonical JSON of the sorted changes. */
export function diffFingerprint(changes: readonly SemanticChange[]): string {
  return fingerprint(sortChanges(changes));
}
