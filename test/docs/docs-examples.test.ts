// The recipes the README and docs/testing.md show are the tested files of examples/, shown whole and word for word.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { MARKER, PAGES, withExamples } from '../../scripts/doc-examples.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const read = (rel: string) => readFileSync(join(root, rel), 'utf8');
/** The pages whose code is recipes: every block of them that uses the package is an example file. */
const RECIPE_PAGES = ['README.md', 'docs/testing.md'];
const shown = (page: string) => [...read(page).matchAll(MARKER)].map((m) => m[1]);

test('docs examples: every marked block is its file, word for word (node --import tsx scripts/doc-examples.ts copies them)', () => {
  let blocks = 0;
  for (const page of PAGES) {
    blocks += shown(page).length;
    assert.equal(withExamples(page).stale, [], `${page}: blocks that differ from their file`);
  }
  assert.ok(blocks >= 6, `${blocks} marked blocks`);
});

test('docs examples: a block that differs from its file is found', () => {
  const file = 'examples/uvu.test.mjs';
  const page = `<!-- example: ${file} -->\n\`\`\`js\n${read(file).replace("'uvu/assert'", "'uvu/assert' ")}\`\`\`\n`;
  const blocks = [...page.matchAll(MARKER)];
  assert.is(blocks.length, 1);
  assert.is.not(blocks[0][3], read(file));
});

test('docs examples: every code block of the recipe pages that uses the package is a shown example', () => {
  for (const page of RECIPE_PAGES) {
    const text = read(page);
    for (const m of text.matchAll(/^```(js|ts|javascript|typescript)\n([\s\S]*?)^```$/gm)) {
      if (!/from 'project-runtime-mock(\/client)?'/.test(m[2])) continue;
      const before = text.slice(0, m.index).split('\n').at(-2) ?? '';
      assert.match(before, /^<!-- example: \S+ -->$/, `${page}: a block using the package is not an example file:\n${m[2].slice(0, 200)}`);
    }
  }
});

test('docs examples: the recipe for each runner is shown, and examples/ ships in the package', () => {
  const all = RECIPE_PAGES.flatMap(shown);
  for (const recipe of [
    'examples/embedding.test.mjs',
    'examples/vitest.test.ts',
    'examples/jest.test.mjs',
    'examples/node-test.test.mjs',
    'examples/uvu.test.mjs',
    'examples/commonjs/first-mock.js',
    'examples/commonjs/mock.test.js',
    'examples/commonjs-ts-jest/mock.test.ts',
  ]) {
    assert.ok(all.includes(recipe), `${recipe} is not shown`);
  }
  assert.ok(readdirSync(join(root, 'examples')).length >= 7);
  const pkg = JSON.parse(read('package.json')) as { files: string[] };
  assert.ok(pkg.files.includes('examples'), 'package.json files ships examples/');
});

test.run();
