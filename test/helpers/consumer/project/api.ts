// Every public export of the package, used as a consumer's strict TypeScript project would use it; the consumer test
// type-checks this file against the installed tarball (TypeScript 5.9 and 7, skipLibCheck on and off). Never run.
import {
  ACCESS_TOKEN_TTL_MS,
  AUTHORIZATION_CODE_TTL_MS,
  ChangeSetConflict,
  DEMO_FIXTURE_PATH,
  DataFileError,
  DatabaseSchemaError,
  FixtureError,
  JsonFileAdapter,
  MemoryAdapter,
  MockControl,
  PostgresAdapter,
  REASON_CODES,
  REFRESH_TOKEN_TTL_MS,
  createApp,
  createPkcePair,
  demoFixture,
  isWholeState,
  persistsChangeSets,
  postgresStorage,
  randomIds,
  randomTokens,
  readFixtureFile,
  seededIds,
  seededTokens,
  signBrokerPayload,
  stateFromFixture,
  wholeDocument,
  type Adapter,
  type CaughtUp,
  type Change,
  type ChangeSet,
  type ChangeSetAdapter,
  type ChangeSetCapability,
  type CommittedState,
  type CreateAppOptions,
  type DataFile,
  type StateData,
  type Fixture,
  type IdGenerator,
  type JsonFileOptions,
  type MockApp,
  type PkcePair,
  type PostgresOptions,
  type Rebase,
  type ReasonCode,
  type SignedBrokerPayload,
  type Snapshot,
  type StorageAdapter,
  type StorageReporter,
  type TokenGenerator,
} from 'project-runtime-mock';
import { createClient, reasonCodeOf, ControlError, hmacSha256Hex, OPERATIONS, type MockClient, type RunDetailResponseV3 } from 'project-runtime-mock/client';

const P = 'fe1868ee-d60e-4ce6-8db0-f4a764225229';

export async function everyOption(): Promise<MockApp[]> {
  const ids: IdGenerator = seededIds('consumer');
  const tokens: TokenGenerator = seededTokens(1);
  const reporter: StorageReporter = { progress: () => {}, done: () => {} } as unknown as StorageReporter;
  const fileOptions: JsonFileOptions = {};
  const options: CreateAppOptions = {
    storage: 'memory',
    fixtures: demoFixture(),
    reset: true,
    bundle: undefined,
    clock: () => 0,
    ids,
    tokens,
    seed: 'consumer',
    adminKey: 'admin',
    brokerSecret: 'broker',
    auth: 'off',
    control: true,
    allowedHosts: ['mock.test'],
    controlToken: 'token',
    bodyLimit: 1024,
    journal: { entries: 10, bytes: 1_000_000, bodyBytes: 1_000 },
    onError: (err: unknown) => console.error(err),
    log: (line: string) => console.log(line),
    simulation: { mode: 'step', maxEvents: 100, onProgress: (p) => console.log(p.done), start: { mode: 'auto', speed: 60, traffic: 10, retentionDays: 7 } },
  };
  void reporter;
  return [
    await createApp(options),
    await createApp({ storage: 'memory' }),
    await createApp(),
    await createApp({ storage: new MemoryAdapter() }),
    await createApp({ storage: new JsonFileAdapter('.data/db.json', fileOptions) }),
    await createApp({ storage: postgresStorage({ connectionString: 'postgres://localhost/db', schema: 'mock' }) }),
    await createApp({ seed: 7, ids: randomIds, tokens: randomTokens }),
  ];
}

export async function inProcess(mock: MockApp): Promise<number> {
  const res: Response = await mock.fetch(`/api/v3/projects/${P}/jobs`, { headers: { authorization: 'Bearer demo-owner-token' } });
  const body: unknown = await res.json();
  const raw = await mock.inject({ method: 'GET', url: `/api/v3/projects/${P}/jobs`, headers: { authorization: 'Bearer demo-owner-token' } });
  const handle = mock.intercept('https://api.example.test', { onUnhandled: 'error' });
  handle.restore();
  {
    using _handle = mock.intercept(['https://a.example.test', 'https://b.example.test']);
  }
  const listener = mock.callback();
  void listener;
  void mock.app;
  await mock.close();
  return raw.statusCode + (body === null ? 0 : 1);
}

