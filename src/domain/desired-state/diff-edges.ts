// The edge half of the diff engine: every agent->resource edge is its own subject, `agent:<a>/<kind>:<target>`.
import type { AuthorityEffect, ChangeCategory, DesiredState, SemanticChange } from '../../schemas/index.js';
import { makeChange, nameIn } from './change.js';

type EdgeKind = 'skill' | 'capability' | 'memory' | 'connection' | 'delegation';
type NameKey = 'skills' | 'capabilities' | 'memory_namespaces' | 'connections' | 'agents';

interface EdgeSpec {
  category: ChangeCategory;
  names: NameKey;
  label: string;
  /** Verb (and preposition) for an added / removed edge, also the reason_code suffix. */
  added: [string, string];
  removed: [string, string];
  /** Whether adding/removing this edge changes what the agent may do (skills are descriptive only). */
  grantsAuthority: boolean;
}

const EDGES: Record<EdgeKind, EdgeSpec> = {
  skill: { category: 'skill', names: 'skills', label: 'Skill', added: ['attached', 'to'], removed: ['detached', 'from'], grantsAuthority: false },
  capability: {
    category: 'capability',
    names: 'capabilities',
    label: 'Capability',
    added: ['granted', 'to'],
    removed: ['revoked', 'from'],
    grantsAuthority: true,
  },
  memory: {
    category: 'memory_namespace',
    names: 'memory_namespaces',
    label: 'Memory namespace',
    added: ['granted', 'to'],
    removed: ['revoked', 'from'],
    grantsAuthority: true,
  },
  connection: {
    category: 'connection',
    names: 'connections',
    label: 'Connection',
    added: ['attached', 'to'],
    removed: ['detached', 'from'],
    grantsAuthority: true,
  },
  delegation: {
    category: 'delegation',
    names: 'agents',
    label: 'Delegation to agent',
    added: ['added', 'for'],
    removed: ['removed', 'from'],
    grantsAuthority: true,
  },
};

interface Edge {
  kind: EdgeKind;
  agent: string;
  target: string;
  /** The edge's own value: memory access or delegation mode. */
  detail?: string;
}

function edgesOf(s: DesiredState): Map<string, Edge> {
  const edges = new Map<string, Edge>();
  const put = (e: Edge) => edges.set(`agent:${e.agent}/${e.kind}:${e.target}`, e);
  for (const a of s.agents) {
    for (const target of a.skills) put({ kind: 'skill', agent: a.id, target });
    for (const target of a.capabilities) put({ kind: 'capability', agent: a.id, target });
    for (const target of a.connections) put({ kind: 'connection', agent: a.id, target });
    for (const m of a.memory) put({ kind: 'memory', agent: a.id, target: m.namespace, detail: m.access });
    for (const d of a.delegations) put({ kind: 'delegation', agent: a.id, target: d.to, detail: d.mode });
  }
  return edges;
}

function addedOrRemoved(subject: string, e: Edge, state: DesiredState, action: 'created' | 'removed'): SemanticChange {
  const spec = EDGES[e.kind];
  const [verb, prep] = action === 'created' ? spec.added : spec.removed;
  const detail = e.detail ? ` (${e.detail})` : '';
  const authority: AuthorityEffect = !spec.grantsAuthority ? 'none' : action === 'created' ? 'expanded' : 'reduced';
  return makeChange({
    category: spec.category,
    subject_id: subject,
    action,
    authority_effect: authority,
    reason_code: `${e.kind}_${verb}`,
    text: `${spec.label} '${nameIn(state, spec.names, e.target)}'${detail} ${verb} ${prep} agent '${nameIn(state, 'agents', e.agent)}'`,
  });
}

/** A changed edge value: memory read<->write, or a delegation mode. */
function modified(subject: string, before: Edge, after: Edge, state: DesiredState): SemanticChange {
  const spec = EDGES[after.kind];
  const isMemory = after.kind === 'memory';
  const authority: AuthorityEffect = !isMemory ? 'changed' : after.detail === 'write' ? 'expanded' : 'reduced';
  const reason = isMemory ? `memory_access_${authority}` : `${after.kind}_modified`;
  return makeChange({
    category: spec.category,
    subject_id: subject,
    action: 'modified',
    authority_effect: authority,
    reason_code: reason,
    text: `${spec.label} '${nameIn(state, spec.names, after.target)}' on agent '${nameIn(state, 'agents', after.agent)}' changed from ${before.detail} to ${after.detail}`,
    changed_fields: [isMemory ? 'access' : 'mode'],
  });
}

export function edgeChanges(before: DesiredState, after: DesiredState): SemanticChange[] {
  const a = edgesOf(before);
  const b = edgesOf(after);
  const changes: SemanticChange[] = [];
  for (const [subject, e] of a) if (!b.has(subject)) changes.push(addedOrRemoved(subject, e, before, 'removed'));
  for (const [subject, e] of b) {
    const old = a.get(subject);
    if (!old) changes.push(addedOrRemoved(subject, e, after, 'created'));
    else if (old.detail !== e.detail) changes.push(modified(subject, old, e, after));
  }
  return changes;
}
