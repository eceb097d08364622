// A failing disk under the JSON file adapter: the group is rolled back, each request answers 503 storage_unavailable
// (envelope, Retry-After, no path), the server keeps serving, and writes recover with the disk.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { readFileSync } from 'node:fs';
import request from 'supertest';
import { createApp } from '../../src/app.js';
import { demoFixture } from '../../src/fixtures.js';
import { DataFileError, JsonFileAdapter } from '../../src/storage/adapters.js';
import { DEMO, bearer } from '../helpers/demo.js';
import { filesBeside, logLines, recorder, TestDisk, tmpDataFile } from '../helpers/disk.js';

const P = DEMO.projects.support;
const budgetPath = `/api/v3/projects/${P}/budget`;
const owner = bearer(DEMO.tokens.owner);

async function fileMock(options: { compactBytes?: number } = {}) {
  const file = tmpDataFile('prm-fail-');
  const disk = new TestDisk();
  const { lines, report } = recorder();
  const errors: unknown[] = [];
  const mock = await createApp({
    storage: new JsonFileAdapter(file, { fs: disk, report, ...options }),
    fixtures: demoFixture(),
    onError: (e) => errors.push(e),
  });
  return { file, disk, lines, errors, mock, http: request(mock.callback()) };
}

const reopen = async (file: string) => (await createApp({ storage: new JsonFileAdapter(file, { report: {} }), fixtures: {} })).store;

function assertUnavailable(res: request.Response): void {
  assert.is(res.status, 503, JSON.stringify(res.body));
  assert.equal(res.body, {
    detail: { reason_code: 'storage_unavailable', message: 'The change could not be stored, so it was not made. Try again later.', next_action: 'retry_later' },
  });
  assert.is(res.headers['retry-after'], '1');
  assert.not.match(res.text, /\/|ENOSPC|EROFS|simulated/, 'the answer names no file and no system error');
}

for (const fail of ['write', 'datasync'] as const) {
  test(`a full disk (${fail} fails): every request of the group answers 503, nothing changes, reads go on, writes recover`, async () => {
    const { file, disk, lines, errors, mock, http } = await fileMock();
    const before = mock.store.get('budgets', P)!;
    disk.fail = fail;
    const refused = await Promise.all([1, 2, 3, 4, 5].map((n) => http.put(budgetPath).set(owner).send({ user_daily_usd: n })));
    refused.forEach(assertUnavailable);
    // Reads are served, and nothing of the refused writes is visible.
    assert.is((await http.get(`/api/v3/projects/${P}/runs/${DEMO.runs.waitingApproval}`).set(owner)).status, 200);
    assert.is(mock.store.get('budgets', P), before);
    assert.is(lines.warn.length, 1, 'one warning line while the disk fails, not one per request');
    assert.match(lines.warn[0], /storage failing .*ENOSPC/);
    assert.equal(errors, [], 'a 503 is not reported as a defect');

    disk.fail = null;
    const ok = await http.put(budgetPath).set(owner).send({ user_daily_usd: 9 });
    assert.is(ok.status, 200);
    // The epoch moved by one: none of the refused writes counts.
    assert.is(ok.body.runtime_config_epoch, before.runtime_config_epoch + 1);
    assert.is(ok.body.limits.user_daily_usd, 9);
    assert.match(lines.warn[1], /storage recovered/);
    const stored = await reopen(file);
    assert.equal(stored.get('budgets', P), mock.store.get('budgets', P));
    assert.is(stored.seq, mock.store.seq);
  });
}

test('a sync that failed is not trusted: the next write starts a fresh snapshot and log', async () => {
  const { file, disk, mock, http } = await fileMock();
  await http.put(budgetPath).set(owner).send({ user_daily_usd: 1 });
  const logId = JSON.parse(readFileSync(file, 'utf8')).log_id;
  disk.fail = 'datasync';
  assertUnavailable(await http.put(budgetPath).set(owner).send({ user_daily_usd: 2 }));
  disk.fail = null;
  assert.is((await http.put(budgetPath).set(owner).send({ user_daily_usd: 3 })).status, 200);
  const doc = JSON.parse(readFileSync(file, 'utf8'));
  assert.is.not(doc.log_id, logId);
  assert.equal(doc.state.budgets.find((b: { project_id: string }) => b.project_id === P).limits.user_daily_usd, 1);
  assert.equal(
    logLines(file).map((l) => l.changes.map((c) => (c[2] as { limits: { user_daily_usd: number } }).limits.user_daily_usd)),
    [[3]],
  );
  assert.equal((await reopen(file)).get('budgets', P), mock.store.get('budgets', P));
});

test('a read-only disk refuses a whole-state write (reset to a bigger change than a diff): 503, and the state stays', async () => {
  const { file, disk, mock, http } = await fileMock();
  await http.delete(`/api/v3/projects/${P}/users/7eeec0cc-4c09-4d7b-bb90-476a4c5f5f61`).set(owner).send({ confirmation: 'delete-application-user' });
  const before = JSON.stringify(mock.store.toData());
  disk.fail = 'rename';
  disk.code = 'EROFS';
  const res = await http.post('/_mock/reset');
  assertUnavailable(res);
  assert.is(JSON.stringify(mock.store.toData()), before);
  assert.not.ok(
    filesBeside(file).some((f) => f.endsWith('.tmp')),
    'the temp snapshot is removed',
  );
  disk.fail = null;
  assert.is((await http.post('/_mock/reset')).status, 200);
  assert.is(JSON.stringify((await reopen(file)).toData()), JSON.stringify(mock.store.toData()));
});

test('a compaction that fails leaves every change in the log, warns once, and succeeds later', async () => {
  const { file, disk, lines, mock } = await fileMock({ compactBytes: 1_000 });
  disk.fail = 'write';
  disk.failOn = '.db.json.compacting.tmp';
  // The demo snapshot is about 100 KB: the log outgrows it after some 60 writes of 2 KB.
  const name = (i: number) => `w${i}${'x'.repeat(2_000)}`;
  for (let i = 0; i < 80; i++) await mock.store.transact((tx) => tx.put('workspaces', { id: crypto.randomUUID(), name: name(i) }));
  await new Promise((r) => setTimeout(r, 50));
  assert.equal(lines.warn.filter((l) => /compaction of .* failed/.test(l)).length, 1);
  assert.not.ok(filesBeside(file).some((f) => f.endsWith('.tmp')));
  assert.is(JSON.stringify((await reopen(file)).toData()), JSON.stringify(mock.store.toData()));
  disk.fail = null;
  for (let i = 0; i < 160; i++) await mock.store.transact((tx) => tx.put('workspaces', { id: crypto.randomUUID(), name: name(i) }));
  await new Promise((r) => setTimeout(r, 50));
  assert.ok(JSON.parse(readFileSync(file, 'utf8')).seq > 1, 'a later compaction went through');
  assert.is(JSON.stringify((await reopen(file)).toData()), JSON.stringify(mock.store.toData()));
});

test('a disk that refuses the first save stops start-up with one error naming the data file', async () => {
  const file = tmpDataFile('prm-fail-');
  const disk = new TestDisk();
  disk.fail = 'rename';
  disk.code = 'EROFS';
  const err = await createApp({ storage: new JsonFileAdapter(file, { fs: disk, report: {} }), fixtures: demoFixture() }).catch((e: unknown) => e);
  assert.instance(err, DataFileError);
  assert.match((err as Error).message, new RegExp(`^refusing data file ${file}: it cannot be written \\(EROFS`));
  assert.equal(filesBeside(file), []);
});

test.run();