export async function everyControlMethod(mock: MockApp): Promise<unknown[]> {
  const c: MockControl = mock.control;
  const snap: Snapshot = c.snapshot();
  await c.restore(snap);
  await c.reset();
  await c.loadFixtures(demoFixture());
  const state = c.exportState();
  const sealed = c.exportState({ sealed: true });
  c.exportStateStream().destroy();
  await c.importState(state);
  const now: string = c.now();
  await c.setClock('2026-11-20T12:00:00Z');
  await c.advanceClock(60_000);
  const clock = c.clock();
  const sim = c.simulation();
  await c.setSimulation({ mode: 'step', speed: 2 });
  await c.stepSimulation();
  await c.runSimulation({ until: '2026-11-21T12:00:00Z' });
  await c.setBehaviours({ projects: [] });
  const desired = c.getDesiredState(P);
  await c.compileRelease(P, {});
  const fault = c.addFault({ method: 'GET', path: '/api/v3/projects/*/jobs', status: 503, times: 1 });
  const faults = c.faults();
  c.clearFaults();
  const entries = c.requests({ method: 'GET', path: '/jobs', status: '2xx' });
  const summaries = c.requests({ summary: true });
  const first = entries.length > 0 ? c.journalEntry(entries[0].id) : undefined;
  c.clearRequests();
  const run = await c.createRun(P, { status: 'running' });
  const moved = await c.transitionRun(P, run.id as string, { to: 'succeeded' });
  const code = await c.mintAuthorizationCode({
    client_id: 'c',
    redirect_uri: 'https://app.test/cb',
    code_challenge: createPkcePair().code_challenge,
    principal_id: 'p',
  } as never);
  const report = c.coverage();
  const next: number = c.coverageNext().gaps.length;
  const series = c.timeline();
  const verified = [
    c.verify({ request: { method: 'POST', operation: 'cancelRun', status: 200 }, count: { exactly: 1 } }),
    c.verifySequence({ requests: [{ path: '/api/v3/**' }] }),
    c.verifyOnly({ requests: [{ method: 'GET' }] }),
  ];
  const har = c.har({ method: 'GET' });
  const client = [c.clientReport(), c.assertCleanClient()];
  const drift: number[] = [c.drift().compared, (await c.drift({ settled: true })).groups.length];
  const gate = c.assertCoverage({ failUnder: 50, require: ['cancelRun'] });
  const bundle = await c.exportBundle();
  (await c.exportBundleStream()).destroy();
  await c.importBundle(bundle);
  const saved: string = c.saveSnapshot('before').name;
  const held = c.snapshots().map((s) => s.bytes);
  await c.restoreSnapshot('before');
  const named: Snapshot = c.namedState('before');
  c.deleteSnapshot('before');
  const sb = await c.createSandbox({ ttl_ms: 60_000 });
  const listed = (await c.sandboxes({ limit: 5 })).items.length;
  const one: string = (await c.sandbox(sb.id)).base_url;
  const own: MockControl = c.sandboxControl(sb.id);
  await c.deleteSandbox(sb.id);
  c.startSession();
  const exported: string = await c.exportTest({ format: 'vitest' });
  (await c.exportTestStream()).destroy();
  const opened: { a: number } = c.unseal({ a: 1 });
  const sessions = [saved, held, named, listed, one, own, exported, opened];
  const reads = [c.projects(), c.projectOverview(P), c.runs(P, { limit: 5 }), c.run(P, run.id as string), c.approvals(P), c.users(P), c.jobs(P), c.releases(P)];
  const status: string | undefined = mock.store.get('runs', run.id as string)?.status;
  return [
    sessions,
    verified,
    har.log.entries.length,
    client,
    drift,
    gate,
    sealed,
    now,
    clock,
    sim,
    desired,
    fault.id,
    faults,
    summaries,
    first,
    moved,
    code,
    report.operations.length,
    next,
    series,
    reads,
    status,
    c.applyDesiredState,
  ];
}

export function storageTypes(): unknown[] {
  const adapter: StorageAdapter = new MemoryAdapter();
  const whole: Adapter<DataFile> = { read: async () => null, write: async () => {} };
  const exported = (s: StateData): number => s.runs.length;
  const wrapped: ChangeSetAdapter = wholeDocument({ read: async () => null, write: async () => {} });
  const capability: Partial<ChangeSetCapability> = wrapped;
  const pg: PostgresOptions = { connectionString: 'postgres://localhost/db', poolSize: 2, keepChangeSets: 10 };
  const pgAdapter: PostgresAdapter = postgresStorage(pg);
  const caught = (x: CaughtUp): boolean => isWholeState(x);
  const rebase: Rebase = (missed) => missed.filter((m): m is ChangeSet => !isWholeState(m));
  const change = (set: ChangeSet): readonly Change[] => set.changes;
  const seq = (committed: CommittedState): number => committed.seq;
  const errors = [new DataFileError('f', 'why'), new ChangeSetConflict(), new FixtureError(['x']), DatabaseSchemaError];
  return [adapter, whole, exported, capability, pgAdapter, caught, rebase, change, seq, errors, persistsChangeSets(adapter)];
}

export function fixturesAndHelpers(): unknown[] {
  const fixture: Fixture = demoFixture();
  const state = stateFromFixture(fixture);
  const fromFile: unknown = readFixtureFile(DEMO_FIXTURE_PATH);
  const pkce: PkcePair = createPkcePair();
  const signed: SignedBrokerPayload = signBrokerPayload({ event: 'x' }, 'secret');
  const reason: ReasonCode = 'run_not_found';
  const known: boolean = reason in REASON_CODES;
  return [
    state.runs.length,
    known,
    fromFile,
    pkce.code_challenge_method,
    signed.headers,
    reason,
    ACCESS_TOKEN_TTL_MS + REFRESH_TOKEN_TTL_MS + AUTHORIZATION_CODE_TTL_MS,
  ];
}

export async function typedClient(): Promise<string | undefined> {
  const client: MockClient = createClient({ baseUrl: 'https://api.example.test', token: 'demo-owner-token', adminKey: 'demo-admin-key' });
  const { data, error } = await client.getRun(P, '391206e3-21b8-4eae-b109-2fe71e9c7b14');
  const status: RunDetailResponseV3['status'] | undefined = data?.status;
  const other = client.with({ token: 'demo-viewer-token' });
  await other.control.reset();
  void [ControlError, hmacSha256Hex, OPERATIONS];
  return reasonCodeOf(error) ?? status;
}
