// What ships cites only what ships: the README, CHANGELOG, docs/, examples/, python/, the source (its comments go
// into dist/) and the served OpenAPI document never name the service's specification documents (users do not have
// them: docs/api.md says the API in our words), every Markdown file they name exists, and every link of a shipped
// page reaches a file the package holds.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, normalize, relative, resolve } from 'node:path';
import { createApp } from '../../src/index.js';
import { ROOT } from '../helpers/cli.js';

const PKG = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { files: string[] };
/** The package's own folders and files (package.json `files`, without its exclusions). */
const SHIPPED = PKG.files.filter((f) => !f.startsWith('!'));
/** The text that ships: the package's files, and the source whose comments tsc keeps in dist/. */
const ROOTS = [...SHIPPED.filter((f) => f !== 'dist' && f !== 'fixtures'), 'src'];
const TEXT = /\.(md|ts|mts|mjs|js|cjs|py|toml|ya?ml|txt)$/;

function walk(rel: string): string[] {
  const path = join(ROOT, rel);
  if (!existsSync(path)) return [];
  if (!statSync(path).isDirectory()) return TEXT.test(rel) ? [rel] : [];
  return readdirSync(path)
    .filter((name) => !/^(node_modules|__pycache__|build|\.pytest_cache|.*\.egg-info)$/.test(name))
    .flatMap((name) => walk(join(rel, name)));
}

const files = ROOTS.flatMap(walk);
const read = (rel: string) => readFileSync(join(ROOT, rel), 'utf8');

/** The service's two specification documents, by the names they go by. */
const SPEC = /interface-v3|\bCONTRACT\b/;
/** Markdown names that are not citations: files a command shown writes, or a path inside a bundle shown. */
const NOT_CITATIONS = new Set(['coverage.md', 'souls/helper.md']);

/** The spec documents a text names, as `line: text`. */
function specCitations(text: string): string[] {
  return text
    .split('\n')
    .map((line, i) => [i + 1, line] as const)
    .filter(([, line]) => SPEC.test(line))
    .map(([n, line]) => `${n}: ${line.trim().slice(0, 160)}`);
}

test('shipped text: the file list covers the docs, the recipes, the Python package and the source', () => {
  for (const f of ['README.md', 'CHANGELOG.md', 'docs/api.md', 'examples/embedding.test.mjs', 'python/pyproject.toml', 'src/document/build.ts'])
    assert.ok(files.includes(f), f);
  assert.ok(files.length > 300, `${files.length} files`);
});

test('shipped text never cites the specification documents (docs/api.md says the API in our words)', () => {
  const found = files.flatMap((f) => specCitations(read(f)).map((c) => `${f}:${c}`));
  assert.equal(found, []);
});

test('the served OpenAPI document never cites them either', async () => {
  const mock = await createApp({ storage: 'memory' });
  try {
    const doc = await (await mock.fetch('/openapi.json')).text();
    assert.ok(doc.length > 10_000);
    assert.equal(specCitations(doc.replaceAll('\\n', '\n')), []);
  } finally {
    await mock.close();
  }
});

test('the check finds a citation, by either name', () => {
  assert.equal(specCitations('a\n// the fixture (CONTRACT section 7)\nb'), ['2: // the fixture (CONTRACT section 7)']);
  assert.equal(specCitations('It follows `interface-v3.md`.'), ['1: It follows `interface-v3.md`.']);
  assert.equal(specCitations('the contract allows extra fields; a CONTRACTOR'), []);
});

test('every Markdown file shipped text names exists in the repository', () => {
  const missing: string[] = [];
  for (const f of files) {
    for (const [, name] of read(f).matchAll(/([\w./-]*[\w-]\.md)\b/g)) {
      if (NOT_CITATIONS.has(name)) continue;
      const candidates = [resolve(ROOT, dirname(f), name), resolve(ROOT, name)];
      if (!candidates.some((p) => existsSync(p))) missing.push(`${f}: ${name}`);
    }
  }
  assert.equal(missing, []);
});

test('every relative link of a shipped page reaches a file the package holds', () => {
  const inPackage = (rel: string) => SHIPPED.some((s) => rel === s || rel.startsWith(`${s}/`));
  let checked = 0;
  for (const f of files.filter((x) => x.endsWith('.md'))) {
    const text = read(f).replace(/```[\s\S]*?```/g, '');
    for (const [, target] of text.matchAll(/\]\(([^)\s#]+)(?:#[^)\s]*)?\)/g)) {
      if (/^[a-z]+:/i.test(target)) continue;
      const rel = normalize(relative(ROOT, resolve(ROOT, dirname(f), target)));
      assert.ok(existsSync(join(ROOT, rel)), `${f}: ${target} does not exist`);
      assert.ok(inPackage(rel), `${f}: ${target} (${rel}) is not in the package's files`);
      checked++;
    }
  }
  assert.ok(checked > 100, `${checked} links`);
});

test.run();
