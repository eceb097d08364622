// One shared sandbox's state in the database: its base (a whole state stored once, by hash) and its change sets since,
// appended with a compare-and-set on its registry row, as the default mock's are on the head row.
import type pg from 'pg';
import { DATA_FILE_FORMAT, DATA_FILE_VERSION, type DataFile, type StateData } from '../../schemas/index.js';
import { ChangeSetConflict, type CaughtUp, type ChangeSet, type ChangeSetAdapter, type CommittedState, type Rebase, type RebaseWhole } from '../change-sets.js';
import { documentAfter } from '../lowdb-adapter.js';
import { SandboxGone } from '../sandbox-gone.js';
import { decodeSet, encodeSet } from './codec.js';
import { inTransaction, withClient } from './pool.js';
import type { Bases } from './bases.js';
import type { Session } from './session.js';
import type { Tables } from './schema.js';

/** A sandbox's log is folded into a new base once it holds this many change sets: opening one replays at most these. */
export const COMPACT_AFTER = 1_000;

/** What every sandbox of one database shares: the pool, the tables, the bases, the session and its listeners. */
export interface SandboxDb {
  readonly pool: pg.Pool;
  readonly t: Tables;
  readonly bases: Bases;
  readonly session: Session;
  /** The NOTIFY channel of sandbox commits (`{id} {seq}`) and drops (`-{id}`). */
  readonly channel: string;
  /** Who catches up on each open sandbox when another instance commits to it. */
  readonly watchers: Map<string, (seq?: number) => void>;
  secret(): Promise<string>;
}

/** The advisory lock of a sandbox's leader: the instance holding it fires the sandbox's simulated events. */
const leaderKey = (t: Tables, id: string) => `project-runtime-mock sandbox leader ${t.tag} ${id}`;

export { SandboxGone };

export class SandboxAdapter implements ChangeSetAdapter {
  #baseSeq: number;
  #watcher: ((seq?: number) => void) | null = null;

  constructor(
    private readonly db: SandboxDb,
    readonly id: string,
    baseSeq: number,
  ) {
    this.#baseSeq = baseSeq;
  }

  /** Not used: the store starts from what `open` read. */
  async read(): Promise<DataFile | null> {
    return null;
  }

  write(data: DataFile): Promise<void> {
    return this.replaceState(data);
  }

