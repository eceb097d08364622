// Rules of a desired-state document that a schema cannot express: unique ids, connection names, references, JSON safety.
import type { ValidationItem } from '../../errors.js';
import type { ParsedDesiredState } from '../../schemas/index.js';
import { CATALOG } from './catalog.js';

export type Loc = (string | number)[];

function item(loc: Loc, msg: string, input: unknown = null): ValidationItem {
  return { loc, msg, type: 'value_error', input };
}

/** Every problem of a parsed document, with locs into the (still unsorted) input; empty when it is sound. */
export function integrityItems(s: ParsedDesiredState, loc: Loc): ValidationItem[] {
  return [...duplicateIds(s, loc), ...connectionNames(s, loc), ...agentReferences(s, loc), ...jsonSafetyItems(s, loc)];
}

function duplicateIds(s: ParsedDesiredState, loc: Loc): ValidationItem[] {
  const items: ValidationItem[] = [];
  for (const key of ['agents', ...CATALOG.map((k) => k.key)] as const) {
    const seen = new Set<string>();
    s[key].forEach((e, i) => {
      if (seen.has(e.id)) items.push(item([...loc, key, i, 'id'], `Duplicate id '${e.id}' in ${key}`, e.id));
      seen.add(e.id);
    });
  }
  return items;
}

function connectionNames(s: ParsedDesiredState, loc: Loc): ValidationItem[] {
  return s.connections.flatMap((c, i) =>
    c.name !== undefined && c.name !== c.id ? [item([...loc, 'connections', i, 'name'], `A connection's name must equal its id ('${c.id}')`, c.name)] : [],
  );
}

function agentReferences(s: ParsedDesiredState, loc: Loc): ValidationItem[] {
  const ids = (list: { id: string }[]) => new Set(list.map((e) => e.id));
  const known = {
    skills: ids(s.skills),
    capabilities: ids(s.capabilities),
    connections: ids(s.connections),
    memory: ids(s.memory_namespaces),
    agents: ids(s.agents),
  };
  const items: ValidationItem[] = [];
  s.agents.forEach((a, i) => {
    const at = [...loc, 'agents', i];
    for (const key of ['skills', 'capabilities', 'connections'] as const) {
      a[key].forEach((ref, j) => {
        if (!known[key].has(ref)) items.push(item([...at, key, j], `Unknown ${SINGULAR[key]} '${ref}'`, ref));
      });
    }
    a.memory.forEach((m, j) => {
      if (!known.memory.has(m.namespace)) items.push(item([...at, 'memory', j, 'namespace'], `Unknown memory namespace '${m.namespace}'`, m.namespace));
    });
    a.delegations.forEach((d, j) => {
      if (d.to === a.id) items.push(item([...at, 'delegations', j, 'to'], 'An agent cannot delegate to itself', d.to));
      else if (!known.agents.has(d.to)) items.push(item([...at, 'delegations', j, 'to'], `Unknown agent '${d.to}'`, d.to));
    });
  });
  return items;
}

const SINGULAR = { skills: 'skill', capabilities: 'capability', connections: 'connection' } as const;

const LONE_SURROGATE = /\p{Cs}/u;

/**
 * Values RFC 8785 cannot canonicalize (lone surrogates from JSON escapes, .inf/.nan from YAML) would make
 * fingerprinting throw, i.e. a 500; they are reported as validation errors instead.
 */
export function jsonSafetyItems(value: unknown, loc: Loc): ValidationItem[] {
  if (typeof value === 'string') return LONE_SURROGATE.test(value) ? [item(loc, 'Lone UTF-16 surrogates are not allowed', value)] : [];
  if (typeof value === 'number') return Number.isFinite(value) ? [] : [item(loc, 'Numbers must be finite', String(value))];
  if (Array.isArray(value)) return value.flatMap((e, i) => jsonSafetyItems(e, [...loc, i]));
  if (value === null || typeof value !== 'object') return [];
  return Object.entries(value).flatMap(([k, e]) => [...jsonSafetyItems(k, [...loc, k]), ...jsonSafetyItems(e, [...loc, k])]);
}
