// One long-lived connection per instance: it holds the leader's advisory locks (only a leader fires simulated
// events: one for the default mock, one per shared sandbox) and LISTENs for other instances' commits; it reconnects
// after the database comes back.
import type pg from 'pg';
import { pgDriver } from './driver.js';

export interface SessionOptions {
  config: pg.ClientConfig;
  /** The advisory lock key of this schema's leader. */
  lockKey: string;
  /** The NOTIFY channel commits are announced on. */
  channel: string;
  onNotify: (payload?: string) => void;
  /** A second channel (shared sandboxes' commits and drops), and what hears it (no payload: after a reconnect). */
  sandboxChannel?: string;
  onSandboxNotify?: (payload?: string) => void;
  /**
   * The shared advisory lock every instance's session holds while it listens: the sessions holding it are the live
   * instances, each known by its session's backend pid (gone with the session, so a stopped instance is not counted).
   */
  instancesKey?: string;
  /** How long to wait before trying again (to connect, or to take the lock from a leader that may have died). */
  retryMs: number;
}

export class Session {
  #client: pg.Client | null = null;
  #leader = false;
  #pid: number | null = null;
  #closed = false;
  #timer: NodeJS.Timeout | null = null;
  /** Further advisory locks this instance campaigns for (a shared sandbox's leader), and whether each is held. */
  readonly #wanted = new Map<string, boolean>();
  #campaigning = false;
  #again = false;
  /** Queries on the session's one connection, one after another (pg wants no query issued while one runs). */
  #chain: Promise<unknown> = Promise.resolve();

  constructor(private readonly options: SessionOptions) {}

  /** Whether this instance holds the lock `key` asked for with `want` right now. */
  holds(key: string): boolean {
    return this.#wanted.get(key) === true;
  }

  /** Campaigns for the advisory lock `key` as for the leader's (a sandbox this instance has open). */
  want(key: string): void {
    if (this.#wanted.has(key)) return;
    this.#wanted.set(key, false);
    // Campaign now, not at the next retry: a new sandbox's events fire on time.
    const client = this.#client;
    if (!client) return;
    if (this.#campaigning) this.#again = true;
    else {
      if (this.#timer) clearTimeout(this.#timer);
      this.#timer = null;
      void this.#campaign(client);
    }
  }

  /** Gives the lock `key` up (the sandbox was closed here): another instance that has it open takes it. */
  unwant(key: string): void {
    const held = this.#wanted.get(key);
    this.#wanted.delete(key);
    const client = this.#client;
    if (held && client) this.#query(client, 'SELECT pg_advisory_unlock(hashtext($1))', [key]).catch(() => {});
  }

  /** This instance among the live ones: its session's backend pid while it listens and holds the instances' lock, else null. */
  get pid(): number | null {
    return this.#pid;
  }

  /** Whether this instance holds the leader's lock right now (false while the database is unreachable). */
  get leader(): boolean {
    return this.#leader;
  }

  start(): void {
    if (!this.#closed && !this.#client && !this.#timer) void this.#connect();
  }

  async close(): Promise<void> {
    this.#closed = true;
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = null;
    this.#leader = false;
    this.#pid = null;
    const client = this.#client;
    this.#client = null;
    await client?.end().catch(() => {});
  }

  #later(fn: () => void): void {
    if (this.#closed) return;
    this.#timer = setTimeout(() => {
      this.#timer = null;
      fn();
    }, this.options.retryMs);
    this.#timer.unref();
  }

  async #connect(): Promise<void> {
    const client = new (pgDriver().Client)(this.options.config);
    this.#client = client;
    // A lost connection (the database stopped) ends leadership: the lock went with the session.
    const lost = () => {
      if (this.#client !== client) return;
      this.#client = null;
      this.#leader = false;
      this.#pid = null;
      for (const key of this.#wanted.keys()) this.#wanted.set(key, false);
      client.end().catch(() => {});
      this.#later(() => void this.#connect());
    };
    client.on('error', lost);
    client.on('end', lost);
    client.on('notification', (n) =>
      n.channel === this.options.sandboxChannel ? this.options.onSandboxNotify?.(n.payload) : this.options.onNotify(n.payload),
    );
    try {
      await client.connect();
      (client as unknown as { connection?: { stream?: { unref?: () => void } } }).connection?.stream?.unref?.();
      await this.#query(client, `LISTEN ${this.options.channel}`);
      if (this.options.sandboxChannel) await this.#query(client, `LISTEN ${this.options.sandboxChannel}`);
      if (this.options.instancesKey) {
        const { rows } = await this.#query<{ pid: number }>(client, 'SELECT pg_advisory_lock_shared(hashtext($1), 0), pg_backend_pid() AS pid', [
          this.options.instancesKey,
        ]);
        if (this.#client === client) this.#pid = rows[0].pid;
      }
      // Changes may have been committed while no one listened.
      this.options.onNotify();
      this.options.onSandboxNotify?.();
      await this.#campaign(client);
    } catch {
      lost();
    }
  }

  /** Tries the locks not held now, and again every retryMs until all are held (a leader's lock is freed when its session ends). */
  async #campaign(client: pg.Client): Promise<void> {
    if (this.#client !== client) return;
    this.#campaigning = true;
    try {
      if (!this.#leader) {
        const { rows } = await this.#query<{ ok: boolean }>(client, 'SELECT pg_try_advisory_lock(hashtext($1)) AS ok', [this.options.lockKey]);
        if (this.#client !== client) return;
        this.#leader = rows[0].ok;
      }
      for (const [key, held] of [...this.#wanted]) {
        if (held) continue;
        const { rows } = await this.#query<{ ok: boolean }>(client, 'SELECT pg_try_advisory_lock(hashtext($1)) AS ok', [key]);
        if (this.#client !== client) return;
        // Given up meanwhile: let it go again at once.
        if (!this.#wanted.has(key)) {
          if (rows[0].ok) await this.#query(client, 'SELECT pg_advisory_unlock(hashtext($1))', [key]);
        } else this.#wanted.set(key, rows[0].ok);
      }
    } catch {
      return; // the connection's error handler reconnects
    } finally {
      this.#campaigning = false;
    }
    if (this.#again) {
      this.#again = false;
      return this.#campaign(client);
    }
    if (!this.#leader || [...this.#wanted.values()].includes(false)) this.#later(() => void this.#campaign(client));
  }

  #query<R extends pg.QueryResultRow = pg.QueryResultRow>(client: pg.Client, text: string, values?: unknown[]): Promise<pg.QueryResult<R>> {
    const run = this.#chain.then(() => client.query<R>(text, values));
    this.#chain = run.catch(() => {});
    return run;
  }
}
