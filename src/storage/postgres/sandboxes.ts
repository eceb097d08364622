// The registry of shared sandboxes in the database: every instance creates, finds, lists, touches and drops them there,
// with `max` counted over all instances (creates are serialized by an advisory lock) and expiry on the stored last request.
import type pg from 'pg';
import type { StateData } from '../../schemas/index.js';
import type { NewSandbox, OpenedSandbox, SandboxRow, SharedSandboxStorage } from '../change-sets.js';
import { withClient } from './pool.js';
import { isMissingBase } from './bases.js';
import { SandboxAdapter, SandboxGone, type SandboxDb } from './sandbox-adapter.js';
import { Ends } from './ends.js';

interface Row {
  id: string;
  name: string | null;
  seed: string | null;
  created_ms: string;
  last_ms: string;
  ttl_ms: string;
  ord: string;
}
const COLUMNS = 'id, name, seed, created_ms, last_ms, ttl_ms, ord';
const rowOf = (r: Row): SandboxRow => ({
  id: r.id,
  name: r.name,
  seed: r.seed,
  createdMs: Number(r.created_ms),
  lastMs: Number(r.last_ms),
  ttlMs: Number(r.ttl_ms),
  ord: Number(r.ord),
});
/** The sandbox tables do not exist yet (no sandbox was ever created in this schema). */
const noTables = (err: unknown) => (err as { code?: string }).code === '42P01';
/** Ids tried before a create gives up (an id is taken only when two instances share a seed). */
const ID_TRIES = 8;

export class PgSandboxes implements SharedSandboxStorage {
  readonly #drops: ((id: string) => void | Promise<void>)[] = [];
  readonly #ends: Ends;

  constructor(
    private readonly db: SandboxDb,
    /** Creates the sandbox tables when missing (the first create does). */
    private readonly init: () => Promise<void>,
  ) {
    this.#ends = new Ends(db.pool, db.t, db.session, db.channel);
  }

  /**
   * A notification on the sandbox channel: a commit to one (`{id} {seq}`), a drop (`-{id}`: acknowledged once this
   * instance's requests to it are answered), an acknowledgement (`+{id} {pid}`), or none (reconnected: look at all).
   */
  heard(payload?: string): void {
    if (payload === undefined) {
      for (const w of this.db.watchers.values()) w();
    } else if (payload.startsWith('-')) {
      const id = payload.slice(1);
      void this.#ends.heardDrop(id, Promise.all(this.#drops.map((l) => l(id))));
    } else if (payload.startsWith('+')) {
      this.#ends.heardAck(payload.slice(1));
    } else {
      const [id, seq] = payload.split(' ');
      this.db.watchers.get(id)?.(Number(seq));
    }
  }

  onDrop(listener: (id: string) => void | Promise<void>): void {
    this.#drops.push(listener);
  }

  async create(spec: NewSandbox): Promise<SandboxRow | { full: number }> {
    await this.init();
    const { t, bases } = this.db;
    for (let attempt = 0; ; attempt++) {
      try {
        return await withClient(this.db.pool, async (c) => {
          // One round trip to begin and take the lock that serializes creates (so the count below is every instance's).
          // The commit does not wait for its WAL flush: the sandbox's first stored write flushes it (WAL is in order),
          // and a crash before that loses only a sandbox nothing was written to (its id then answers 404).
          await c.query(`BEGIN; SET LOCAL synchronous_commit = off; SELECT pg_advisory_xact_lock(hashtext('project-runtime-mock sandboxes ${t.tag}'))`);
          try {
            const hash = await bases.put(c, spec.state, attempt > 0);
            const { rows } = await c.query<Row>(
              `INSERT INTO ${t.sandboxes} (id, name, seed, created_ms, last_ms, ttl_ms, seq, base_seq, base, reset)
               SELECT $1, $2, $3, $4, $4, $5, 0, 0, $6, $6 WHERE (SELECT count(*) FROM ${t.sandboxes} WHERE last_ms + ttl_ms > $4) < $7
               RETURNING ${COLUMNS}`,
              [spec.ids(), spec.name, spec.seed, spec.nowMs, spec.ttlMs, hash, spec.max],
            );
            let out: SandboxRow | { full: number };
            if (rows[0]) out = rowOf(rows[0]);
            else {
              await bases.collect(c, [hash]);
              const soonest = await c.query<{ at: string | null }>(`SELECT min(last_ms + ttl_ms) AS at FROM ${t.sandboxes} WHERE last_ms + ttl_ms > $1`, [
                spec.nowMs,
              ]);
              out = { full: Math.max(0, Number(soonest.rows[0].at ?? spec.nowMs) - spec.nowMs) };
            }
            await c.query('COMMIT');
            return out;
          } catch (err) {
            await c.query('ROLLBACK').catch(() => {});
            throw err;
          }
        });
      } catch (err) {
        // An id another instance took (23505), or a base removed since this instance stored it (23503): try again.
        const taken = (err as { code?: string }).code === '23505';
        if (attempt + 1 >= ID_TRIES || !(taken || isMissingBase(err))) throw err;
      }
    }
  }

