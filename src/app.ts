// createApp: assembles storage, clock, ids and routes into one Koa app; no listen, no env, no globals.
import type Koa from 'koa';
import type { ErrorReporter } from './errors.js';
import { Store, MemoryAdapter, jsonFile, type StorageAdapter } from './storage/index.js';
import type { TimeSource } from './domain/clock.js';
import type { IdGenerator, TokenGenerator } from './domain/ids.js';
import { bundleSeed } from './reproduce/index.js';
import { EMPTY_FIXTURE, stateFromFixture } from './fixtures.js';
import { bodyReader } from './routes/endpoint.js';
import type { MockControl } from './control/api.js';
import { JOURNAL_LIMITS, type JournalLimits } from './control/journal.js';
import { JournalBudget } from './control/journal-budget.js';
import { NamedSnapshots } from './control/snapshots.js';
import { createSandboxes, MAX_SANDBOXES, SANDBOX_TTL_MS } from './sandboxes/index.js';
import type { Deps } from './deps.js';
import { inProcess, type InProcess } from './inprocess/index.js';
import type { SimulationProgress, StartSettings } from './simulation/index.js';
import type { SimulationMode } from './schemas/simulation.js';
import { assembleMock, type Mock, type ServerParts } from './mock.js';
import { checkOptionNames, checkStorage } from './options-check.js';
import { Fingerprints } from './judge/index.js';
import { serverApp } from './server.js';
import { shadowServer, type ShadowOptions } from './shadow/index.js';
import { ServerMetrics } from './metrics/index.js';
import { V3_DECLARATIONS } from './operations/index.js';

export interface CreateAppOptions {
  /**
   * Where state lives: an adapter (lowdb's Adapter interface), 'memory', `jsonFile(path)` (a JSON file this process holds
   * the lock of, as the CLI does), `postgresStorage({ connectionString })` (several instances share one PostgreSQL
   * database), or by default `jsonFile('.data/db.json')`.
   */
  storage?: StorageAdapter | 'memory';
  /** A fixture document (object); the default is an empty state. Use `demoFixture()` for the bundled demo. */
  fixtures?: unknown;
  /** Reseed from the fixtures even when the storage already holds state. */
  reset?: boolean;
  /** Base time source in ms (default Date.now); the mock clock freezes or offsets it. */
  clock?: TimeSource;
  /** Id generator (default crypto.randomUUID). */
  ids?: IdGenerator;
  /** Opaque token generator (default nanoid). */
  tokens?: TokenGenerator;
  /** Seed for deterministic ids and tokens (overrides `ids` and `tokens` defaults). It never opens a sealed value. */
  seed?: string | number;
  /**
   * The key that seals secrets in exported state, bundles and exported tests (a long random string; the CLI's
   * --seal-key or PRM_SEAL_KEY): mocks given the same key write identical bytes and open each other's files. Without
   * one the key is random: what this mock seals opens only here (or on instances sharing its PostgreSQL storage).
   */
  sealKey?: string;
  /**
   * A repro bundle (GET /_mock/bundle's document): the mock starts as the one that wrote it was, journal and faults
   * included; its seed seeds this mock unless `seed` is given. A bad bundle rejects with its 422 items.
   */
  bundle?: unknown;
  /** Admin key for X-Admin-Key; overrides the fixture's settings.admin_key. */
  adminKey?: string;
  /** Broker webhook HMAC secret; overrides the fixture's settings.broker_secret. */
  brokerSecret?: string;
  /** 'off' accepts every request as an owner. */
  auth?: 'on' | 'off';
  /** Serve the /_mock control surface (default true). */
  control?: boolean;
  /**
   * Host names or addresses /_mock answers to besides the loopback ones (`localhost`, `*.localhost`, 127.0.0.0/8, ::1);
   * any other Host is 421 `host_not_allowed` (DNS rebinding). `'*'` accepts every Host. The CLI adds the bound host.
   */
  allowedHosts?: string[];
  /** When set, every /_mock request needs header `X-Mock-Control-Token: <controlToken>` (else 401 `control_token_invalid`). */
  controlToken?: string;
  /** Request body limit in bytes (default 1 MiB). */
  bodyLimit?: number;
  /** How much the request journal keeps: newest `entries` (1000), `bytes` in all (8 MiB), each body cut to `bodyBytes` (16 KiB). */
  journal?: JournalLimits;
  /** Sandboxes: isolated mocks this server serves besides its default one (see docs/sandboxes.md). */
  sandboxes?: {
    /** A sandbox is dropped this long after its last request, in real time, unless its create says otherwise (default 1 hour). */
    ttlMs?: number;
    /** At most this many live at once (default 1,000); a create past that is 429 `sandbox_limit`. */
    max?: number;
  };
  /** Called with unexpected (5xx) errors; default console.error. */
  onError?: ErrorReporter;
  /** One-line notices, such as a client whose request timed out; default console.error. */
  log?: (line: string) => void;
  /**
   * Shadow mode: every v3 request is answered by the mock and also sent to `shadow.url` off the request's path (GET only,
   * unless `writes` with a `disposableProject`); differences go to the journal entry, GET /_mock/drift and the inspector.
   */
  shadow?: ShadowOptions;
  /** The simulation engine: runs, approvals, jobs and spend that move by themselves on the mock clock. */
  simulation?: {
    /** The mode when neither the fixture nor PUT /_mock/simulation sets one: `off` by default (the CLI: `auto`). */
    mode?: SimulationMode;
    /** A run, step or clock move past this many events is refused with 422 (default 1,000,000). */
    maxEvents?: number;
    /** Progress of long runs (about four times a second) and their end. */
    onProgress?(p: SimulationProgress & { done: boolean }): void;
    /**
     * Simulated days a run the simulation created is kept after it ended, when the fixture and PUT /_mock/simulation
     * name none: 0 (the default) keeps everything; the CLI's living demo keeps 7.
     */
    retentionDays?: number;
    /**
     * Settings put over the fixture's at start and again after every reset and fixture load, so a reset returns to
     * what the instance was started with (the CLI's --simulation, --speed, --traffic and --retain-days).
     */
    start?: StartSettings;
  };
}

