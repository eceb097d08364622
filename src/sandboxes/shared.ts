// Sandboxes on shared storage (PostgreSQL): the registry and every sandbox's state live in the database, so any instance
// serves any sandbox. An instance opens a sandbox it does not hold when a request names it, and lets it go when idle.
import { ApiError, sandboxNotFound } from '../errors.js';
import { keysetPage } from '../domain/index.js';
import { Store } from '../storage/index.js';
import { storageUnavailable } from '../storage/index.js';
import { SandboxGone } from '../storage/index.js';
import type { SandboxRow, SharedSandboxStorage } from '../storage/index.js';
import type { PrepareCreate, Sandboxes, SandboxesOptions, SandboxMock } from './kinds.js';
import { sandboxInfo } from './registry.js';
import { handOver, within } from './request-router.js';
import { sandboxIds } from './ids.js';
import { SandboxLife } from './life.js';

/** A sandbox this instance has open: its mock, its life here, and its last request here (reported to the storage now and then). */
interface Held {
  row: SandboxRow;
  core: SandboxMock;
  life: SandboxLife;
  lastMs: number;
  reportedMs: number;
  /** While requests are in flight here: reports them to the storage, so no instance sweeps the sandbox under them. */
  keep?: NodeJS.Timeout;
}

/** How often an instance reports a sandbox's last request: a tenth of its time to live, at most every 5 s. */
const reportEvery = (ttlMs: number) => Math.min(ttlMs / 10, 5_000);

