// A consumer's project outside the repository: `npm pack`, the tarball installed into a fresh folder under the OS temp
// dir with the test runners and compilers a user would add, the recipes of examples/ copied in as a user copies them.
import { spawn } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = fileURLToPath(new URL('../../..', import.meta.url));
/** The oldest Node the package's `engines` names, as npm ships it (node-<platform>-<arch>). */
export const OLDEST_NODE = '20.0.0';
/** TypeScript 7 (the native compiler), next to the repository's own 5.9. */
const TYPESCRIPT_7 = '7.0.2';
const RECIPES = [
  'vitest.test.ts',
  'jest.test.mjs',
  'node-test.test.mjs',
  'uvu.test.mjs',
  'runs-client.mjs',
  'embedding.test.mjs',
  'tutorial.test.mjs',
  'playwright-sandbox.ts',
  'sandboxes-in-process.ts',
  'typed-client.ts',
  'retry-client.ts',
  'retry-recipe.ts',
];
/** A recipe that is a folder of its own (vitest threads against one CLI server, a sandbox per file): copied as a folder. */
export const SANDBOX_RECIPE = 'vitest-sandboxes';
/** The CommonJS recipes, folders with a package.json of their own: jest's default setup (and a plain script), and ts-jest. */
export const CJS_RECIPE = 'commonjs';
export const TS_JEST_RECIPE = 'commonjs-ts-jest';
const RECIPE_FOLDERS = [SANDBOX_RECIPE, CJS_RECIPE, TS_JEST_RECIPE];

export interface Run {
  code: number | null;
  out: string;
  ms: number;
}

/** Runs a command to its end, collecting stdout and stderr together. */
export function run(cmd: string, args: string[], cwd: string, env: NodeJS.ProcessEnv = {}): Promise<Run> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { cwd, env: { ...process.env, FORCE_COLOR: '0', NO_COLOR: '1', CI: '1', ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (c) => (out += c));
    child.stderr.on('data', (c) => (out += c));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, out, ms: performance.now() - started }));
  });
}

async function ok(what: string, r: Promise<Run>): Promise<Run> {
  const done = await r;
  if (done.code !== 0) throw new Error(`${what} failed (exit ${done.code}):\n${done.out.slice(-4000)}`);
  return done;
}

/** The version the repository's lock file installed, so the scratch install is served from npm's cache. */
const locked = (name: string): string => (JSON.parse(readFileSync(join(ROOT, 'node_modules', name, 'package.json'), 'utf8')) as { version: string }).version;

export interface Scratch {
  dir: string;
  /** The node binary of OLDEST_NODE, or why there is none. */
  oldestNode: string | { missing: string };
  /**
   * A CommonJS project with the tarball and its optional peer testcontainers installed; the main folder has no
   * testcontainers, as a project that does not use it.
   */
  peerDir: string;
  /** How long packing and installing took, in ms. */
  setupMs: number;
}

/** Packs the built package (dist/ must be built: `npm test` builds first) and installs it into a fresh folder. */
export async function makeScratch(): Promise<Scratch> {
  const started = performance.now();
  const dir = mkdtempSync(join(tmpdir(), 'prm-consumer-'));
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  const packed = await ok('npm pack', run(npm, ['pack', '--ignore-scripts', '--silent', '--pack-destination', dir], ROOT));
  const tarball = join(dir, packed.out.trim().split('\n').at(-1)!);
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'consumer', private: true, type: 'module' }, null, 2));
  const quiet = ['--prefer-offline', '--no-audit', '--no-fund', '--loglevel=error'];
  const deps = [
    tarball,
    `typescript@${locked('typescript')}`,
    `@types/node@${locked('@types/node')}`,
    `vitest@${locked('vitest')}`,
    `jest@${locked('jest')}`,
    `ts-jest@${locked('ts-jest')}`,
    `uvu@${locked('uvu')}`,
    `typescript-7@npm:typescript@${TYPESCRIPT_7}`,
  ];
  // The oldest Node the engines field names, from npm's own binary packages (in a folder of its own, installed meanwhile);
  // a platform without one is reported by the tests that need it.
  const nodePackage = `node-${process.platform}-${process.arch}`;
  const nodeDir = join(dir, 'oldest-node');
  mkdirSync(nodeDir);
  writeFileSync(join(nodeDir, 'package.json'), '{ "private": true }');
  const peerDir = join(dir, 'testcontainers-peer');
  mkdirSync(peerDir);
  writeFileSync(join(peerDir, 'package.json'), JSON.stringify({ name: 'consumer-testcontainers', private: true, type: 'commonjs' }, null, 2));
  const [, nodeInstall] = await Promise.all([
    ok('npm install (the tarball, compilers and runners)', run(npm, ['install', ...quiet, ...deps], dir)),
    run(npm, ['install', ...quiet, `${nodePackage}@${OLDEST_NODE}`], nodeDir),
    ok('npm install (the tarball and testcontainers)', run(npm, ['install', ...quiet, tarball, `testcontainers@${locked('testcontainers')}`], peerDir)),
  ]);
  const oldestNode =
    nodeInstall.code === 0
      ? join(nodeDir, 'node_modules', nodePackage, 'bin', 'node')
      : { missing: `${nodePackage}@${OLDEST_NODE}: ${nodeInstall.out.trim().split('\n')[0]}` };
  const project = join(ROOT, 'test/helpers/consumer/project');
  for (const f of readdirSync(project)) copyFileSync(join(project, f), join(dir, f));
  for (const f of RECIPES) copyFileSync(join(ROOT, 'examples', f), join(dir, f));
  for (const folder of RECIPE_FOLDERS) {
    mkdirSync(join(dir, folder));
    // Their files only: a run of a recipe in the repository leaves a runner's cache folder beside them.
    for (const f of readdirSync(join(ROOT, 'examples', folder), { withFileTypes: true }))
      if (f.isFile()) copyFileSync(join(ROOT, 'examples', folder, f.name), join(dir, folder, f.name));
  }
  return { dir, oldestNode, peerDir, setupMs: performance.now() - started };
}

/**
 * tsc of TypeScript 5.9 (`typescript`) or 7 (`typescript-7`) on the project's tsconfig, with skipLibCheck as given. With
 * it off, only the file of public exports: the vitest recipe would add vitest's and vite's own declarations to check.
 */
export function typecheck(s: Scratch, compiler: 'typescript' | 'typescript-7', skipLibCheck: boolean): Promise<Run> {
  const config = JSON.parse(readFileSync(join(s.dir, 'tsconfig.json'), 'utf8')) as { compilerOptions: Record<string, unknown>; files: string[] };
  const name = `tsconfig.${compiler}.${skipLibCheck}.json`;
  const files = skipLibCheck ? config.files : ['api.ts'];
  writeFileSync(join(s.dir, name), JSON.stringify({ ...config, files, compilerOptions: { ...config.compilerOptions, skipLibCheck } }));
  return run(process.execPath, [join(s.dir, 'node_modules', compiler, 'bin', 'tsc'), '-p', name], s.dir);
}
