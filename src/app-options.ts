// What createApp accepts: storage, fixtures, clock and generators, the control surface, sandboxes, shadow mode and simulation.
import type { ErrorReporter } from './errors.js';
import type { StorageAdapter } from './storage/index.js';
import type { TimeSource } from './domain/index.js';
import type { IdGenerator, TokenGenerator } from './domain/index.js';
import type { JournalLimits } from './control/index.js';
import type { SimulationProgress, StartSettings } from './simulation/index.js';
import type { SimulationMode } from './schemas/index.js';
import type { ShadowOptions } from './shadow/index.js';

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
  /** Base time source in ms (default Date.now; sandboxes in process time their lives on the monotonic clock); the mock clock freezes or offsets it. */
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
