// Appending a group of change sets: one statement when no one wrote meanwhile (the common case: one round trip, its own
// transaction), else statements inside the transaction that holds the head lock (after a rebase).
import type pg from 'pg';
import type { ChangeSet } from '../change-sets.js';
import { encodeSet, netEffect } from './codec.js';
import type { Tables } from './schema.js';

/** The clock and settings after the group (undefined when no set changed them). */
function lastState(sets: readonly ChangeSet[]): [string | null, string | null] {
  let clock: unknown, settings: unknown;
  for (const s of sets) {
    if (s.clock) clock = s.clock;
    if (s.settings) settings = s.settings;
  }
  return [clock === undefined ? null : JSON.stringify(clock), settings === undefined ? null : JSON.stringify(settings)];
}

/**
 * Appends `sets` in one statement if the head is still at `expected`: the head row's update is the compare-and-set (a
 * concurrent writer's update makes it wait, then match nothing), and every other part runs only when it matched.
 * Answers false when another writer got there first. A group that moves a record (deleted, then written again) is
 * not taken here (false): its delete and write of one row cannot share a statement.
 *
 * The change sets travel as one JSON array of their log lines, and each record row is taken from the change that
 * wrote its final value: every record is serialized once, and nothing is escaped into array literals.
 */
export async function appendIfAt(c: pg.ClientBase, t: Tables, channel: string, sets: readonly ChangeSet[], expected: number): Promise<boolean | 'moved'> {
  const { deletes, upserts, moved } = netEffect(sets);
  if (moved) return 'moved';
  const [clock, settings] = lastState(sets);
  const gone = JSON.stringify(deletes.key.map((k, i) => [deletes.collection[i], k]));
  const put = JSON.stringify(
    upserts.key.map((k, i) => [upserts.collection[i], k, upserts.ordSeq[i], upserts.ordI[i], upserts.at[i][0] + 1, upserts.at[i][1] + 1]),
  );
  // Prepared once per connection (named): PostgreSQL parses and plans this statement once, not for every group.
  const { rows } = await c.query({
    name: `prm_append_${t.tag}`,
    text: `WITH head AS (
       UPDATE ${t.head} SET seq = $1, clock = COALESCE($2::json, clock), settings = COALESCE($3::json, settings) WHERE id = 1 AND seq = $4 RETURNING seq
     ), sets AS (
       SELECT s.b, s.n FROM json_array_elements($5::json) WITH ORDINALITY AS s(b, n), head
     ), logged AS (
       INSERT INTO ${t.changes} (seq, body) SELECT $4 + s.n, s.b::text FROM sets s
     ), gone AS (
       DELETE FROM ${t.records} r USING json_array_elements($6::json) AS d(x), head WHERE r.collection = d.x->>0 AND r.key = d.x->>1
     ), put AS (
       INSERT INTO ${t.records} (collection, key, ord_seq, ord_i, record)
       SELECT p.x->>0, p.x->>1, (p.x->>2)::bigint, (p.x->>3)::int, ch.c->2
       FROM json_array_elements($7::json) AS p(x)
       JOIN (sets s CROSS JOIN LATERAL json_array_elements(s.b->'changes') WITH ORDINALITY AS ch(c, i)) ON s.n = (p.x->>4)::bigint AND ch.i = (p.x->>5)::bigint
       ON CONFLICT (collection, key) DO UPDATE SET record = EXCLUDED.record
     )
     SELECT pg_notify($8, seq::text) FROM head`,
    values: [sets[sets.length - 1].seq, clock, settings, expected, `[${sets.map(encodeSet).join(',')}]`, gone, put, channel],
  });
  return rows.length === 1;
}

/** Appends `sets` inside the caller's transaction, which holds the head row's lock. */
export async function appendLocked(c: pg.ClientBase, t: Tables, channel: string, sets: readonly ChangeSet[]): Promise<void> {
  await c.query(`INSERT INTO ${t.changes} (seq, body) SELECT * FROM unnest($1::bigint[], $2::text[])`, [sets.map((s) => s.seq), sets.map(encodeSet)]);
  const { deletes, upserts, moved } = netEffect(sets);
  // Records deleted and written again in the group go last, as in the store's maps: delete them before writing.
  if (deletes.key.length || moved) {
    const c1 = [...deletes.collection, ...(moved?.collection ?? [])];
    const k1 = [...deletes.key, ...(moved?.key ?? [])];
    await c.query(`DELETE FROM ${t.records} r USING unnest($1::text[], $2::text[]) AS d(c, k) WHERE r.collection = d.c AND r.key = d.k`, [c1, k1]);
  }
  if (upserts.key.length) {
    await c.query(
      `INSERT INTO ${t.records} (collection, key, ord_seq, ord_i, record) SELECT c, k, s, i, r::json FROM unnest($1::text[], $2::text[], $3::bigint[], $4::int[], $5::text[]) AS t(c, k, s, i, r)
       ON CONFLICT (collection, key) DO UPDATE SET record = EXCLUDED.record`,
      [upserts.collection, upserts.key, upserts.ordSeq, upserts.ordI, upserts.records.map((r) => JSON.stringify(r))],
    );
  }
  const [clock, settings] = lastState(sets);
  await setHead(c, t, channel, sets[sets.length - 1].seq, clock, settings);
}

/** Moves the head (a whole new state, or a group under the lock) and announces it to the instances that listen. */
export async function setHead(c: pg.ClientBase, t: Tables, channel: string, seq: number, clock: string | null, settings: string | null): Promise<void> {
  await c.query(`UPDATE ${t.head} SET seq = $1, clock = COALESCE($2::json, clock), settings = COALESCE($3::json, settings) WHERE id = 1`, [
    seq,
    clock,
    settings,
  ]);
  await c.query('SELECT pg_notify($1, $2)', [channel, String(seq)]);
}
