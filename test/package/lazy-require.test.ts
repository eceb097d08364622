// The bundles' own files of koa, light-my-request and croner (scripts/lazy-require.ts): the source's one createRequire
// call becomes a require of dist/<name>.cjs, which holds the package and nothing of ours; the split bundles carry no copy
// of their own and require that file from one place; the class dist/koa.cjs exports is koa's, and an app built from it
// answers as koa's does.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { resolve } from 'node:path';
import { ROOT } from '../helpers/cli.js';
import { bundledRequire } from '../../scripts/lazy-require.js';

const require = createRequire(import.meta.url);
const dist = (f: string) => resolve(ROOT, 'dist', f);
const sourcesOf = (file: string) => (JSON.parse(readFileSync(`${file}.map`, 'utf8')) as { sources: string[] }).sources;

test('the one createRequire call is rewritten, and a source without it, or with two, is refused', () => {
  const call = "createRequire(import.meta.url)('koa')";
  assert.is(bundledRequire(`const k = () => ${call} as K;`, 'koa', './koa.cjs', 'x.ts'), 'const k = () => require("./koa.cjs") as K;');
  assert.is(bundledRequire(`f(${call})`, 'koa', 'koa', 'x.ts'), 'f(require("koa"))');
  assert.throws(() => bundledRequire("require('koa')", 'koa', 'koa', 'x.ts'), /x\.ts must hold exactly one createRequire\(import\.meta\.url\)\('koa'\)/);
  assert.throws(() => bundledRequire(`${call}; ${call}`, 'koa', 'koa', 'x.ts'), /exactly one/);
});

for (const [name, main] of [
  ['koa', 'lib/application.js'],
  ['light-my-request', 'index.js'],
  ['croner', 'dist/croner.cjs'],
] as const) {
  test(`dist/${name}.cjs holds ${name} and its dependencies only, and the split bundles require it from one place each`, () => {
    if (!existsSync(dist(`${name}.cjs`))) assert.unreachable(`dist/${name}.cjs is missing: run npm run build`);
    const own = sourcesOf(dist(`${name}.cjs`));
    assert.ok(own.some((s) => s.endsWith(`node_modules/${name}/${main}`)));
    // Its entry (one line that requires the package), then packages only.
    assert.equal(
      own.filter((s) => !s.includes('node_modules/')),
      [`../lazy-require:${name}`],
    );
    for (const [entry, ext] of [
      ['index', '.js'],
      ['index', '.cjs'],
      ['cli', '.js'],
    ] as const) {
      const files = readdirSync(dist('.')).filter(
        (f) => f.startsWith(entry) && f.endsWith(ext) && (f === `${entry}${ext}` || /^[a-z]+-[\w-]+-[A-Z0-9]{8}\./.test(f)),
      );
      const requiring = files.filter((f) => readFileSync(dist(f), 'utf8').includes(`("./${name}.cjs")`));
      assert.is(requiring.length, 1, `${entry}${ext}: one file requires ./${name}.cjs (${requiring.join(', ')})`);
      const carried = files.filter((f) => existsSync(dist(`${f}.map`)) && sourcesOf(dist(f)).some((s) => s.includes(`node_modules/${name}/`)));
      assert.equal(carried, [], `${entry}${ext}: no file carries ${name}`);
    }
  });
}

test("the class dist/koa.cjs exports is koa's, and an app built from it answers as koa's does", async () => {
  const Bundled = require(dist('koa.cjs')) as typeof import('koa');
  const Real = require('koa') as typeof import('koa');
  assert.ok(Bundled !== Real, 'a copy of its own');
  const shape = (K: typeof Real) => [K.name, Object.keys(K).sort(), Object.getOwnPropertyNames(K.prototype).sort()];
  assert.equal(shape(Bundled), shape(Real));
  const answer = async (K: typeof Real) => {
    const app = new K();
    app.use((ctx) => {
      const check: (value: unknown, status: number, message: string) => void = ctx.assert;
      check(ctx.query.ok, 418, 'not ok');
      ctx.body = { path: ctx.path };
    });
    const { inject } = require('light-my-request') as typeof import('light-my-request');
    const pick = (r: import('light-my-request').Response) => [r.statusCode, r.headers['content-type'], r.body];
    return [pick(await inject(app.callback(), { url: '/a?ok=1' })), pick(await inject(app.callback(), { url: '/b' }))];
  };
  assert.equal(await answer(Bundled), await answer(Real));
  assert.equal((await answer(Bundled))[1], [418, 'text/plain; charset=utf-8', 'not ok']);
});

test.run();
