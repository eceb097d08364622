// Turns desired-state input into its one canonical form: defaults filled, lists sorted by id, edges deduped.
import * as v from 'valibot';
import { ValidationError } from '../../errors.js';
import { issuesToItems } from '../../validation.js';
import { DesiredStateSchema, type Agent, type DesiredState, type MemoryGrant, type ParsedDesiredState } from '../../schemas/index.js';
import { cmp } from './catalog.js';
import { integrityItems, type Loc } from './integrity.js';

/**
 * Validates `input` (a whole desired-state document) and returns it normalized.
 * Failures are one 422 whose item locs start with `loc` (['body'] by default; the bundle code passes
 * ['body', 'bundle', 'manifest']), so the same rules serve request bodies, manifests and fixtures.
 */
export function normalizeDesiredState(input: unknown, loc: Loc = ['body']): DesiredState {
  const result = v.safeParse(DesiredStateSchema, input, { abortEarly: false, abortPipeEarly: true });
  if (!result.success) {
    throw new ValidationError(issuesToItems(result.issues, 'body').map((i) => ({ ...i, loc: [...loc, ...i.loc.slice(1)] })));
  }
  const problems = integrityItems(result.output, loc);
  if (problems.length > 0) throw new ValidationError(problems);
  return canonicalState(result.output);
}

const byId = <T extends { id: string }>(a: T, b: T): number => cmp(a.id, b.id);
const uniqSorted = (ids: readonly string[]): string[] => [...new Set(ids)].sort(cmp);

/** Duplicate grants of one namespace collapse to the strongest access (write covers read). */
function canonicalMemory(memory: readonly MemoryGrant[]): MemoryGrant[] {
  const byNs = new Map<string, MemoryGrant['access']>();
  for (const m of memory) if (byNs.get(m.namespace) !== 'write') byNs.set(m.namespace, m.access);
  return [...byNs].map(([namespace, access]) => ({ namespace, access })).sort((a, b) => cmp(a.namespace, b.namespace));
}

function canonicalAgent(a: Agent): Agent {
  const delegations = new Map(a.delegations.map((d) => [d.to, d.mode] as const));
  return {
    id: a.id,
    display_name: a.display_name,
    soul: a.soul,
    model: a.model,
    limits: structuredClone(a.limits),
    config: structuredClone(a.config),
    skills: uniqSorted(a.skills),
    capabilities: uniqSorted(a.capabilities),
    connections: uniqSorted(a.connections),
    memory: canonicalMemory(a.memory),
    delegations: [...delegations].map(([to, mode]) => ({ to, mode })).sort((x, y) => cmp(x.to, y.to)),
  };
}

/**
 * Sorts and dedupes an already-valid document (no validation). Used after every mutation, so two states
 * with the same content always have the same JSON and the same fingerprint. Returns fresh objects.
 */
export function canonicalState(s: ParsedDesiredState | DesiredState): DesiredState {
  const entity = (e: { id: string; display_name: string }) => ({ id: e.id, display_name: e.display_name });
  return {
    identity: { ...s.identity },
    metadata: structuredClone(s.metadata),
    policy: structuredClone(s.policy),
    agents: s.agents.map(canonicalAgent).sort(byId),
    skills: s.skills.map(entity).sort(byId),
    capabilities: s.capabilities.map(entity).sort(byId),
    credential_requirements: s.credential_requirements.map(entity).sort(byId),
    memory_namespaces: s.memory_namespaces.map(entity).sort(byId),
    connections: s.connections.map((c) => ({ id: c.id, name: c.id, kind: c.kind, display_name: c.display_name })).sort(byId),
  };
}

let empty: DesiredState | undefined;
/**
 * The empty desired state, deep-frozen: the baseline of a project's first revision and of `diffStates(null, …)`. Made at
 * its first use, once (normalizing runs the desired state's schemas, which a process that never needs it skips).
 */
export function emptyDesiredState(): DesiredState {
  return (empty ??= deepFreeze(normalizeDesiredState({})));
}

function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === 'object') {
    for (const inner of Object.values(value)) deepFreeze(inner);
    Object.freeze(value);
  }
  return value;
}
