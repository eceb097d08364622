// One table of the catalog entity kinds, so mutations, the diff engine and the compiler name them identically.
import type { ChangeCategory, DesiredState } from '../../schemas/index.js';

export type CatalogKey = 'skills' | 'capabilities' | 'credential_requirements' | 'memory_namespaces' | 'connections';

export interface CatalogKind {
  key: CatalogKey;
  /** Change category and subject prefix (`capability:crm-read`). */
  category: ChangeCategory & string;
  /** Human label used in change texts and error messages. */
  label: string;
  /** The agent field holding edges to this kind, if agents can reference it. */
  agentRefs: (agent: DesiredState['agents'][number]) => readonly string[];
}

const none = (): readonly string[] => [];

export const CATALOG: readonly CatalogKind[] = [
  { key: 'skills', category: 'skill', label: 'Skill', agentRefs: (a) => a.skills },
  { key: 'capabilities', category: 'capability', label: 'Capability', agentRefs: (a) => a.capabilities },
  { key: 'credential_requirements', category: 'credential_requirement', label: 'Credential requirement', agentRefs: none },
  { key: 'memory_namespaces', category: 'memory_namespace', label: 'Memory namespace', agentRefs: (a) => a.memory.map((m) => m.namespace) },
  { key: 'connections', category: 'connection', label: 'Connection', agentRefs: (a) => a.connections },
];

export function catalogKind(key: CatalogKey): CatalogKind {
  return CATALOG.find((k) => k.key === key)!;
}

/** Entity subject id, e.g. `agent:support-bot`, `memory_namespace:notes`. */
export function entitySubject(category: string, id: string): string {
  return `${category}:${id}`;
}

/** Plain code-unit order: deterministic, locale-free. */
export function cmp(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
