// The bundle's lazy mime-types: the precomputed answers are mime-types' own, the facade answers every input as the real
// module does and loads it only for inputs it has not precomputed, and the built bundles (the package's and the host
// CLI's, through dist/koa.cjs) hold the tables as JSON text.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { facadeSource, KNOWN_TYPES, knownContentTypes } from '../../scripts/lazy-mime.js';

type Mime = {
  contentType(s: unknown): string | false;
  lookup(p: string): string | false;
  charset(t: string): string | false;
  extension(t: string): string | false;
};
const require = createRequire(import.meta.url);
// Every copy the bundle holds: koa's and type-is's (mime-types 3) and the one accepts brings (mime-types 2).
const copies = [...new Set(['koa', 'type-is', 'accepts'].map((dep) => createRequire(require.resolve(dep)).resolve('mime-types')))];

/** The facade for the copy at `path`, with a count of how often it required the real module. */
function facade(path: string): { mime: Mime; loads: () => number } {
  let loads = 0;
  const exports = {} as Mime;
  const load = (p: string) => {
    loads++;
    return require(p);
  };
  new Function('require', 'exports', facadeSource(path))(load, exports);
  return { mime: exports, loads: () => loads };
}

test('two copies of mime-types are bundled, and each gets its own precomputed answers', () => {
  assert.is(copies.length, 2);
  const [a, b] = copies.map((p) => knownContentTypes(p));
  for (const [i, p] of copies.entries()) {
    const real = require(p) as Mime;
    assert.equal(Object.keys([a, b][i]), [...KNOWN_TYPES]);
    for (const t of KNOWN_TYPES) assert.is([a, b][i][t], real.contentType(t), `${p}: ${t}`);
  }
  assert.equal(a, {
    json: 'application/json; charset=utf-8',
    text: 'text/plain; charset=utf-8',
    html: 'text/html; charset=utf-8',
    bin: 'application/octet-stream',
    'application/json': 'application/json; charset=utf-8',
  });
});

test('the facade answers as mime-types does, loading it only for an input it has not precomputed', () => {
  for (const p of copies) {
    const real = require(p) as Mime;
    const { mime, loads } = facade(p);
    for (const t of KNOWN_TYPES) assert.is(mime.contentType(t), real.contentType(t));
    assert.is(loads(), 0, 'the known answers need no table');
    for (const t of [
      'css',
      'png',
      'js',
      'svg',
      'foo',
      'text/css',
      'image/png',
      'application/json; charset=latin1',
      'application/x-nothing',
      'JSON',
      ' json',
      '',
      'toString',
      '__proto__',
    ])
      assert.is(mime.contentType(t), real.contentType(t), `${p}: contentType(${JSON.stringify(t)})`);
    assert.is(mime.contentType(42), real.contentType(42 as never));
    assert.is(loads(), 1, 'the real module is required once, then kept');
    for (const path of ['a.json', 'x.html', 'style.css', 'json', 'none', 'file.unknownext', ''])
      assert.is(mime.lookup(path), real.lookup(path), `${p}: lookup(${path})`);
    for (const t of ['text/html', 'application/json', 'image/png', 'nothing/else']) {
      assert.is(mime.charset(t), real.charset(t));
      assert.is(mime.extension(t), real.extension(t));
    }
  }
});

// koa's helpers hold the tables: the package's and the CLI's split bundles carry them in dist/koa.cjs (required at the
// first use of koa), and neither entry file holds one.
const dist = (name: string) => fileURLToPath(new URL(`../../dist/${name}`, import.meta.url));
test('dist/koa.cjs holds the mime tables as JSON text, not as object literals, behind the facade', () => {
  if (!existsSync(dist('koa.cjs'))) assert.unreachable('dist/koa.cjs is missing: run npm run build');
  const text = readFileSync(dist('koa.cjs'), 'utf8');
  assert.not.match(text, /"application\/1d-interleaved-parityfec": \{/);
  assert.is(text.match(/JSON\.parse\('\{"application\/1d-interleaved-parityfec"/g)?.length, 2);
  assert.is(text.match(/var KNOWN = /g)?.length, 2);
  for (const name of ['index.js', 'cli.js']) assert.not.match(readFileSync(dist(name), 'utf8'), /application\/1d-interleaved-parityfec/, name);
});

test.run();
