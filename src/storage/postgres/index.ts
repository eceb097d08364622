// PostgreSQL storage: several instances share one state through a totally ordered change table, caught up on before
// each request, with an optimistic append that detects a concurrent writer and rebases on it under the head lock.
import type pg from 'pg';
import { pgDriver } from './driver.js';
import { DATA_FILE_FORMAT, DATA_FILE_VERSION, PRIMARY_KEYS, type CollectionName, type DataFile, type StateData } from '../../schemas/index.js';
import { ChangeSetConflict, type CaughtUp, type ChangeSet, type ChangeSetAdapter, type CommittedState, type Rebase, type RebaseWhole } from '../change-sets.js';
import { RecordChecker, finishState } from '../data-file.js';
import { appendIfAt, appendLocked, setHead } from './append.js';
import { ensureSandboxTables, ensureSchema, tables, type Tables } from './schema.js';
import { Session } from './session.js';
import { CatchUpConnection, type Row } from './catch-up.js';
import { inTransaction, withClient } from './pool.js';
import { Bases } from './bases.js';
import { PgSandboxes } from './sandboxes.js';
import { instancesKey } from './ends.js';
import type { SharedSandboxStorage } from '../change-sets.js';

export { DatabaseSchemaError } from './schema-version.js';

export interface PostgresOptions {
  /** `postgres://user:password@host:port/database` (libpq's URL form; `?host=/socket/dir` for a Unix socket). */
  connectionString: string;
  /** The PostgreSQL schema that holds the tables (default `public`): one database can hold several independent mocks. */
  schema?: string;
  /** Connections in the pool (default 8). */
  poolSize?: number;
  /** Change sets kept for instances that catch up (default 10,000); one further behind reloads the whole state. */
  keepChangeSets?: number;
}

const PAGE = 5_000; // records per query when the whole state is read
const INSERT_BATCH = 2_000; // records per statement when a whole state is written

/** Takes `connectionString` and gives the adapter for `createApp({ storage })`. */
export function postgresStorage(options: PostgresOptions): PostgresAdapter {
  return new PostgresAdapter(options);
}

/** The connection string without its password, for messages. */
export function redactUrl(url: string): string {
  try {
    const u = new URL(url);
    if (u.password) u.password = '***';
    return u.toString();
  } catch {
    return 'the given database';
  }
}

export class PostgresAdapter implements ChangeSetAdapter {
  readonly #pool: pg.Pool;
  readonly #t: Tables;
  readonly #schema: string;
  readonly #keep: number;
  readonly #session: Session;
  readonly #catchUp: CatchUpConnection;
  readonly #name: string;
  readonly #channel: string;
  #ready: Promise<void> | null = null;
  #onChange: ((seq?: number) => void) | null = null;
  #appends = 0;
  #sandboxes: PgSandboxes | null = null;
  #sandboxTables: Promise<void> | null = null;
  #secret: Promise<string> | null = null;

