// What a first mock loads: a fresh Node process on the built package (ES module and CommonJS builds) imports it, makes
// createApp with the demo fixture and answers one mock.fetch; the files it loaded (read back to their sources through
// the bundles' source maps) hold none of light-my-request (mock.inject's), croner (cron schedules'), shadow mode,
// reproduction, the OpenAPI document's builder, the inspector's files, the answer comparator, conformance or
// prom-client. Each of those then works when used, and only then loads.
// The host CLI likewise loads prom-client at the first scrape of /_mock/metrics, not at start.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { execFile } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, relative, resolve } from 'node:path';
import { promisify } from 'node:util';
import { fileURLToPath } from 'node:url';
import { ROOT, startCli } from '../helpers/cli.js';

const PROBE = fileURLToPath(new URL('./cold/probe.mjs', import.meta.url));
const PRELOAD = fileURLToPath(new URL('./cold/cli-preload.cjs', import.meta.url));

/** What only some mocks use, as source paths (repository-relative) or package folders. */
const LAZY = {
  koa: ['node_modules/koa/', 'node_modules/http-errors/', 'node_modules/cookies/'],
  inject: ['node_modules/light-my-request/'],
  cron: ['node_modules/croner/'],
  document: ['src/document/build.ts', 'src/document/validation-error.ts', 'node_modules/@valibot/to-json-schema/'],
  inspector: ['src/inspector/files.ts'],
  reproduce: ['src/reproduce/bundle.ts', 'src/reproduce/test-export.ts'],
  shadow: ['src/shadow/index.ts', 'src/compare/answers.ts'],
} as const;
/** Never loaded by any step of the probe (a metrics scrape or the conformance command would). */
const NEVER = ['src/conformance/', 'src/metrics/exposition.ts', 'node_modules/prom-client/'];
/** Every file of those folders but the inspector's face (the route's path, and the import() of its files). */
const FOLDERS = /^src\/(shadow|reproduce|document|compare|conformance)\/|^src\/inspector\/(?!(index|path)\.ts$)/;

/** The sources a loaded file stands for: a bundle file's source map's, else the file itself (repository-relative). */
function sourcesOf(file: string): string[] {
  const map = `${file}.map`;
  if (!file.startsWith(resolve(ROOT, 'dist')) || !existsSync(map)) return [relative(ROOT, file)];
  const { sources } = JSON.parse(readFileSync(map, 'utf8')) as { sources: string[] };
  return sources.map((s) => relative(ROOT, resolve(dirname(map), s)));
}

interface Step {
  step: keyof typeof LAZY | 'first';
  status: number;
  sources: string[];
}

async function probe(format: 'esm' | 'cjs'): Promise<Step[]> {
  const { stdout } = await promisify(execFile)(process.execPath, [PROBE], { cwd: ROOT, env: { ...process.env, FORMAT: format } });
  return stdout
    .trim()
    .split('\n')
    .map((line) => {
      const { step, status, files } = JSON.parse(line) as { step: Step['step']; status: number; files: string[] };
      return { step, status, sources: [...new Set(files.flatMap(sourcesOf))].sort() };
    });
}

const has = (sources: string[], path: string) => sources.some((s) => s.startsWith(path));

for (const format of ['esm', 'cjs'] as const) {
  test(`${format}: the first mock loads none of the capabilities it does not use, and each loads at its first use`, async () => {
    const entry = format === 'esm' ? 'dist/index.js' : 'dist/index.cjs';
    if (!existsSync(resolve(ROOT, entry))) assert.unreachable(`${entry} is missing: run npm run build`);
    const steps = await probe(format);
    assert.equal(
      steps.map((s) => [s.step, s.status]),
      [
        ['first', 200],
        ['koa', 200],
        ['inject', 200],
        ['cron', 200],
        ['document', 200],
        ['inspector', 200],
        ['reproduce', 200],
        ['shadow', 200],
      ],
    );
    const [first] = steps;
    // The list is read through the maps: the assembly and the routes are in it.
    for (const core of ['src/app.ts', 'src/mock.ts', 'src/routes/control-ui.ts', 'src/inspector/path.ts', 'src/fast-path.ts'])
      assert.ok(has(first.sources, core), `${core} is loaded by the first mock`);
    assert.equal(
      first.sources.filter(
        (s) =>
          FOLDERS.test(s) ||
          NEVER.some((n) => s.startsWith(n)) ||
          Object.values(LAZY)
            .flat()
            .some((l) => s.startsWith(l)),
      ),
      [],
      'the first mock loaded these',
    );
    // Each step loads its own capability, and nothing of the ones after it.
    const order = Object.keys(LAZY) as (keyof typeof LAZY)[];
    for (const [i, name] of order.entries()) {
      const { sources } = steps[i + 1];
      assert.is(steps[i + 1].step, name);
      for (const path of LAZY[name]) assert.ok(has(sources, path), `${name}: ${path} is loaded once used`);
      for (const later of order.slice(i + 1)) for (const path of LAZY[later]) assert.not.ok(has(sources, path), `${name}: ${path} is not loaded yet`);
      for (const path of NEVER) assert.not.ok(has(sources, path), `${name}: ${path} is never loaded`);
    }
  });
}

test('cli: prom-client is loaded at the first scrape of /_mock/metrics, not at start nor by a v3 answer', async () => {
  const cli = await startCli(['--port', '0', '--memory'], 10_000, { NODE_OPTIONS: `--require ${PRELOAD}` });
  try {
    /** The CommonJS modules the CLI process holds now. */
    const loaded = async (): Promise<string[]> => {
      const before = cli.stderr().split('LOADED ').length;
      cli.proc.kill('SIGUSR2');
      for (let i = 0; i < 200 && cli.stderr().split('LOADED ').length === before; i++) await new Promise((r) => setTimeout(r, 10));
      return JSON.parse(cli.stderr().split('LOADED ').at(-1)!.split('\n')[0]) as string[];
    };
    const res = await fetch(`${cli.url}/api/v3/projects/fe1868ee-d60e-4ce6-8db0-f4a764225229/jobs`, {
      headers: { authorization: 'Bearer demo-owner-token' },
    });
    assert.is(res.status, 200);
    await res.arrayBuffer();
    const prom = (files: string[]) => files.filter((f) => f.includes(`node_modules/prom-client/`));
    assert.equal(prom(await loaded()), []);
    const metrics = await fetch(`${cli.url}/_mock/metrics`);
    assert.is(metrics.status, 200);
    assert.match(await metrics.text(), /^# HELP prm_requests_total /m);
    assert.ok(prom(await loaded()).includes(resolve(ROOT, 'node_modules/prom-client/index.js')), 'prom-client is loaded once scraped');
  } finally {
    await cli.stop();
  }
});

test.run();
