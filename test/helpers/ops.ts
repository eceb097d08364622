// Small helpers for the runtime-operation suites: error assertions, credentials per actor, a change-set-counting adapter.
import * as assert from 'uvu/assert';
import type { Response } from 'supertest';
import { MemoryAdapter } from '../../src/storage/adapters.js';
import type { ChangeSet, CommittedState } from '../../src/storage/adapters.js';
import { DEMO, bearer } from './demo.js';

/** Asserts a management-envelope error. */
export function assertError(res: Response, status: number, reason: string): void {
  assert.is(res.status, status, `expected ${status} ${reason}, got ${res.status} ${JSON.stringify(res.body)}`);
  assert.is(res.body?.detail?.reason_code, reason, JSON.stringify(res.body));
}

/** Asserts a 422 whose items include one at `loc`. */
export function assertInvalidAt(res: Response, loc: (string | number)[]): void {
  assert.is(res.status, 422, JSON.stringify(res.body));
  const locs = (res.body.detail as { loc: unknown[] }[]).map((i) => JSON.stringify(i.loc));
  assert.ok(locs.includes(JSON.stringify(loc)), `no item at ${JSON.stringify(loc)} in ${locs.join(' ')}`);
}

/** Headers of each demo actor, for authority tables. */
export const AS = {
  owner: bearer(DEMO.tokens.owner),
  operator: bearer(DEMO.tokens.operator),
  viewer: bearer(DEMO.tokens.viewer),
  readonlyOwner: bearer(DEMO.tokens.readonlyOwner),
  globex: bearer(DEMO.tokens.globex),
  expired: bearer(DEMO.tokens.expired),
  admin: { 'X-Admin-Key': DEMO.adminKey },
  wrongAdmin: { 'X-Admin-Key': 'not-the-admin-key' },
  none: {},
} as const;

type Actor = keyof typeof AS;

/**
 * Who is refused an endpoint, and how: the authority matrix of docs/api.md#authentication for an endpoint
 * needing `level`, with or without X-Admin-Key (a wrong key is 401 where accepted; elsewhere a key
 * is no credential at all).
 */
export function refusals(level: 'operator' | 'owner', adminKey: boolean): [Actor, number, string][] {
  return [
    ...(level === 'owner' ? [['operator', 403, 'insufficient_authority'] as [Actor, number, string]] : []),
    ['viewer', 403, 'insufficient_authority'],
    ['readonlyOwner', 403, 'insufficient_authority'],
    ['globex', 404, 'project_not_found'],
    ['none', 401, 'authentication_required'],
    ['expired', 401, 'token_expired'],
    adminKey ? ['wrongAdmin', 401, 'admin_key_invalid'] : ['admin', 401, 'authentication_required'],
  ];
}

/** A memory adapter that counts the change sets it is handed, to check "one operation, one transaction". */
export class CountingAdapter extends MemoryAdapter {
  sets = 0;
  last: ChangeSet | null = null;
  override appendChangeSets(group: readonly ChangeSet[], committed: CommittedState): void {
    this.sets += group.length;
    this.last = group[group.length - 1] ?? null;
    super.appendChangeSets(group, committed);
  }
  /** The records the last change set wrote to `collection` (deletions left out). */
  written(collection: string): Record<string, unknown>[] {
    return (this.last?.changes ?? [])
      .filter((c) => c.collection === collection && c.record !== null)
      .map((c) => c.record as unknown as Record<string, unknown>);
  }
}
