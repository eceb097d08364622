// One long-lived connection per instance: it holds the leader's advisory lock (only the leader fires simulated
// events) and LISTENs for other instances' commits; it reconnects after the database comes back.
import type pg from 'pg';
import { pgDriver } from './driver.js';

export interface SessionOptions {
  config: pg.ClientConfig;
  /** The advisory lock key of this schema's leader. */
  lockKey: string;
  /** The NOTIFY channel commits are announced on. */
  channel: string;
  onNotify: (payload?: string) => void;
  /** How long to wait before trying again (to connect, or to take the lock from a leader that may have died). */
  retryMs: number;
}

export class Session {
  #client: pg.Client | null = null;
  #leader = false;
  #closed = false;
  #timer: NodeJS.Timeout | null = null;

  constructor(private readonly options: SessionOptions) {}

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
      client.end().catch(() => {});
      this.#later(() => void this.#connect());
    };
    client.on('error', lost);
    client.on('end', lost);
    client.on('notification', (n) => this.options.onNotify(n.payload));
    try {
      await client.connect();
      (client as unknown as { connection?: { stream?: { unref?: () => void } } }).connection?.stream?.unref?.();
      await client.query(`LISTEN ${this.options.channel}`);
      // Changes may have been committed while no one listened.
      this.options.onNotify();
      await this.#campaign(client);
    } catch {
      lost();
    }
  }

  /** Tries the lock now and again every retryMs until it is held (a leader's lock is freed when its session ends). */
  async #campaign(client: pg.Client): Promise<void> {
    if (this.#client !== client || this.#leader) return;
    try {
      const { rows } = await client.query<{ ok: boolean }>('SELECT pg_try_advisory_lock(hashtext($1)) AS ok', [this.options.lockKey]);
      if (this.#client !== client) return;
      this.#leader = rows[0].ok;
    } catch {
      return; // the connection's error handler reconnects
    }
    if (!this.#leader) this.#later(() => void this.#campaign(client));
  }
}
