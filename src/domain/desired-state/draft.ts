// Helpers that look up and edit a private draft copy of a desired state while a mutation is applied.
import { ApiError } from '../../errors.js';
import type { Agent, DesiredState } from '../../schemas/index.js';
import { catalogKind, entitySubject, type CatalogKey } from './catalog.js';

export function unknownReference(subject: string, what: string): ApiError {
  return new ApiError('unknown_reference', { affected_resource: subject, message: `${what} does not exist.` });
}

export function duplicateReference(subject: string, what: string): ApiError {
  return new ApiError('duplicate_reference', { affected_resource: subject, message: `${what} already exists.` });
}

export function findAgent(d: DesiredState, id: string): Agent {
  const agent = d.agents.find((a) => a.id === id);
  if (!agent) throw unknownReference(entitySubject('agent', id), `Agent '${id}'`);
  return agent;
}

/** Throws unknown_reference unless the catalog entity exists. */
export function requireEntity(d: DesiredState, key: CatalogKey, id: string): void {
  if (d[key].some((e) => e.id === id)) return;
  const kind = catalogKind(key);
  throw unknownReference(entitySubject(kind.category, id), `${kind.label} '${id}'`);
}

/** Create-or-replace by id. */
export function upsertById<T extends { id: string }>(list: T[], entity: T): void {
  const at = list.findIndex((e) => e.id === entity.id);
  if (at >= 0) list[at] = entity;
  else list.push(entity);
}

/** Removes an existing catalog entity; unknown_reference when it is not there. */
export function removeEntity(d: DesiredState, key: CatalogKey, id: string): void {
  requireEntity(d, key, id);
  const list: { id: string }[] = d[key];
  list.splice(
    list.findIndex((e) => e.id === id),
    1,
  );
}

/** Adds an id edge (idempotent: the normalizer dedupes). */
export function addEdge(list: string[], id: string): void {
  list.push(id);
}

/** Removes an id edge; an edge that is not there is an unknown reference (to the edge's subject). */
export function removeEdge(list: string[], id: string, subject: string, what: string): void {
  const at = list.indexOf(id);
  if (at < 0) throw unknownReference(subject, what);
  list.splice(at, 1);
}

/** Removes `id` from every agent's edge list of one kind (used when the target entity is removed). */
export function detachEverywhere(d: DesiredState, field: 'skills' | 'capabilities' | 'connections', id: string): void {
  for (const a of d.agents) a[field] = a[field].filter((x) => x !== id);
}
