// CHANGELOG.md names the file formats' current versions (kept true here), and a fixture of another format version is refused.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { DATA_FILE_VERSION, DATA_FILE_VERSIONS } from '../../src/schemas/state.js';
import { FIXTURE_FORMAT_VERSION } from '../../src/schemas/fixtures.js';
import { FixtureError, demoFixture, stateFromFixture } from '../../src/fixtures.js';
import { freshMock } from '../helpers/app.js';

const changelog = readFileSync(fileURLToPath(new URL('../../CHANGELOG.md', import.meta.url)), 'utf8');
const row = (name: string) => changelog.split('\n').find((l) => l.startsWith(`| ${name}`)) ?? '';

test('CHANGELOG: the current data-file and fixture format versions', () => {
  assert.match(row('data file ('), new RegExp(`^\\| data file [^|]*\\| ${DATA_FILE_VERSION} \\|`));
  // The versions this build reads: "versions 1 and 2".
  const reads = row('data file (').split('|').at(-2) ?? '';
  assert.equal(
    [...reads.matchAll(/\d+/g)].map((m) => Number(m[0])),
    [...DATA_FILE_VERSIONS],
  );
  for (const v of DATA_FILE_VERSIONS) assert.match(changelog, `**Data file, version ${v}**`);
  assert.match(row('fixture document'), new RegExp(`^\\| fixture document [^|]*\\| ${FIXTURE_FORMAT_VERSION} \\|`));
  assert.match(
    changelog,
    new RegExp(`## ${JSON.parse(readFileSync(fileURLToPath(new URL('../../package.json', import.meta.url)), 'utf8')).version.replace(/\./g, '\\.')}`),
  );
});

test('a fixture may name its format version; another version is refused, and nothing changes', async () => {
  assert.ok(stateFromFixture({ ...demoFixture(), format_version: 1 }).projects.length > 0);
  assert.throws(
    () => stateFromFixture({ format_version: 2 }),
    (err: unknown) => err instanceof FixtureError && /format_version/.test(String(err)),
  );
  const { mock, http } = await freshMock();
  const before = JSON.stringify(mock.store.toData());
  const res = await http.post('/_mock/fixtures').send({ format_version: 2, workspaces: [] });
  assert.is(res.status, 422);
  assert.equal(
    res.body.detail.map((i: { loc: unknown[] }) => i.loc),
    [['body', 'format_version']],
  );
  assert.is(JSON.stringify(mock.store.toData()), before);
  const ok = await http.post('/_mock/fixtures').send({ format_version: 1, workspaces: [] });
  assert.is(ok.status, 200);
});

test.run();