  constructor(options: PostgresOptions) {
    this.#schema = options.schema ?? 'public';
    this.#t = tables(this.#schema);
    this.#keep = options.keepChangeSets ?? 10_000;
    this.#name = redactUrl(options.connectionString);
    this.#channel = `prm_changes_${this.#t.tag}`;
    const config: pg.PoolConfig = {
      connectionString: options.connectionString,
      keepAlive: true,
      connectionTimeoutMillis: 5_000,
      query_timeout: 30_000,
      application_name: 'project-runtime-mock',
    };
    this.#pool = new (pgDriver().Pool)({ ...config, max: options.poolSize ?? 8, idleTimeoutMillis: 10_000, allowExitOnIdle: true });
    // An idle connection the server dropped (a restart): the pool discards it and the next query connects again.
    this.#pool.on('error', () => {});
    this.#catchUp = new CatchUpConnection(config, this.#t, this.#keep);
    this.#session = new Session({
      config,
      lockKey: `project-runtime-mock leader ${this.#schema}`,
      channel: this.#channel,
      onNotify: (payload) => this.#onChange?.(payload === undefined ? undefined : Number(payload)),
      sandboxChannel: `prm_sandboxes_${this.#t.tag}`,
      onSandboxNotify: (payload) => this.#sandboxes?.heard(payload),
      instancesKey: instancesKey(this.#t),
      retryMs: 1_000,
    });
  }

  /** Sandboxes kept in this database: every instance on it serves every one (see docs/sandboxes.md). */
  sharedSandboxes(): SharedSandboxStorage {
    this.#sandboxes ??= new PgSandboxes(
      {
        pool: this.#pool,
        t: this.#t,
        bases: new Bases(this.#t),
        session: this.#session,
        channel: `prm_sandboxes_${this.#t.tag}`,
        watchers: new Map(),
        // Made with the schema and never changed: read once, not at every sandbox's start.
        secret: () => (this.#secret ??= this.secret().catch((err) => ((this.#secret = null), Promise.reject(err)))),
      },
      () =>
        (this.#sandboxTables ??= this.#init().then(() => this.#withClient((c) => ensureSandboxTables(c, this.#schema)))).catch((err) => {
          this.#sandboxTables = null;
          throw err;
        }),
    );
    return this.#sandboxes;
  }

  /** The tables exist and are this layout (created on first use). */
  #init(): Promise<void> {
    this.#ready ??= this.#withClient((c) => ensureSchema(c, this.#schema, this.#name)).catch((err) => {
      this.#ready = null;
      throw err;
    });
    return this.#ready;
  }

  #withClient<T>(fn: (c: pg.PoolClient) => Promise<T>): Promise<T> {
    return withClient(this.#pool, fn);
  }

  #transaction<T>(fn: (c: pg.PoolClient) => Promise<T>, mode = ''): Promise<T> {
    return inTransaction(this.#pool, fn, mode);
  }

  async read(): Promise<DataFile | null> {
    await this.#init();
    return this.#transaction((c) => this.#readState(c), 'ISOLATION LEVEL REPEATABLE READ READ ONLY');
  }

  /** The whole state in one snapshot, records in the store's order, checked as a data file's records are. */
  async #readState(c: pg.ClientBase): Promise<DataFile | null> {
    const head = (await c.query<{ seq: string; clock: unknown; settings: unknown }>(`SELECT seq, clock, settings FROM ${this.#t.head} WHERE id = 1`)).rows[0];
    const seq = Number(head.seq);
    if (seq === 0) return null;
    const state: Record<string, unknown> = { clock: head.clock ?? undefined, settings: head.settings ?? undefined };
    const checker = new RecordChecker();
    let after: [string, string, string] = ['', '-1', '-1'];
    for (;;) {
      const { rows } = await c.query<{ collection: string; ord_seq: string; ord_i: number; record: unknown }>(
        `SELECT collection, ord_seq, ord_i, record FROM ${this.#t.records} WHERE (collection, ord_seq, ord_i) > ($1, $2, $3) ORDER BY collection, ord_seq, ord_i LIMIT ${PAGE}`,
        after,
      );
      for (const r of rows) {
        const list = (state[r.collection] ??= []) as unknown[];
        list.push(checker.record(r.collection, `${r.collection}[${list.length}]`, r.record));
      }
      if (rows.length < PAGE) break;
      const last = rows[rows.length - 1];
      after = [last.collection, last.ord_seq, String(last.ord_i)];
    }
    finishState(`${this.#name} (schema ${this.#t.schema})`, state, checker);
    return { format: DATA_FILE_FORMAT, format_version: DATA_FILE_VERSION, seq, state: state as StateData };
  }

  /** A whole new state (the first save, a reset or import too large for a change set), at `data.seq`. */
  write(data: DataFile): Promise<void> {
    return this.replaceState(data);
  }

  /** A whole new state at the head: with `rebase`, whatever others appended since `data.seq - 1` (see ChangeSetCapability). */
  async replaceState(data: DataFile, rebase?: RebaseWhole): Promise<void> {
    await this.#init();
    let seq = data.seq ?? 0;
    await this.#transaction(async (c) => {
      const current = await this.#lockHead(c);
      if (current !== seq - 1) {
        if (!rebase) throw new ChangeSetConflict(`the database is at change set ${current}, not ${seq - 1}`);
        const at = rebase(await this.#since(c, seq - 1));
        if (at === null) return;
        if (at !== current + 1) throw new ChangeSetConflict(`the rebased state is at ${at}, not ${current + 1}`);
        seq = at;
      }
      await c.query(`DELETE FROM ${this.#t.records}`);
      const state = data.state as Record<string, unknown>;
      for (const collection of Object.keys(PRIMARY_KEYS) as CollectionName[]) {
        const list = (state[collection] ?? []) as unknown[];
        const key = PRIMARY_KEYS[collection] as (r: unknown) => string;
        for (let start = 0; start < list.length; start += INSERT_BATCH) {
          const part = list.slice(start, start + INSERT_BATCH);
          await c.query(
            `INSERT INTO ${this.#t.records} (collection, key, ord_seq, ord_i, record) SELECT $1, k, $2, i, r::json FROM unnest($3::text[], $4::int[], $5::text[]) AS t(k, i, r)`,
            [collection, seq, part.map(key), part.map((_, i) => start + i), part.map((r) => JSON.stringify(r))],
          );
        }
      }
      // Older change sets describe a state that is gone: an instance behind this one reloads the whole state.
      await c.query(`DELETE FROM ${this.#t.changes} WHERE seq < $1`, [seq]);
      await c.query(`INSERT INTO ${this.#t.changes} (seq, body) VALUES ($1, NULL)`, [seq]);
      await setHead(c, this.#t, this.#channel, seq, JSON.stringify(data.state.clock), JSON.stringify(data.state.settings));
    });
  }

  /**
   * One group: a single statement when the head is still where this instance last saw it (a compare-and-set on the head
   * row). Otherwise one transaction that locks the head row, reads what this instance missed and rebases the group on
   * it while still holding the lock (so the second try cannot lose again), then appends.
   */
  async appendChangeSets(group: readonly ChangeSet[], committed: CommittedState, rebase?: Rebase): Promise<void> {
    await this.#init();
    const appended = await this.#withClient((c) => appendIfAt(c, this.#t, this.#channel, group, group[0].seq - 1));
    if (appended === true) return this.#prune(group[group.length - 1].seq);
    await this.#transaction(async (c) => {
      const current = await this.#lockHead(c);
      let sets = group;
      if (current !== group[0].seq - 1) {
        if (!rebase) throw new ChangeSetConflict(`the database is at change set ${current}, not ${group[0].seq - 1}`);
        sets = rebase(await this.#since(c, committed.seq));
        if (sets.length === 0) return;
        if (sets[0].seq !== current + 1) throw new ChangeSetConflict(`the rebased group starts at ${sets[0].seq}, not ${current + 1}`);
      }
      await appendLocked(c, this.#t, this.#channel, sets);
    });
    await this.#prune(committed.seq);
  }

  /** Now and then, forgets change sets older than the last `keepChangeSets` (an instance that far behind reloads). */
  async #prune(seq: number): Promise<void> {
    if (++this.#appends % 256 === 0) await this.#pool.query(`DELETE FROM ${this.#t.changes} WHERE seq <= $1`, [seq - this.#keep]).catch(() => {});
  }

  /**
   * What others committed after `seq`: the change sets, or the whole state when the table no longer reaches back that
   * far. The look goes through the catch-up connection; a whole state is read on a pooled connection after it.
   */
  async changesSince(seq: number): Promise<readonly CaughtUp[]> {
    return this.#catchUp.found(seq, await this.#catchUp.rows(seq)) ?? this.#withClient((c) => this.#since(c, seq));
  }

  async #since(c: pg.ClientBase, seq: number): Promise<readonly CaughtUp[]> {
    const { rows } = await c.query<Row>({ ...this.#catchUp.statement, values: [seq], rowMode: 'array' });
    const found = this.#catchUp.found(seq, rows);
    if (found) return found;
    const whole = await this.#readState(c);
    return whole ? [whole] : [];
  }

  /** The head row, locked until the transaction ends: appends are serialized here, and seq is their order. */
  async #lockHead(c: pg.ClientBase): Promise<number> {
    const { rows } = await c.query<{ seq: string }>(`SELECT seq FROM ${this.#t.head} WHERE id = 1 FOR UPDATE`);
    return Number(rows[0].seq);
  }

  /** Shared: calls `onChange` when another instance may have committed (the store then catches up in the background). */
  watch(onChange: (seq?: number) => void): void {
    this.#onChange = onChange;
    this.#session.start();
  }

  leads(): boolean {
    return this.#session.leader;
  }

  async secret(): Promise<string> {
    await this.#init();
    const { rows } = await this.#pool.query<{ secret: string }>(`SELECT secret FROM ${this.#t.meta} WHERE id = 1`);
    return rows[0].secret;
  }

  async readResetState(): Promise<StateData | null> {
    await this.#init();
    const { rows } = await this.#pool.query<{ state: StateData }>(`SELECT state FROM ${this.#t.reset} WHERE id = 1`);
    return rows[0]?.state ?? null;
  }

  async writeResetState(state: StateData): Promise<void> {
    await this.#init();
    await this.#pool.query(`INSERT INTO ${this.#t.reset} (id, state) VALUES (1, $1::json) ON CONFLICT (id) DO UPDATE SET state = EXCLUDED.state`, [
      JSON.stringify(state),
    ]);
  }

  /** Ends the connections (after every write is stored). */
  async close(): Promise<void> {
    // Idle connections do not hold the process open (allowExitOnIdle), so closing them must: else it exits half-way.
    const hold = setInterval(() => {}, 1_000);
    try {
      await this.#session.close();
      await this.#catchUp.close();
      await this.#pool.end();
    } finally {
      clearInterval(hold);
    }
  }
}
