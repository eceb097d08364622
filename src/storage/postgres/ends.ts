// A shared sandbox's end heard by every instance: each live instance acknowledges a drop once its own requests to that
// sandbox are answered, and the instance that deleted it waits for those acknowledgements (bounded) before answering.
import type pg from 'pg';
import type { Session } from './session.js';
import type { Tables } from './schema.js';

/** How long a delete waits for a live instance that does not acknowledge (stuck, or cut off with its session alive). */
const ACK_WAIT_MS = 5_000;
/** How often the waiting delete looks again at which instances are live (one that stopped is no longer waited for). */
const LOOK_EVERY_MS = 200;

/** The shared advisory lock whose holders are the live instances of this schema (one per session, by backend pid). */
export const instancesKey = (t: Tables) => `project-runtime-mock instances ${t.tag}`;

/** Acknowledgements on the sandbox channel: `+{id} {pid}`, sent by instance `pid` once it let sandbox `id` go. */
export class Ends {
  readonly #waiting = new Map<string, { acked: Set<number>; wake: () => void }>();

  constructor(
    private readonly pool: pg.Pool,
    private readonly t: Tables,
    private readonly session: Session,
    private readonly channel: string,
  ) {}

  /** A drop was heard and `letGo` answered this instance's requests to it: say so to whoever deletes it. */
  async heardDrop(id: string, letGo: Promise<unknown>): Promise<void> {
    await letGo.catch(() => {});
    const pid = this.session.pid;
    if (pid !== null) await this.pool.query('SELECT pg_notify($1, $2)', [this.channel, `+${id} ${pid}`]).catch(() => {});
  }

  /** An acknowledgement heard on the channel (`{id} {pid}`, the `+` taken off). */
  heardAck(payload: string): void {
    const [id, pid] = payload.split(' ');
    const w = this.#waiting.get(id);
    if (!w) return;
    w.acked.add(Number(pid));
    w.wake();
  }

  /**
   * Deletes through `remove` (true when it removed the sandbox), then waits until every other live instance has
   * acknowledged the drop, so each one's requests to the sandbox are answered before the delete is; at most ACK_WAIT_MS
   * for an instance that stays live and silent. Acknowledgements are collected from before the delete commits.
   */
  async delete(id: string, remove: () => Promise<boolean>): Promise<boolean> {
    const w = { acked: new Set<number>(), wake: () => {} };
    this.#waiting.set(id, w);
    try {
      if (!(await remove())) return false;
      const until = Date.now() + ACK_WAIT_MS;
      for (;;) {
        const live = await this.#live().catch(() => [] as number[]);
        const missing = live.filter((pid) => pid !== this.session.pid && !w.acked.has(pid));
        const left = until - Date.now();
        if (missing.length === 0 || left <= 0) return true;
        await new Promise<void>((resolve) => {
          if (missing.every((pid) => w.acked.has(pid))) return resolve();
          const timer = setTimeout(resolve, Math.min(LOOK_EVERY_MS, left));
          w.wake = () => (clearTimeout(timer), resolve());
        });
      }
    } finally {
      this.#waiting.delete(id);
    }
  }

  /** The backend pids of the live instances' sessions (those holding the instances' lock in this database). */
  async #live(): Promise<number[]> {
    const { rows } = await this.pool.query<{ pid: number }>(
      `SELECT pid FROM pg_locks WHERE locktype = 'advisory' AND classid = hashtext($1)::oid AND objid = 0 AND objsubid = 2 AND granted
         AND database = (SELECT oid FROM pg_database WHERE datname = current_database())`,
      [instancesKey(this.t)],
    );
    return rows.map((r) => r.pid);
  }
}
