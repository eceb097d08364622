// The server's sandboxes as its control surface and its request path see them: create from fixtures, a snapshot or the
// start state; list, get, delete; and the middleware that hands a sandbox's requests to its own mock.
import { COLLECTION_NAMES, type StateData } from '../schemas/index.js';
import { Store, type Snapshot } from '../storage/index.js';
import { MemoryAdapter } from '../storage/index.js';
import { invalid, sandboxNotFound } from '../errors.js';
import { parse as parseInput } from '../validation.js';
import { validateFixture } from '../control/index.js';
import { CreateSandboxSchema, type CreateSandboxInput } from '../schemas/index.js';
import { SandboxRegistry } from './registry.js';
import { LiveAdapter } from './life.js';
import { sandboxIds } from './ids.js';
import { sharedSandboxes } from './shared.js';
import { handOver, within } from './request-router.js';
import type { SandboxEntry } from './registry.js';
import type { SandboxMock, SandboxesOptions, SandboxOpen, Sandboxes } from './kinds.js';

/** Sandboxes go this long (real time) after their last request unless created with another `ttl_ms`. */
export const SANDBOX_TTL_MS = 60 * 60 * 1000;
export const MAX_SANDBOXES = 1000;

export type { SandboxesOptions, Sandboxes } from './kinds.js';

/** Each snapshot's state document, made once: the sandboxes started from one snapshot then share its record maps too. */
const snapshotStates = new WeakMap<Snapshot, StateData>();

/** A snapshot's maps as a state document (arrays of the same record objects). */
function stateOf(s: Snapshot): StateData {
  let state = snapshotStates.get(s);
  if (!state) {
    const data: Record<string, unknown> = { clock: s.clock, settings: s.settings };
    for (const c of COLLECTION_NAMES) data[c] = [...(s.maps[c] as Map<string, unknown>).values()];
    snapshotStates.set(s, (state = data as StateData));
  }
  return state;
}

/** The validated create body and the state it starts from (422, or 404 for an unknown snapshot). */
type PrepareCreate = (input: CreateSandboxInput) => Promise<{ body: CreateSandboxInput; state: StateData }>;

export function createSandboxes(options: SandboxesOptions): Sandboxes {
  const prepare: PrepareCreate = async (input) => {
    const body = parseInput(CreateSandboxSchema, input, 'body');
    if (body.fixtures !== undefined && body.snapshot !== undefined) throw invalid(['body'], 'Give fixtures or snapshot, not both', 'value_error', input);
    const state =
      body.fixtures !== undefined
        ? await within('fixtures', () => validateFixture(body.fixtures))
        : body.snapshot !== undefined
          ? stateOf(options.snapshot(body.snapshot))
          : options.base();
    // The sandbox starts at `clock.now` (frozen there), as a fixture's `now` would: nothing is simulated up to it.
    return { body, state: body.clock ? { ...state, clock: { frozen_at: new Date(body.clock.now).toISOString(), offset_ms: 0 } } : state };
  };
  if (options.shared) return sharedSandboxes(options, options.shared, prepare);
  // Real time unless a clock is given: the monotonic clock's, so a request's arrival reading is its touch's time.
  const arrival = options.now ? () => undefined : (arrived: number | undefined) => (arrived === undefined ? undefined : performance.timeOrigin + arrived);
  const registry = new SandboxRegistry<SandboxMock>({
    now: options.now ?? (() => performance.timeOrigin + performance.now()),
    ttlMs: options.ttlMs,
    max: options.max,
    ids: sandboxIds(options.seed),
    expired: options.expired,
  });

  return {
    async create(input, origin) {
      const { body, state } = await prepare(input);
      const entry = await registry.create(body, async (id, life) => {
        // Its store in memory, on the records of the state it starts from (shared until written), behind its liveness.
        const open: SandboxOpen = async (hooks) => ({
          store: new Store(new LiveAdapter(new MemoryAdapter(), life, id), state, 0, { ...hooks, sharedBase: true }),
          fresh: true,
        });
        const mock = await options.build(state, { seed: body.seed, open });
        try {
          if (body.simulation) await within('simulation', () => mock.control.setSimulation(body.simulation!));
        } catch (err) {
          await mock.close();
          throw err;
        }
        return mock;
      });
      return registry.info(entry, origin);
    },
    list(query, origin) {
      const page = registry.list(query.limit ?? 50, query.cursor);
      return { items: page.items.map((e) => registry.info(e, origin)), next_cursor: page.next_cursor };
    },
    get: (id, origin) => registry.info(registry.get(id), origin),
    delete: (id) => registry.delete(id),
    control: (id) => registry.get(id).core.control,
    close: () => registry.close(),
    local: {
      touch: (id, arrived) => registry.touch(id, arrival(arrived)),
      touchAgain: (s, arrived) => registry.touchEntry(s as SandboxEntry<SandboxMock>, arrival(arrived)),
      onEnd: (listener) => registry.onEnd(listener),
      answered: (s, sameTurn) => registry.answered(s as SandboxEntry<SandboxMock>, sameTurn),
    },
    select: (ctx, next) =>
      handOver(
        ctx,
        next,
        (id) => {
          const entry = registry.touch(id);
          if (!entry) throw sandboxNotFound(id);
          return entry;
        },
        (entry) => registry.answered(entry),
      ),
  };
}
