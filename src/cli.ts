#!/usr/bin/env node
// The standalone server: flags -> storage -> createApp -> listen; finishes writes and exits 0 on SIGINT/SIGTERM.
import { createServer } from 'node:http';
import { OwnedResponse } from './fast-path-sent.js';
import { readFileSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { networkInterfaces } from 'node:os';
import { createApp } from './app.js';
import type { SimulationMode } from './schemas/index.js';
import { DataFileError, DatabaseSchemaError, LockError, MemoryAdapter, jsonFile, postgresStorage, redactUrl } from './storage/index.js';
import { hostName, isLoopback } from './middleware/index.js';
import { ValidationError } from './validation.js';
import { coverageCommand } from './coverage-command.js';
import { conformanceCommand } from './conformance-command.js';
import { DEMO_FIXTURE_PATH, FixtureError, loadFixtureFile, stateFromFixture } from './fixtures.js';
import { fail, reporter, rootCause, simulationProgress } from './cli-output.js';
import { shadowFlags } from './shadow/index.js';
import { readFlags, USAGE } from './cli-flags.js';

/** How long requests in flight at a stop may still take before their connections are cut. */
const STOP_GRACE_MS = 1_000;

/** The names the bound address answers to: itself, or every interface address for a wildcard bind. */
function boundHosts(host: string): string[] {
  if (host !== '0.0.0.0' && host !== '::') return [host];
  return Object.values(networkInterfaces())
    .flatMap((list) => list ?? [])
    .map((i) => i.address);
}

async function main(): Promise<void> {
  // Subcommands: `coverage` reads a running mock's coverage (the CI gate).
  if (process.argv[2] === 'coverage') process.exit(await coverageCommand(process.argv.slice(3)));
  // `conformance` compares a real service with an in-process mock, probe by probe.
  if (process.argv[2] === 'conformance') process.exit(await conformanceCommand(process.argv.slice(3)));
  const { values: f, named } = readFlags(process.argv.slice(2), process.env);
  // A bad value is named as it was given: `--speed` on the command line, `PRM_SPEED` in the environment.
  const bad = (message: string): never => fail(named(message), 2);
  if (f.help) {
    process.stdout.write(`${USAGE}\n`);
    return;
  }
  if (f.version) {
    // dist/cli.js and src/cli.ts both sit one level under the package root.
    const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string };
    process.stdout.write(`${pkg.version}\n`);
    return;
  }
  const port = Number(f.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535) bad(`--port must be an integer from 0 to 65535, got ${f.port}`);
  if (f.auth !== 'on' && f.auth !== 'off') bad(`--auth must be on or off, got ${f.auth}`);
  if (f.memory && f.data) bad('--memory and --data exclude each other');
  if (f.database !== undefined && (f.memory || f.data)) bad(`--database excludes ${f.memory ? '--memory' : '--data'}`);
  if (f.database !== undefined && !/^postgres(ql)?:\/\//.test(f.database)) bad(`--database must be a postgres:// URL, got ${f.database}`);
  if (f['control-token'] === '') bad('--control-token must not be empty');
  if (f.simulation !== undefined && !['auto', 'step', 'off'].includes(f.simulation)) bad(`--simulation must be auto, step or off, got ${f.simulation}`);
  const speed = f.speed === undefined ? undefined : Number(f.speed);
  if (speed !== undefined && !(speed >= 0.001 && speed <= 1_000_000)) bad(`--speed must be a number from 0.001 to 1000000, got ${f.speed}`);
  const traffic = f.traffic === undefined ? undefined : Number(f.traffic);
  if (traffic !== undefined && !(traffic >= 0.001 && traffic <= 360_000))
    bad(`--traffic must be a number of messages an hour from 0.001 to 360000, got ${f.traffic}`);
  const retainDays = f['retain-days'] === undefined ? undefined : Number(f['retain-days']);
  if (retainDays !== undefined && !(Number.isInteger(retainDays) && retainDays >= 0 && retainDays <= 36_500))
    bad(`--retain-days must be a whole number of days from 0 to 36500, got ${f['retain-days']}`);
  const shadow = shadowFlags(f);
  if (shadow.error) bad(shadow.error);
  const sandboxTtl = Number(f['sandbox-ttl']);
  const maxSandboxes = Number(f['max-sandboxes']);
  if (!Number.isInteger(sandboxTtl) || sandboxTtl < 1) bad(`--sandbox-ttl must be a positive integer of milliseconds, got ${f['sandbox-ttl']}`);
  if (!Number.isInteger(maxSandboxes) || maxSandboxes < 0) bad(`--max-sandboxes must be an integer >= 0, got ${f['max-sandboxes']}`);
  const headersTimeout = Number(f['headers-timeout-ms']);
  const requestTimeout = Number(f['request-timeout-ms']);
  if (!Number.isInteger(headersTimeout) || headersTimeout < 1) bad(`--headers-timeout-ms must be a positive integer, got ${f['headers-timeout-ms']}`);
  if (!Number.isInteger(requestTimeout) || requestTimeout < headersTimeout)
    bad(`--request-timeout-ms must be an integer >= --headers-timeout-ms, got ${f['request-timeout-ms']}`);

  const report = reporter();
  const fixtureFile = f.fixtures ? resolve(f.fixtures) : DEMO_FIXTURE_PATH;
  const fixtureBytes = (() => {
    try {
      return statSync(fixtureFile).size;
    } catch {
      return 0;
    }
  })();
  const big = fixtureBytes >= 8 * 1024 * 1024;
  const t0 = Date.now();
  const fixtures = await loadFixtureFile(
    fixtureFile,
    big ? (done) => report.progress?.(`loading ${fixtureFile}: ${Math.floor((done / fixtureBytes) * 100)}%`) : undefined,
  );
  if (big) report.summary?.(`read ${fixtureFile} (${(fixtureBytes / 1024 / 1024).toFixed(1)} MB) in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
  // Validated here so a bad fixture is reported with its file name (createApp reuses the result).
  stateFromFixture(fixtures, fixtureFile);
  let storage;
  let dataFile: string | undefined;
  if (f.memory) storage = new MemoryAdapter();
  else if (f.database !== undefined) storage = postgresStorage({ connectionString: f.database });
  else {
    // The adapter locks and writes where the file really is (a symlink to a locked file is the same file, and so is a
    // hard link), the snapshot and its log alike, from its first read until it closes.
    const file = jsonFile(resolve(f.data ?? '.data/db.json'), { report });
    dataFile = file.filename;
    storage = file;
    process.on('exit', () => file.releaseLock());
  }

  const bundleFile = f.bundle === undefined ? undefined : resolve(f.bundle);
  const bundle = bundleFile === undefined ? undefined : await loadFixtureFile(bundleFile);
  const mock = await createApp({
    storage,
    bundle,
    fixtures,
    seed: f.seed,
    // Not a default for the seed: the seal key never travels with what it seals (the environment or a flag brings it).
    sealKey: f['seal-key'] ?? (process.env.PRM_SEAL_KEY || undefined),
    reset: f.reset,
    adminKey: f['admin-key'],
    brokerSecret: f['broker-secret'],
    auth: f.auth as 'on' | 'off',
    control: !f['no-control'],
    controlToken: f['control-token'],
    allowedHosts: [...boundHosts(f.host), ...f['allowed-host']],
    // The server is for trying things out: the simulation runs unless the fixture, the data file or --simulation says
    // otherwise (a new sandbox starts in --simulation's mode too).
    // The living demo (--speed or --traffic) would grow for ever: its simulated runs are kept a week unless said otherwise.
    simulation: {
      mode: (f.simulation as SimulationMode | undefined) ?? 'auto',
      onProgress: simulationProgress(report),
      retentionDays: speed !== undefined || traffic !== undefined ? 7 : undefined,
      // Over the fixture or the data file at start, and again after every reset and fixture load.
      start: { mode: f.simulation as SimulationMode | undefined, speed, traffic, retentionDays: retainDays },
    },
    sandboxes: { ttlMs: sandboxTtl, max: maxSandboxes },
    shadow: shadow.options,
  }).catch((err) => {
    // A bad bundle: one line naming the file and each problem's place in it.
    if (err instanceof ValidationError) fail(`bundle ${bundleFile}: ${err.items.map((i) => `${i.loc.slice(1).join('.')}: ${i.msg}`).join('; ')}`);
    if (err instanceof DataFileError || err instanceof LockError || err instanceof FixtureError || err instanceof DatabaseSchemaError) throw err;
    // A database that cannot be reached at start: say which (without its password) and why, in one line.
    if (f.database !== undefined) fail(`cannot use database ${redactUrl(f.database)}: ${rootCause(err)}`);
    // Seeding a new data file writes it: a full or read-only disk fails here. One line, naming the file.
    fail(`${dataFile ? `cannot start with data file ${dataFile}` : 'cannot start'}: ${rootCause(err)}`);
  });
  // One line, before anything listens: an open control surface on a reachable address lets anyone reset or read the state.
  if (!f['no-control'] && f['control-token'] === undefined && !isLoopback(hostName(f.host))) {
    process.stderr.write(
      `project-runtime-mock: warning: ${named(`--host ${f.host}`)} serves the /_mock control surface (reset, state, clock, faults) to anyone who can reach it; pass --control-token TOKEN or --no-control\n`,
    );
  }

  // Slow or stalled clients must not hold the server: Node checks these timeouts every connectionsCheckingInterval
  // (30 s by default), so the check runs at a quarter of the headers timeout.
  const server = createServer(
    {
      headersTimeout,
      requestTimeout,
      // Nobody reads this server's response headers back: the fast path writes each head in one call.
      ServerResponse: OwnedResponse,
      connectionsCheckingInterval: Math.max(10, Math.min(30_000, Math.floor(headersTimeout / 4))),
    },
    mock.callback(),
  );
  server.keepAliveTimeout = 5_000;
  server.listen(port, f.host, () => {
    const addr = server.address();
    const actual = typeof addr === 'object' && addr ? addr.port : port;
    const host = f.host.includes(':') ? `[${f.host}]` : f.host;
    process.stdout.write(`listening on http://${host}:${actual}\n`);
    // The second line: where the inspector page is (the control surface serves it).
    if (!f['no-control']) process.stdout.write(`inspector: http://${host}:${actual}/_mock/ui\n`);
  });
  server.on('error', (err) => fail(err.message));

  let stopping = false;
  const stop = () => {
    if (stopping) return;
    stopping = true;
    server.close(() => {
      mock.close().then(
        () => process.exit(0),
        (err) => fail(`could not finish writes: ${(err as Error).message}`),
      );
    });
    server.closeIdleConnections();
    // Requests in flight get a grace to finish; then the connections are cut, so a stop (SIGTERM from a container
    // engine) ends within 2 s. What was acknowledged is already committed: mock.close() only waits for the last flush.
    setTimeout(() => server.closeAllConnections(), STOP_GRACE_MS).unref();
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

// Every start-up failure is one line naming the file and the cause, and exit 1; never a stack trace.
main().catch((err) => {
  if (err instanceof DataFileError || err instanceof LockError || err instanceof FixtureError || err instanceof DatabaseSchemaError) fail(err.message);
  fail(`start-up failed: ${(err as Error)?.message ?? String(err)}`);
});
