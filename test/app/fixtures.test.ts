// Fixture validation: the demo loads; bad fixtures fail with the path of the bad field and write nothing.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createApp } from '../../src/app.js';
import { demoFixture, FixtureError, stateFromFixture } from '../../src/fixtures.js';
import { JsonFileAdapter } from '../../src/storage/adapters.js';

const demoCopy = () => structuredClone(demoFixture()) as Record<string, any>;

function problemsOf(fixture: unknown): string[] {
  try {
    stateFromFixture(fixture);
  } catch (err) {
    assert.instance(err, FixtureError);
    return (err as FixtureError).problems;
  }
  assert.unreachable('fixture was accepted');
  return [];
}

test('demo fixture: validates and describes every collection', () => {
  const state = stateFromFixture(demoCopy());
  assert.ok(state.projects.length >= 2);
  assert.ok(state.users.length >= 30);
  assert.ok(state.releases.length >= 3);
  assert.ok(state.releases.every((r) => r.document.schema_version === 'svc.project-release/v3'));
  const statuses = new Set(state.runs.map((r) => r.status));
  for (const s of ['queued', 'running', 'waiting_approval', 'succeeded', 'failed', 'cancelled']) assert.ok(statuses.has(s as never), s);
  assert.is(state.clock.frozen_at, '2026-11-20T12:00:00.000Z');
  assert.ok(
    state.projects.every((p) => p.head_revision_id),
    'every project has a desired-state head',
  );
});

const broken: [string, (f: Record<string, any>) => void, RegExp][] = [
  ['a bad run status', (f) => (f.runs[3].status = 'sleeping'), /^runs\[3\]\.status: /],
  ['a missing required field', (f) => delete f.users[2].created_at, /^users\[2\]\.created_at: Field required/],
  ['a non-UUID id', (f) => (f.jobs[0].id = 'job-1'), /^jobs\[0\]\.id: /],
  ['a wrong type deep inside', (f) => (f.runs[0].steps[1].sequence = 'two'), /^runs\[0\]\.steps\[1\]\.sequence: /],
  ['an unknown project reference', (f) => (f.runs[1].project_id = '00000000-0000-4000-8000-000000000000'), /^runs\[1\]\.project_id: unknown project/],
  [
    'an unknown workspace reference',
    (f) => (f.projects[0].workspace_id = '00000000-0000-4000-8000-000000000000'),
    /^projects\[0\]\.workspace_id: unknown workspace/,
  ],
  [
    "a target pointing at another project's release",
    (f) => (f.targets[0].release_id = f.releases.find((r: any) => r.project_id !== f.targets[0].project_id).id),
    /^targets\[0\]\.release_id: /,
  ],
  ['a duplicate id', (f) => (f.users[1].id = f.users[0].id), /^users\[1\]\.id: duplicate id/],
  ['an invalid desired state in a release', (f) => (f.releases[0].desired_state.agents = 'nope'), /^releases\[0\]\.desired_state: /],
  ['a non-object top level', (f) => (f.runs = {}), /^runs: /],
];

for (const [what, breakIt, line] of broken) {
  test(`bad fixture: ${what} is named by its path`, () => {
    const f = demoCopy();
    breakIt(f);
    const problems = problemsOf(f);
    assert.ok(
      problems.some((p) => line.test(p)),
      problems.join('\n'),
    );
  });
}

test('bad fixture: several problems are all reported', () => {
  const f = demoCopy();
  f.runs[0].status = 'x';
  f.users[0].status = 'y';
  const problems = problemsOf(f);
  assert.ok(problems.some((p) => p.startsWith('runs[0].status')));
  assert.ok(problems.some((p) => p.startsWith('users[0].status')));
});

test('bad fixture: createApp rejects it and writes no data file', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'prm-fixture-'));
  const file = join(dir, 'db.json');
  const f = demoCopy();
  f.runs[3].status = 'sleeping';
  try {
    await createApp({ storage: new JsonFileAdapter(file), fixtures: f });
    assert.unreachable('accepted');
  } catch (err) {
    assert.instance(err, FixtureError);
    assert.match((err as Error).message, /runs\[3\]\.status/);
  }
  assert.not.ok(existsSync(file));
});

test('empty fixture: an empty, working instance', async () => {
  const mock = await createApp({ storage: 'memory' });
  assert.is(mock.store.count('projects'), 0);
});

test('fixture: a project without releases or desired_state gets an empty head revision', () => {
  const f = demoCopy();
  const sandbox = f.projects.find((p: any) => p.slug === 'empty-sandbox');
  delete sandbox.desired_state;
  const state = stateFromFixture(f);
  const project = state.projects.find((p) => p.id === sandbox.id)!;
  const head = state.revisions.find((r) => r.revision_id === project.head_revision_id)!;
  assert.is(head.generation, 0);
  assert.equal((head.document as { agents: unknown[] }).agents, []);
});

test.run();