export interface MockApp {
  /** The Koa application (mount it, or use callback()). */
  readonly app: Koa;
  /** A Node request listener, for http.createServer or supertest. */
  callback(): ReturnType<Koa['callback']>;
  /** WHATWG fetch answered in process, without a socket (a path like '/api/v3/...' is enough). */
  fetch: InProcess['fetch'];
  /** The raw in-process request (light-my-request's options and response). */
  inject: InProcess['inject'];
  /** Answers requests to these origins from global fetch, node:http and node:https until the handle is restored. */
  intercept: InProcess['intercept'];
  /** The in-process control API (same operations as /_mock). */
  readonly control: MockControl;
  readonly store: Store;
  readonly deps: Deps;
  /** Waits until every accepted write is stored, then lets the storage finish (the JSON file folds its log into the snapshot). */
  close(): Promise<void>;
}

/** Every option createApp reads (the compiler holds this list to CreateAppOptions: a name missing or extra fails it). */
const OPTION_NAMES = Object.keys({
  storage: true,
  fixtures: true,
  reset: true,
  clock: true,
  ids: true,
  tokens: true,
  seed: true,
  sealKey: true,
  bundle: true,
  adminKey: true,
  brokerSecret: true,
  auth: true,
  control: true,
  allowedHosts: true,
  controlToken: true,
  bodyLimit: true,
  journal: true,
  sandboxes: true,
  onError: true,
  log: true,
  shadow: true,
  simulation: true,
} satisfies Record<keyof CreateAppOptions, true>);

