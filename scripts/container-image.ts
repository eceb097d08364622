// Builds the container image without a registry: a Debian base with the official Node, made by mmdebstrap when the engine lacks it, the
// package packed on the host and staged with its production dependencies (from npm's cache), then `podman build`.
// `node --import tsx scripts/container-image.ts [--base IMAGE] [--tag NAME] [--stage-only]` prints the image's name last.
import { execFileSync, spawnSync, type SpawnSyncOptions } from 'node:child_process';
import { createHash } from 'node:crypto';
import { closeSync, cpSync, mkdirSync, mkdtempSync, openSync, readFileSync, realpathSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { RUNTIME_MOCK_IMAGE } from '../src/testcontainers/index.js';
import { bundleCli } from './container-bundle.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

/**
 * The Node of the base built here: the official build, as node:20-bookworm-slim carries it, from npm's node-linux-<arch>
 * package. Debian's own nodejs is built without Node's startup snapshot and code cache (and as a shared library): a
 * server in it starts about 1.5 times slower than the same server on the official binary.
 */
export const LOCAL_NODE = '20.20.2';
/** The base built here when no registry can be reached: Debian 13 minbase and the official Node (about 40 s, 200 MB). */
export const LOCAL_BASE = `localhost/node-base:${LOCAL_NODE}-trixie`;
export const DEFAULT_TAG = RUNTIME_MOCK_IMAGE;
/**
 * podman, with runc as its OCI runtime: crun is refused on hosts with cgroups in hybrid mode. The same command line
 * serves the tests (run, stop, logs) and the Docker-compatible service Testcontainers talks to.
 */
export const PODMAN = ['podman', '--runtime', 'runc'];
/** Where the package is staged: the build context is the repository, narrowed to this by .dockerignore. */
export const STAGE = join(ROOT, '.container');

const say = (text: string) => process.stderr.write(`container-image: ${text}\n`);

/** Runs a command to its end; a failure throws with its output's tail. */
function run(cmd: string, args: string[], options: SpawnSyncOptions = {}): string {
  const r = spawnSync(cmd, args, { cwd: ROOT, maxBuffer: 64 * 1024 * 1024, ...options, encoding: 'utf8' });
  if (r.status !== 0)
    throw new Error(`${[cmd, ...args].join(' ')} failed (exit ${r.status ?? r.signal}):\n${`${r.stdout ?? ''}${r.stderr ?? ''}`.slice(-4000)}`);
  return r.stdout ?? '';
}

export const podman = (args: string[], options?: SpawnSyncOptions): string => run(PODMAN[0], [...PODMAN.slice(1), ...args], options);
export const imageExists = (name: string): boolean => spawnSync(PODMAN[0], [...PODMAN.slice(1), 'image', 'exists', name]).status === 0;

/** The local base, made once: later runs find it in podman's store. */
export function ensureLocalBase() {
  if (imageExists(LOCAL_BASE)) return { built: false, ms: 0 };
  const started = performance.now();
  const dir = mkdtempSync(join(tmpdir(), 'prm-base-'));
  try {
    say(`building ${LOCAL_BASE} with mmdebstrap (Debian trixie minbase + the official Node ${LOCAL_NODE} from npm)`);
    const nodePackage = `node-${process.platform}-${process.arch}`;
    writeFileSync(join(dir, 'package.json'), '{ "private": true }');
    run('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund', '--loglevel=error', `${nodePackage}@${LOCAL_NODE}`], { cwd: dir });
    const node = realpathSync(join(dir, 'node_modules', nodePackage, 'bin', 'node'));
    run('mmdebstrap', [
      '--quiet',
      '--variant=minbase',
      '--include=ca-certificates,libstdc++6',
      `--customize-hook=copy-in ${node} /usr/local/bin`,
      'trixie',
      join(dir, 'base.tar'),
    ]);
    podman(['import', join(dir, 'base.tar'), LOCAL_BASE]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  return { built: true, ms: performance.now() - started };
}

/**
 * The package as a user installs it, in .container/app: the packed files (dist/ must be built) and the production
 * dependencies the lock file pins, installed from npm's cache (npm ci has filled it), so the build reads no registry;
 * and the image's command, the CLI in one file (dist/cli.cjs, scripts/container-bundle.ts). Answers the hash of what the
 * image is made from (the packed tarball, the command's file, the lock file, the Containerfile and the base).
 */
export async function stage(base: string) {
  const started = performance.now();
  rmSync(STAGE, { recursive: true, force: true });
  const app = join(STAGE, 'app');
  mkdirSync(app, { recursive: true });
  const packed = join(STAGE, run('npm', ['pack', '--ignore-scripts', '--silent', '--pack-destination', STAGE]).trim().split('\n').at(-1)!);
  const command = join(STAGE, 'cli.cjs');
  await bundleCli(command);
  const hash = createHash('sha256').update(base);
  for (const file of [packed, command, join(ROOT, 'package-lock.json'), join(ROOT, 'Containerfile')]) hash.update(readFileSync(file));
  const source = hash.digest('hex').slice(0, 16);
  const built = spawnSync(PODMAN[0], [...PODMAN.slice(1), 'image', 'inspect', DEFAULT_TAG, '--format', '{{index .Labels "prm.source"}}'], { encoding: 'utf8' });
  if (built.status === 0 && built.stdout.trim() === source) return { source, current: true, ms: performance.now() - started };
  execFileSync('tar', ['-xzf', packed, '-C', app, '--strip-components=1']);
  cpSync(command, join(app, 'dist', 'cli.cjs'));
  cpSync(join(ROOT, 'package-lock.json'), join(app, 'package-lock.json'));
  run('npm', ['ci', '--omit=dev', '--ignore-scripts', '--prefer-offline', '--no-audit', '--no-fund', '--loglevel=error'], { cwd: app });
  return { source, current: false, ms: performance.now() - started };
}

/** One build at a time in this checkout (suites in parallel shards share .container/): a lock file, stale after 10 min. */
async function locked<T>(work: () => Promise<T>): Promise<T> {
  const lock = join(ROOT, '.container.lock');
  for (;;) {
    try {
      closeSync(openSync(lock, 'wx'));
      break;
    } catch {
      const age = Date.now() - (statSync(lock, { throwIfNoEntry: false })?.mtimeMs ?? Date.now());
      if (age > 10 * 60_000) rmSync(lock, { force: true });
      await new Promise((r) => setTimeout(r, 250));
    }
  }
  try {
    return await work();
  } finally {
    rmSync(lock, { force: true });
  }
}

/**
 * Stages the package and builds the image (docker format: OCI images drop HEALTHCHECK), labelled with the hash of its
 * sources: an image already built from the same ones is kept. Answers its name and timings.
 */
export function buildImage({ base = LOCAL_BASE, tag = DEFAULT_TAG }: { base?: string; tag?: string } = {}) {
  return locked(async () => {
    const baseTime = base === LOCAL_BASE ? ensureLocalBase() : { built: false, ms: 0 };
    const staged = await stage(base);
    const started = performance.now();
    if (!staged.current || tag !== DEFAULT_TAG)
      podman([
        'build',
        '--quiet',
        '--format',
        'docker',
        '--build-arg',
        `BASE=${base}`,
        '--label',
        `prm.source=${staged.source}`,
        '--tag',
        tag,
        '--file',
        'Containerfile',
        '.',
      ]);
    return { tag, baseMs: baseTime.ms, stageMs: staged.ms, buildMs: performance.now() - started, cached: staged.current };
  });
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const args = process.argv.slice(2);
  const option = (name: string, fallback: string) => {
    const i = args.indexOf(name);
    return i >= 0 && args[i + 1] ? args[i + 1] : fallback;
  };
  try {
    if (args.includes('--stage-only')) {
      const { ms } = await stage(option('--base', LOCAL_BASE));
      say(`staged ${STAGE}/app in ${(ms / 1000).toFixed(1)} s; build with: podman build --format docker -t NAME .`);
    } else {
      const r = await buildImage({ base: option('--base', LOCAL_BASE), tag: option('--tag', DEFAULT_TAG) });
      const s = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
      say(`${r.cached ? 'kept' : 'built'} ${r.tag}: base ${r.baseMs ? s(r.baseMs) : 'cached'}, staging ${s(r.stageMs)}, image ${s(r.buildMs)}`);
      process.stdout.write(`${r.tag}\n`);
    }
  } catch (err) {
    say((err as Error).message);
    process.exit(1);
  }
}