  async find(id: string, nowMs: number): Promise<SandboxRow | null> {
    const rows = await this.#select(`WHERE id = $1 AND last_ms + ttl_ms > $2`, [id, nowMs]);
    return rows[0] ? rowOf(rows[0]) : null;
  }

  async list(nowMs: number): Promise<SandboxRow[]> {
    return (await this.#select(`WHERE last_ms + ttl_ms > $1 ORDER BY ord DESC`, [nowMs])).map(rowOf);
  }

  /** Registry rows; none before the first create made the tables (reads never create them). */
  async #select(where: string, values: unknown[]): Promise<Row[]> {
    try {
      return (await this.db.pool.query<Row>(`SELECT ${COLUMNS} FROM ${this.db.t.sandboxes} ${where}`, values)).rows;
    } catch (err) {
      if (noTables(err)) return [];
      throw err;
    }
  }

  async touch(id: string, lastMs: number): Promise<void> {
    await this.db.pool.query(`UPDATE ${this.db.t.sandboxes} SET last_ms = GREATEST(last_ms, $2) WHERE id = $1`, [id, lastMs]);
  }

  /** Answers once every live instance has answered its requests to the sandbox (see Ends). */
  delete(id: string): Promise<boolean> {
    return this.#ends.delete(id, async () => (await this.#remove(`id = $1`, [id])).length === 1);
  }

  async sweep(nowMs: number): Promise<string[]> {
    return this.#remove(`last_ms + ttl_ms <= $1`, [nowMs]);
  }

  /** Deletes the rows `where` picks (their change sets go with them), then the bases no one uses, and tells every instance. */
  async #remove(where: string, values: unknown[]): Promise<string[]> {
    const { t, bases, pool, channel } = this.db;
    return withClient(pool, async (c: pg.PoolClient) => {
      const removed = await c
        .query<{ id: string; base: string; reset: string }>(`DELETE FROM ${t.sandboxes} WHERE ${where} RETURNING id, base, reset`, values)
        .catch((err) => (noTables(err) ? { rows: [] } : Promise.reject(err)));
      const rows = removed.rows;
      if (rows.length === 0) return [];
      await c.query(`SELECT pg_notify($1, '-' || x) FROM unnest($2::text[]) AS x`, [channel, rows.map((r) => r.id)]);
      await bases.collect(c, [...new Set(rows.flatMap((r) => [r.base, r.reset]))]);
      return rows.map((r) => r.id);
    });
  }

  async open(id: string, created?: StateData): Promise<OpenedSandbox> {
    // Just created through this instance: it is its base at seq 0, nothing to read.
    if (created) return { adapter: new SandboxAdapter(this.db, id, 0), state: created, seq: 0 };
    return withClient(this.db.pool, async (c) => {
      const { rows } = await c.query<{ base: string; base_seq: string }>(`SELECT base, base_seq FROM ${this.db.t.sandboxes} WHERE id = $1`, [id]);
      if (!rows[0]) throw new SandboxGone(id);
      const seq = Number(rows[0].base_seq);
      return { adapter: new SandboxAdapter(this.db, id, seq), state: await this.db.bases.get(c, rows[0].base), seq };
    });
  }
}
