// Compiles a normalized desired state into the immutable release document (docs/desired-state.md).
import type { Agent, DesiredState, ExecutionPlan, ReleaseDocument, ReleaseResource } from '../../schemas/index.js';
import { CATALOG, cmp } from './catalog.js';
import { fingerprint } from './fingerprint.js';

const RELEASE_SCHEMA_VERSION = 'svc.project-release/v3';
const COMPILER_VERSION = '3.0.0';

const RESOURCE_KIND = {
  skills: 'skill',
  capabilities: 'capability',
  credential_requirements: 'credential_requirement',
  memory_namespaces: 'memory_namespace',
  connections: 'connection',
} as const;

/** Least privilege: a plan resolves only the agent's own edges, never the whole catalog. */
function executionPlan(state: DesiredState, agent: Agent): ExecutionPlan {
  const named = (list: { id: string; display_name: string }[], ids: string[]) =>
    ids.map((id) => ({ id, display_name: list.find((e) => e.id === id)?.display_name ?? id }));
  const plan: ExecutionPlan = {
    agent_id: agent.id,
    display_name: agent.display_name,
    model: agent.model,
    limits: structuredClone(agent.limits),
    config: structuredClone(agent.config),
    skills: named(state.skills, agent.skills),
    capabilities: named(state.capabilities, agent.capabilities),
    connections: agent.connections.map((name) => {
      const c = state.connections.find((x) => x.id === name);
      return { name, kind: c?.kind ?? 'unknown', display_name: c?.display_name ?? name };
    }),
    memory_grants: agent.memory.map((m) => ({ namespace: m.namespace, access: m.access })),
    delegations: agent.delegations.map((d) => ({ to: d.to, mode: d.mode })),
  };
  // The soul text stays in the revision; the release pins it by fingerprint.
  if (agent.soul !== '') plan.soul_fingerprint = fingerprint(agent.soul);
  return plan;
}

function resources(state: DesiredState): ReleaseResource[] {
  const out: ReleaseResource[] = [];
  for (const kind of CATALOG) {
    for (const e of state[kind.key]) {
      const r: ReleaseResource = { kind: RESOURCE_KIND[kind.key], id: e.id, display_name: e.display_name };
      if ('kind' in e) r.connection_kind = e.kind;
      out.push(r);
    }
  }
  return out.sort((a, b) => cmp(a.kind, b.kind) || cmp(a.id, b.id));
}

/** A deterministic release document: the same state always compiles to the same JSON. */
export function compileRelease(state: DesiredState): ReleaseDocument {
  const agents = [...state.agents].sort((a, b) => cmp(a.id, b.id));
  return {
    schema_version: RELEASE_SCHEMA_VERSION,
    compiler_version: COMPILER_VERSION,
    delegations: agents.flatMap((a) => a.delegations.map((d) => ({ from: a.id, to: d.to, mode: d.mode }))),
    execution_plans: agents.map((a) => executionPlan(state, a)),
    resources: resources(state),
  };
}