export async function createApp(options: CreateAppOptions = {}): Promise<MockApp> {
  checkOptionNames('createApp', options, OPTION_NAMES);
  checkStorage('createApp', options.storage);
  if (options.controlToken !== undefined && options.controlToken === '') throw new TypeError('createApp: controlToken must not be empty');
  const adapter = options.storage === 'memory' ? new MemoryAdapter() : (options.storage ?? jsonFile('.data/db.json'));
  const seed = stateFromFixture(options.fixtures ?? EMPTY_FIXTURE);
  const log = options.log ?? ((line: string) => console.error(line));
  const report: ErrorReporter = options.onError ?? ((err: unknown) => console.error(err));
  const shadow = options.shadow ? shadowServer(options.shadow, log) : null;
  const journalBudget = new JournalBudget(options.journal?.bytes ?? JOURNAL_LIMITS.bytes);
  // Read at each scrape: the journals' shared budget, and the default mock's shadow counts (once it is built).
  let root: Mock | undefined;
  const metrics = new ServerMetrics(
    V3_DECLARATIONS.map((o) => o.operationId),
    {
      journal: () => ({ entries: journalBudget.entries, bytes: journalBudget.used }),
      shadow: () => (shadow && root ? root.control.drift() : null),
    },
  );
  const server: ServerParts = {
    options,
    log,
    shadow,
    report,
    readBody: bodyReader(options.bodyLimit ?? 1024 * 1024),
    journalBudget,
    metrics,
    fingerprints: new Fingerprints(),
    simulation: {
      defaultMode: options.simulation?.mode ?? 'off',
      maxEvents: options.simulation?.maxEvents,
      onProgress: options.simulation?.onProgress,
      onError: (err) => report(err, undefined as never),
      retentionDays: options.simulation?.retentionDays,
      executed: () => void metrics.server.simulationEvents++,
    },
    heldKeys: [options.controlToken, shadow?.settings.token],
  };
  const snapshots = new NamedSnapshots();
  const sandboxes = createSandboxes({
    now: options.clock ?? Date.now,
    ttlMs: options.sandboxes?.ttlMs ?? SANDBOX_TTL_MS,
    max: options.sandboxes?.max ?? MAX_SANDBOXES,
    expired: () => void metrics.server.sandboxesExpired++,
    seed: options.seed,
    base: () => seed,
    snapshot: (name) => snapshots.get(name).snapshot,
    // Shared storage (PostgreSQL) keeps sandboxes for every instance on it; else they live in this process.
    shared: (adapter as StorageAdapter).sharedSandboxes?.(),
    // A sandbox's store is the one its directory opens (in memory, or the shared storage's).
    build: (state, own) =>
      assembleMock(
        {
          open: own.open,
          state,
          seed: own.seed,
          // The server's seal key; else instances sharing a sandbox seal with the storage's key, as for the default mock.
          sealKey: async (store) => options.sealKey ?? (await store.secret()),
          snapshots: new NamedSnapshots(),
          sandboxes: null,
          meter: metrics.sandboxes,
        },
        server,
      ),
  });
  const seedOption = options.seed ?? bundleSeed(options.bundle);
  root = await assembleMock(
    {
      open: async (hooks) => {
        const existing = options.reset ? null : await adapter.read();
        const store = new Store(adapter, existing ? existing.state : seed, existing?.seq ?? 0, hooks);
        // A first save that fails stops start-up with the storage's own reason (a 503 is for requests). Shared storage that
        // another instance seeded meanwhile keeps that state; a reset replaces whatever is stored.
        if (!existing) {
          const seeded = await store.save({ ifEmpty: !options.reset }).catch((err: { cause?: unknown }) => Promise.reject(err.cause ?? err));
          if (seeded) await store.writeResetState(seed);
        }
        return { store, fresh: !existing };
      },
      state: seed,
      seed: seedOption,
      // The seal key given, else one shared by the instances on one storage (a state exported from one imports into
      // another), else a random one: never the seed, which every exported file holds.
      sealKey: async (store) => options.sealKey ?? (await store.secret()),
      ids: options.ids,
      tokens: options.tokens,
      snapshots,
      sandboxes,
      bundle: options.bundle,
      start: options.simulation?.start,
      meter: metrics.root,
    },
    server,
  );
  // One app serves the default mock and every sandbox; one request listener serves fetch, inject and interception alike
  // (Koa builds it per callback() call).
  const app = serverApp(root, sandboxes, server);
  const local = inProcess(app.callback());

  return {
    app,
    callback: () => app.callback(),
    fetch: local.fetch,
    inject: local.inject,
    intercept: local.intercept,
    control: root.control,
    store: root.store,
    deps: root.deps,
    close: async () => {
      await sandboxes.close();
      await root.close();
    },
  };
}
