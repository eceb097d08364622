// createApp: checks the options, opens the storage, builds the default mock and the sandbox directory (mock.ts), the
// shadow target and the metrics, and serves them all from one Koa app (server.ts), also in process. No listen, no env, no globals.
import type { RequestListener } from 'node:http';
import type Koa from 'koa';
import type { ErrorReporter } from './errors.js';
import { Store, MemoryAdapter, jsonFile, type StorageAdapter } from './storage/index.js';
import { EMPTY_FIXTURE, stateFromFixture } from './fixtures.js';
import { bodyReader } from './pipeline/index.js';
import type { MockControl } from './mock-control/index.js';
import { JOURNAL_LIMITS } from './control/index.js';
import { JournalBudget } from './control/index.js';
import { NamedSnapshots } from './control/index.js';
import { createSandboxes, MAX_SANDBOXES, SANDBOX_TTL_MS } from './sandboxes/index.js';
import type { Deps } from './deps.js';
import { inProcess, type InProcess } from './inprocess/index.js';
import { assembleMock, type Mock, type ServerParts } from './mock.js';
import { checkOptionNames, checkStorage } from './options-check.js';
import { Fingerprints } from './judge/index.js';
import { FaultTally } from './control/index.js';
import { serverApp } from './server.js';
import type { Compare, ShadowOptions, ShadowServer } from './shadow/index.js';
import { diffFingerprint, type SemanticChange } from './domain/index.js';
import type { CreateAppOptions } from './app-options.js';
import { ServerMetrics } from './metrics/index.js';
import { V3_DECLARATIONS } from './operations/index.js';

export type { CreateAppOptions };

export interface MockApp {
  /** The Koa application (mount it, or use callback()). */
  readonly app: Koa;
  /** A Node request listener, for http.createServer or supertest (the same one fetch, inject and interception use). */
  callback(): RequestListener;
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
  const shadow = options.shadow ? await shadowServer(options.shadow, log) : null;
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
    faultTally: new FaultTally(),
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
    now: options.clock,
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
  const seedOption = options.seed ?? (options.bundle === undefined ? undefined : (await import('./reproduce/index.js')).bundleSeed(options.bundle));
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
  const { app, listener } = serverApp(root, sandboxes, server);
  const local = inProcess(listener);
  /** How many middleware the app held when first read: a user adds any only after that read. */
  let chain = -1;

  return {
    // Koa is loaded and the app built at the first read (or the first request the fast path does not take).
    get app() {
      const koa = app();
      if (chain < 0) chain = koa.middleware.length;
      return koa;
    },
    // Middleware a user adds to mock.app afterwards runs on every request of a listener asked for since: the whole
    // chain, composed again (the fast path knows only the chain it was built beside).
    callback: () => (chain < 0 || app().middleware.length === chain ? listener : app().callback()),
    fetch: local.fetch,
    inject: local.inject,
    intercept: local.intercept,
    control: root.control,
    store: root.store,
    deps: root.deps,
    close: async () => {
      await sandboxes.close();
      await root.close();
      await shadow?.sender.close();
    },
  };
}

/**
 * Shadow mode's server, with its comparator: the shared answer comparator held to the mock's /openapi.json. Shadow mode,
 * the comparator and the document are loaded here, only when the option is given, so a mock without one never reads them.
 */
async function shadowServer(options: ShadowOptions, log: (line: string) => void): Promise<ShadowServer> {
  const [shadowMode, { compareAnswers }, { openApiDocument }] = await Promise.all([
    import('./shadow/index.js'),
    import('./compare/index.js'),
    import('./document/index.js'),
  ]);
  const document = openApiDocument(false);
  const fingerprint = (changes: unknown[]) => diffFingerprint(changes as SemanticChange[]);
  const compare: Compare = (operation, mock, target) => compareAnswers(operation, mock, target, { document, fingerprint });
  return shadowMode.shadowServer(options, log, compare);
}