  /** A whole new state (a reset, a restore, an import) is a new base at its seq; the change sets before it go. */
  async replaceState(data: DataFile, rebase?: RebaseWhole): Promise<void> {
    const { t, bases } = this.db;
    let seq = data.seq ?? 0;
    const old = await inTransaction(this.db.pool, async (c) => {
      const row = await this.#lock(c);
      if (row.seq !== seq - 1) {
        if (!rebase) throw new ChangeSetConflict(`sandbox ${this.id} is at change set ${row.seq}, not ${seq - 1}`);
        const at = rebase(await this.#since(c, seq - 1));
        if (at === null) return null;
        if (at !== row.seq + 1) throw new ChangeSetConflict(`the rebased state is at ${at}, not ${row.seq + 1}`);
        seq = at;
      }
      const hash = await bases.put(c, data.state, true);
      await c.query(`UPDATE ${t.sandboxes} SET seq = $2, base_seq = $2, base = $3 WHERE id = $1`, [this.id, seq, hash]);
      await c.query(`DELETE FROM ${t.sandboxChanges} WHERE sandbox = $1`, [this.id]);
      await c.query('SELECT pg_notify($1, $2)', [this.db.channel, `${this.id} ${seq}`]);
      return row.base;
    });
    if (old === null) return;
    this.#baseSeq = seq;
    await withClient(this.db.pool, (c) => bases.collect(c, [old])).catch(() => {});
  }

  /** One group: one statement when no other instance appended meanwhile, else a rebase under the row's lock. */
  async appendChangeSets(group: readonly ChangeSet[], committed: CommittedState, rebase?: Rebase): Promise<void> {
    const { t, pool } = this.db;
    if (committed.seq - this.#baseSeq >= COMPACT_AFTER) await this.#compact(committed).catch(() => {});
    const first = group[0].seq - 1;
    const { rows } = await withClient(pool, (c) =>
      c.query({
        name: `prm_sb_append_${t.tag}`,
        text: `WITH head AS (UPDATE ${t.sandboxes} SET seq = $2::bigint WHERE id = $1 AND seq = $3::bigint RETURNING id),
          logged AS (INSERT INTO ${t.sandboxChanges} (sandbox, seq, body) SELECT $1, $3::bigint + s.n, s.b FROM head, unnest($4::text[]) WITH ORDINALITY AS s(b, n))
          SELECT pg_notify($5, $1 || ' ' || $2::text) FROM head`,
        values: [this.id, group[group.length - 1].seq, first, group.map(encodeSet), this.db.channel],
      }),
    );
    if (rows.length === 1) return;
    await inTransaction(pool, async (c) => {
      const row = await this.#lock(c);
      let sets = group;
      if (row.seq !== first) {
        if (!rebase) throw new ChangeSetConflict(`sandbox ${this.id} is at change set ${row.seq}, not ${first}`);
        sets = rebase(await this.#since(c, committed.seq));
        if (sets.length === 0) return;
        if (sets[0].seq !== row.seq + 1) throw new ChangeSetConflict(`the rebased group starts at ${sets[0].seq}, not ${row.seq + 1}`);
      }
      const last = sets[sets.length - 1].seq;
      await c.query(`INSERT INTO ${t.sandboxChanges} (sandbox, seq, body) SELECT $1, * FROM unnest($2::bigint[], $3::text[])`, [
        this.id,
        sets.map((s) => s.seq),
        sets.map(encodeSet),
      ]);
      await c.query(`UPDATE ${t.sandboxes} SET seq = $2 WHERE id = $1`, [this.id, last]);
      await c.query('SELECT pg_notify($1, $2)', [this.db.channel, `${this.id} ${last}`]);
    });
  }

  changesSince(seq: number): Promise<readonly CaughtUp[]> {
    return withClient(this.db.pool, (c) => this.#since(c, seq));
  }

  /** The change sets after `seq`; when the base has moved past it (a reset, a compaction), the base and what follows it. */
  async #since(c: pg.ClientBase, seq: number): Promise<readonly CaughtUp[]> {
    const { t } = this.db;
    const { rows } = await c.query<{ base: string; base_seq: string; cseq: string | null; body: string | null }>({
      name: `prm_sb_since_${t.tag}`,
      text: `SELECT s.base, s.base_seq, c.seq AS cseq, c.body FROM ${t.sandboxes} s
        LEFT JOIN ${t.sandboxChanges} c ON c.sandbox = s.id AND c.seq > GREATEST($2::bigint, s.base_seq) WHERE s.id = $1 ORDER BY c.seq`,
      values: [this.id, seq],
    });
    if (rows.length === 0) throw new SandboxGone(this.id);
    const baseSeq = Number(rows[0].base_seq);
    this.#baseSeq = Math.max(this.#baseSeq, baseSeq);
    const sets = rows.filter((r) => r.body !== null).map((r) => decodeSet(r.body!));
    if (baseSeq <= seq) return sets;
    const state = await this.db.bases.get(c, rows[0].base);
    return [{ format: DATA_FILE_FORMAT, format_version: DATA_FILE_VERSION, seq: baseSeq, state }, ...sets];
  }

  /** Folds the log into a new base at the committed state (which every instance agrees on at that seq). */
  async #compact(committed: CommittedState): Promise<void> {
    const { t, bases } = this.db;
    const at = committed.seq;
    const state = documentAfter(committed, []).state;
    const old = await inTransaction(this.db.pool, async (c) => {
      const row = await this.#lock(c);
      if (row.baseSeq >= at) {
        this.#baseSeq = row.baseSeq;
        return null;
      }
      const hash = await bases.put(c, state, true);
      await c.query(`UPDATE ${t.sandboxes} SET base_seq = $2, base = $3 WHERE id = $1`, [this.id, at, hash]);
      await c.query(`DELETE FROM ${t.sandboxChanges} WHERE sandbox = $1 AND seq <= $2`, [this.id, at]);
      return row.base;
    });
    this.#baseSeq = at;
    if (old !== null) await withClient(this.db.pool, (c) => bases.collect(c, [old]));
  }

  /** The registry row, locked until the transaction ends (appends to one sandbox are serialized here). */
  async #lock(c: pg.ClientBase): Promise<{ seq: number; baseSeq: number; base: string }> {
    const { rows } = await c.query<{ seq: string; base_seq: string; base: string }>(
      `SELECT seq, base_seq, base FROM ${this.db.t.sandboxes} WHERE id = $1 FOR UPDATE`,
      [this.id],
    );
    if (!rows[0]) throw new SandboxGone(this.id);
    return { seq: Number(rows[0].seq), baseSeq: Number(rows[0].base_seq), base: rows[0].base };
  }

  watch(onChange: (seq?: number) => void): void {
    this.#watcher = onChange;
    this.db.watchers.set(this.id, onChange);
    this.db.session.want(leaderKey(this.db.t, this.id));
  }

  leads(): boolean {
    return this.db.session.holds(leaderKey(this.db.t, this.id));
  }

  secret(): Promise<string> {
    return this.db.secret();
  }

  async readResetState(): Promise<StateData | null> {
    return withClient(this.db.pool, async (c) => {
      const { rows } = await c.query<{ reset: string }>(`SELECT reset FROM ${this.db.t.sandboxes} WHERE id = $1`, [this.id]);
      if (!rows[0]) throw new SandboxGone(this.id);
      return this.db.bases.get(c, rows[0].reset);
    });
  }

  async writeResetState(state: StateData): Promise<void> {
    const { t, bases } = this.db;
    const old = await inTransaction(this.db.pool, async (c) => {
      const { rows } = await c.query<{ reset: string }>(`SELECT reset FROM ${t.sandboxes} WHERE id = $1 FOR UPDATE`, [this.id]);
      if (!rows[0]) throw new SandboxGone(this.id);
      await c.query(`UPDATE ${t.sandboxes} SET reset = $2 WHERE id = $1`, [this.id, await bases.put(c, state, true)]);
      return rows[0].reset;
    });
    await withClient(this.db.pool, (c) => bases.collect(c, [old])).catch(() => {});
  }

  /** This instance lets the sandbox go (its rows stay for the others): it stops listening and gives its lock up. */
  async close(): Promise<void> {
    if (this.db.watchers.get(this.id) === this.#watcher) this.db.watchers.delete(this.id);
    this.db.session.unwant(leaderKey(this.db.t, this.id));
  }
}