export function sharedSandboxes(options: SandboxesOptions, storage: SharedSandboxStorage, prepare: PrepareCreate): Sandboxes {
  const held = new Map<string, Held>();
  const opening = new Map<string, Promise<Held>>();
  const ids = sandboxIds(options.seed);
  const now = options.now ?? Date.now;

  const going = new Map<string, Promise<void>>();
  /**
   * This instance lets its copy go (deleted or expired anywhere, idle here, closing): its requests in flight are answered
   * first, and a copy still opening is let go once open. Every call while it goes shares the one wait, so whoever
   * acknowledges the end to a deleting instance does so only after those answers.
   */
  const letGo = (id: string): Promise<void> => {
    let p = going.get(id);
    if (!p) {
      p = (async () => {
        await opening.get(id)?.catch(() => {});
        const h = held.get(id);
        if (!h) return;
        held.delete(id);
        await h.life.end();
        clearInterval(h.keep);
        await h.core.close().catch(() => {});
      })().finally(() => going.delete(id));
      going.set(id, p);
    }
    return p;
  };
  storage.onDrop(letGo);

  /** Opens a sandbox another instance created (or this one let go): its store catches up before it serves. */
  const open = (row: SandboxRow): Promise<Held> => {
    const known = held.get(row.id);
    if (known) return Promise.resolve(known);
    let p = opening.get(row.id);
    if (!p) {
      p = (async () => {
        const o = await storage.open(row.id);
        const mock = await options.build(o.state, {
          seed: row.seed ?? undefined,
          open: async (hooks) => {
            const store = new Store(o.adapter, o.state, o.seq, { ...hooks, sharedBase: true });
            await store.sync();
            return { store, fresh: false };
          },
        });
        const h: Held = { row, core: mock, life: new SandboxLife(), lastMs: row.lastMs, reportedMs: row.lastMs };
        held.set(row.id, h);
        return h;
      })().finally(() => opening.delete(row.id));
      opening.set(row.id, p);
    }
    return p;
  };

  const touch = (h: Held, at: number) => {
    h.lastMs = Math.max(h.lastMs, at);
    if (at - h.reportedMs < reportEvery(h.row.ttlMs)) return;
    h.reportedMs = at;
    storage.touch(h.row.id, at).catch(() => {});
  };

  /** A request in flight keeps the sandbox alive for every instance: its last request is reported as now until none is. */
  const keep = (h: Held) => {
    if (h.keep) return;
    h.keep = setInterval(
      () => {
        if (h.life.inFlight > 0) return touch(h, now());
        clearInterval(h.keep);
        h.keep = undefined;
      },
      Math.max(1, reportEvery(h.row.ttlMs)),
    );
    h.keep.unref();
  };

  const lastOf = (row: SandboxRow) => Math.max(row.lastMs, held.get(row.id)?.lastMs ?? 0);
  const info = (row: SandboxRow, origin: string) => sandboxInfo({ ...row, lastMs: lastOf(row) }, origin);

  /** The live sandbox, or 404; from the storage, so a sandbox created through any instance is found. */
  const find = async (id: string) => {
    const row = await storage.find(id, now()).catch((err) => Promise.reject(storageUnavailable(err)));
    if (!row) throw sandboxNotFound(id);
    return row;
  };

  const sweep = async () => {
    const at = now();
    // Last requests served here first, so no instance sweeps a sandbox this one kept alive.
    await Promise.all([...held.values()].filter((h) => h.lastMs > h.reportedMs).map((h) => ((h.reportedMs = h.lastMs), storage.touch(h.row.id, h.lastMs))));
    for (const id of await storage.sweep(at)) await letGo(id);
    // Idle here for its time to live: its memory goes (it may live on through others, and opens again on demand).
    for (const h of [...held.values()]) if (h.life.inFlight === 0 && at - h.lastMs >= h.row.ttlMs) await letGo(h.row.id);
  };
  const timer = setInterval(() => void sweep().catch(() => {}), Math.min(60_000, Math.max(1_000, Math.floor(options.ttlMs / 4))));
  timer.unref();

  return {
    async create(input, origin) {
      const { body, state } = await prepare(input);
      const created = await storage
        .create({
          ids,
          name: body.name ?? null,
          seed: body.seed === undefined ? null : String(body.seed),
          nowMs: now(),
          ttlMs: body.ttl_ms ?? options.ttlMs,
          max: options.max,
          state,
        })
        .catch((err) => Promise.reject(storageUnavailable(err)));
      if ('full' in created) {
        throw new ApiError('sandbox_limit', {
          message: `At most ${options.max} sandboxes live at once; delete one, or wait until one expires`,
          retry_after: Math.max(1, Math.ceil(created.full / 1000)),
        });
      }
      let h: Held;
      try {
        const o = await storage.open(created.id, state);
        const mock = await options.build(state, {
          seed: body.seed,
          open: async (hooks) => ({ store: new Store(o.adapter, o.state, o.seq, { ...hooks, sharedBase: true }), fresh: true }),
        });
        h = { row: created, core: mock, life: new SandboxLife(), lastMs: created.lastMs, reportedMs: created.lastMs };
        held.set(created.id, h);
        if (body.simulation) await within('simulation', () => mock.control.setSimulation(body.simulation!));
      } catch (err) {
        // A refused create creates nothing: its row goes, on every instance.
        await storage.delete(created.id).catch(() => {});
        await letGo(created.id);
        throw err;
      }
      return info(h.row, origin);
    },
    async list(query, origin) {
      const rows = await storage.list(now()).catch((err) => Promise.reject(storageUnavailable(err)));
      const page = keysetPage(rows, (r) => [r.ord], 1, query.limit ?? 50, query.cursor, { list: 'sandboxes' });
      return { items: page.items.map((r) => info(r, origin)), next_cursor: page.next_cursor };
    },
    get: async (id, origin) => info(await find(id), origin),
    async delete(id) {
      const gone = await storage.delete(id).catch((err) => Promise.reject(storageUnavailable(err)));
      await letGo(id);
      if (!gone) throw sandboxNotFound(id);
    },
    control(id) {
      // In process: a sandbox this instance has open (created here, or served here since).
      const h = held.get(id);
      if (!h) throw sandboxNotFound(id);
      return h.core.control;
    },
    async close() {
      clearInterval(timer);
      await Promise.all([...opening.values()].map((p) => p.catch(() => {})));
      await Promise.all([...held.keys()].map(letGo));
    },
    select: (ctx, next) =>
      handOver(
        ctx,
        next,
        async (id) => {
          const at = now();
          let h = held.get(id);
          // Idle here past its time to live: the storage says whether another instance kept it alive.
          if (!h || (h.life.inFlight === 0 && at - h.lastMs >= h.row.ttlMs)) {
            try {
              h = await open(await find(id));
              // Let go here (idle) while it was looked up: opened again, as any instance would.
              if (h.life.ended) h = await open(await find(id));
            } catch (err) {
              if ((err instanceof ApiError && err.reason_code === 'sandbox_not_found') || err instanceof SandboxGone) await letGo(id);
              throw err;
            }
          }
          touch(h, at);
          keep(h);
          return h;
        },
        (h) => {
          touch(h, now());
          h.life.leave();
        },
      ),
  };
}
