// The floors of src/ hold (docs/architecture.md): dependency-cruiser checks src/, bench/ and scripts/ against
// .dependency-cruiser.mjs (imports only downward, only through a folder's index.ts, no circle, type-only imports counted).
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { test } from 'uvu';
import * as assert from 'uvu/assert';

const root = fileURLToPath(new URL('../..', import.meta.url));
const cruiser = fileURLToPath(new URL('../../node_modules/dependency-cruiser/bin/dependency-cruise.mjs', import.meta.url));

test('imports go only down the floors, through faces, with no circle', () => {
  const run = spawnSync(process.execPath, [cruiser, '--config', '.dependency-cruiser.mjs', '--output-type', 'err', 'src', 'bench', 'scripts'], {
    cwd: root,
    encoding: 'utf8',
  });
  assert.is(run.status, 0, `${run.stdout}${run.stderr}`);
});

test.run();
