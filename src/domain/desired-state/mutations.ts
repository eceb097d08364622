// Applies one typed mutation to a desired state: pure, all-or-nothing, returning a new normalized state.
import { ValidationError, invalid } from '../../errors.js';
import type { DesiredState, Mutation, MutationOf, MutationType } from '../../schemas/index.js';
import { CATALOG_HANDLERS } from './catalog-mutations.js';
import { duplicateReference, findAgent, unknownReference } from './draft.js';
import { jsonSafetyItems } from './integrity.js';
import { canonicalState } from './normalize.js';

type Handlers<K extends MutationType> = { [T in K]: (d: DesiredState, m: MutationOf<T>) => void };

function requireNewAgent(d: DesiredState, id: string): void {
  if (d.agents.some((a) => a.id === id)) throw duplicateReference(`agent:${id}`, `Agent '${id}'`);
}

/** Top-level merge; a `null` value deletes that key (so a merge can also unset). */
function mergeMetadata(base: Record<string, unknown>, patch: Record<string, unknown>): Record<string, unknown> {
  const out = { ...base };
  for (const [k, value] of Object.entries(patch)) {
    if (value === null) delete out[k];
    else out[k] = value;
  }
  return out;
}

const PROJECT_AND_AGENT_HANDLERS: Handlers<Exclude<MutationType, keyof typeof CATALOG_HANDLERS>> = {
  'project.identity.set': (d, m) => {
    d.identity = m.identity;
  },
  'project.metadata.update': (d, m) => {
    d.metadata = mergeMetadata(d.metadata, m.metadata);
  },
  'project.policy.set': (d, m) => {
    d.policy = m.policy;
  },
  'agent.create': (d, m) => {
    requireNewAgent(d, m.agent_id);
    d.agents.push({
      id: m.agent_id,
      display_name: m.display_name,
      soul: m.soul ?? '',
      model: m.model ?? '',
      limits: m.limits ?? {},
      config: m.config ?? {},
      skills: [],
      capabilities: [],
      connections: [],
      memory: [],
      delegations: [],
    });
  },
  'agent.update': (d, m) => {
    const agent = findAgent(d, m.agent_id);
    if (m.display_name !== undefined) agent.display_name = m.display_name;
  },
  'agent.configure': (d, m) => {
    findAgent(d, m.agent_id).config = m.config;
  },
  'agent.clone': (d, m) => {
    const source = findAgent(d, m.source_agent_id);
    requireNewAgent(d, m.agent_id);
    // The clone copies the source's own (outgoing) edges; delegations *to* the source are not copied.
    const copy = structuredClone(source);
    d.agents.push({ ...copy, id: m.agent_id, display_name: m.display_name ?? source.display_name });
  },
  'agent.delete': (d, m) => {
    findAgent(d, m.agent_id);
    d.agents = d.agents.filter((a) => a.id !== m.agent_id);
    for (const a of d.agents) a.delegations = a.delegations.filter((x) => x.to !== m.agent_id);
  },
  'agent.soul.set': (d, m) => {
    findAgent(d, m.agent_id).soul = m.soul;
  },
  'agent.model.set': (d, m) => {
    findAgent(d, m.agent_id).model = m.model;
  },
  'agent.limits.set': (d, m) => {
    findAgent(d, m.agent_id).limits = m.limits;
  },
  'agent.delegation.add': (d, m) => {
    const agent = findAgent(d, m.agent_id);
    findAgent(d, m.target_agent_id);
    if (m.agent_id === m.target_agent_id) {
      throw invalid(['body', 'mutation', 'target_agent_id'], 'An agent cannot delegate to itself', 'value_error', m.target_agent_id);
    }
    agent.delegations = [...agent.delegations.filter((x) => x.to !== m.target_agent_id), { to: m.target_agent_id, mode: m.mode ?? 'as_tool' }];
  },
  'agent.delegation.remove': (d, m) => {
    const agent = findAgent(d, m.agent_id);
    if (!agent.delegations.some((x) => x.to === m.target_agent_id)) {
      throw unknownReference(`agent:${m.agent_id}/delegation:${m.target_agent_id}`, `Delegation from agent '${m.agent_id}' to '${m.target_agent_id}'`);
    }
    agent.delegations = agent.delegations.filter((x) => x.to !== m.target_agent_id);
  },
};

const HANDLERS: Handlers<MutationType> = { ...PROJECT_AND_AGENT_HANDLERS, ...CATALOG_HANDLERS };

/**
 * Returns the state that `mutation` produces from `state`. The input is never modified: the handler edits a
 * private deep copy, so a thrown error (unknown_reference, duplicate_reference, 422) leaves nothing half-applied.
 */
export function applyMutation(state: DesiredState, mutation: Mutation): DesiredState {
  const unsafe = jsonSafetyItems(mutation, ['body', 'mutation']);
  if (unsafe.length > 0) throw new ValidationError(unsafe);
  const draft = structuredClone(state);
  const handler = HANDLERS[mutation.type] as (d: DesiredState, m: Mutation) => void;
  handler(draft, structuredClone(mutation));
  return canonicalState(draft);
}

/** Applies mutations in order (all or nothing). */
export function applyMutations(state: DesiredState, mutations: readonly Mutation[]): DesiredState {
  return mutations.reduce(applyMutation, state);
}
