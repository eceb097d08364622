// The catch-up connection: one connection of its own for the looks that reads wait for, each look a bare
// Bind/Execute/Sync of one prepared statement (no pool checkout, query object, row description or timer per look);
// a connection that failed is dropped, and the next look connects again.
import type pg from 'pg';
import { pgDriver } from './driver.js';
import { decodeSet } from './codec.js';
import type { Tables } from './schema.js';
import type { ChangeSet } from '../change-sets.js';

/** A look not answered within this long ends the connection (every look on it fails, as a pooled query's timeout would). */
const STUCK_MS = 30_000;

export type Row = [seq: string, body: string | null];

export class CatchUpConnection {
  #client: Promise<pg.Client> | null = null;
  /** The connections the statement was sent to for preparing (once each; a look that fails drops its connection). */
  readonly #prepared = new WeakSet<pg.Client>();
  /** When each look on its way was sent, oldest first (looks are answered in the order they were sent). */
  readonly #sent: number[] = [];
  #watchdog: NodeJS.Timeout | null = null;
  #closed = false;

  /** The catch-up statement (prepared once per connection): the change sets after $1, one more than are kept. */
  readonly statement: { name: string; text: string };

  constructor(
    private readonly config: pg.ClientConfig,
    t: Tables,
    private readonly keep: number,
  ) {
    this.statement = { name: `prm_since_${t.tag}`, text: `SELECT seq, body FROM ${t.changes} WHERE seq > $1 ORDER BY seq LIMIT ${keep + 1}` };
  }

  /**
   * The change sets the statement's rows hold after `seq`; null when they do not continue `seq` one by one (pruned,
   * more than are kept, or a whole new state among them): then the whole state is to be read.
   */
  found(seq: number, rows: readonly Row[]): ChangeSet[] | null {
    if (rows.length === 0) return [];
    if (Number(rows[0][0]) !== seq + 1 || rows.length > this.keep || rows.some((r) => r[1] === null)) return null;
    return rows.map((r) => decodeSet(r[1]!));
  }

  /** The rows the catch-up statement finds after `seq`, on a look that begins now (rejects when the database cannot answer). */
  async rows(seq: number): Promise<Row[]> {
    if (this.#closed) throw new Error('the catch-up connection is closed');
    const pending = (this.#client ??= this.#connect());
    const client = await pending;
    const prepare = !this.#prepared.has(client);
    this.#prepared.add(client);
    this.#sent.push(Date.now());
    this.#watch();
    try {
      return await new Promise<Row[]>((resolve, reject) => {
        client.query(lookOf(seq, this.statement, prepare, (err, rows) => (err ? reject(err) : resolve(rows))) as unknown as pg.QueryConfig);
      });
    } catch (err) {
      this.#drop(pending); // a failed look may leave the statement unprepared or the connection out of step: never reuse it
      throw err;
    } finally {
      this.#sent.shift();
    }
  }

  async #connect(): Promise<pg.Client> {
    const client = new (pgDriver().Client)({ ...this.config, query_timeout: undefined });
    // A connection the server dropped: its looks fail (pg rejects them) and the next look connects again.
    const gone = () => {
      const current = this.#client;
      current?.then((c) => c === client && this.#drop(current)).catch(() => {});
    };
    client.on('error', gone);
    client.on('end', gone);
    try {
      await client.connect();
    } catch (err) {
      this.#client = null;
      void client.end().catch(() => {});
      throw err;
    }
    return client;
  }

  /** One timer for every look on its way: a look older than STUCK_MS ends the connection (a server that stopped answering). */
  #watch(): void {
    if (this.#watchdog) return;
    this.#watchdog = setInterval(() => {
      if (this.#sent.length === 0) {
        clearInterval(this.#watchdog!);
        this.#watchdog = null;
      } else if (Date.now() - this.#sent[0] > STUCK_MS) this.#drop(this.#client);
    }, STUCK_MS / 4);
    this.#watchdog.unref();
  }

  /** Ends the connection at once: the looks still on it fail (pg rejects them) rather than wait for a server that may never answer. */
  #drop(pending: Promise<pg.Client> | null): void {
    if (!pending || this.#client !== pending) return;
    this.#client = null;
    void pending.then((c) => (c as unknown as { connection: { stream: { destroy(): void } } }).connection.stream.destroy()).catch(() => {});
  }

  async close(): Promise<void> {
    this.#closed = true;
    if (this.#watchdog) clearInterval(this.#watchdog);
    this.#watchdog = null;
    const pending = this.#client;
    this.#client = null;
    if (pending) await pending.then((c) => c.end()).catch(() => {});
  }
}

/** What of pg's connection a look writes to (the protocol messages; corked, so the look leaves in one write). */
interface Wire {
  stream: { cork(): void; uncork(): void };
  parse(q: { name: string; text: string; types: number[] }): void;
  bind(b: { statement: string; values: string[] }): void;
  execute(e: object): void;
  sync(): void;
}

/**
 * One look, as pg's client runs a query object: `submit` when the connection is free, then the server's messages.
 * The rows come as text (seq as the server writes it, body as stored); `done` is called once.
 */
function lookOf(seq: number, statement: { name: string; text: string }, prepare: boolean, done: (err: Error | null, rows: Row[]) => void) {
  const rows: Row[] = [];
  let settled = false;
  const settle = (err: Error | null) => {
    if (!settled) done(err, rows);
    settled = true;
  };
  return {
    submit(c: Wire): void {
      c.stream.cork();
      try {
        if (prepare) c.parse({ ...statement, types: [] });
        c.bind({ statement: statement.name, values: [String(seq)] });
        c.execute({});
        c.sync();
      } finally {
        c.stream.uncork();
      }
    },
    handleDataRow(msg: { fields: (string | null)[] }): void {
      rows.push([msg.fields[0]!, msg.fields[1]]);
    },
    handleRowDescription(): void {},
    handleCommandComplete(): void {},
    handleEmptyQuery(): void {},
    handlePortalSuspended(): void {},
    handleReadyForQuery(): void {
      settle(null);
    },
    handleError(err: Error): void {
      settle(err);
    },
  };
}
