// The conflict and rerun counters of /_mock/metrics on PostgreSQL, on requests made to conflict on purpose: a v3 write
// that ran on a state another instance had moved past counts one conflict and one rerun, and one that did not counts none.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import request from 'supertest';
import { createApp, type MockApp } from '../../../src/app.js';
import { demoFixture } from '../../../src/fixtures.js';
import { freshSchema, needsPostgres } from '../../helpers/postgres.js';
import { DEMO, bearer } from '../../helpers/demo.js';
import { postgresApps } from '../../helpers/postgres-apps.js';
import { parsePrometheus, series } from '../../helpers/prometheus.js';

needsPostgres();
const P = DEMO.projects.support;
const SALES = DEMO.projects.sales;
const { storage, app, apps } = postgresApps(test);

/** The default scope's conflicts and reruns at `mock`. */
async function counts(mock: MockApp): Promise<[number, number]> {
  const f = parsePrometheus(await (await mock.fetch('/_mock/metrics')).text());
  return [series(f, 'prm_commit_conflicts_total')['{scope="default"}'], series(f, 'prm_commit_reruns_total')['{scope="default"}']];
}

test('a v3 write run on a state another instance moved past: one conflict, one rerun, and the answer of the current state', async () => {
  const schema = freshSchema();
  // A hears no NOTIFY (no background catch-up): only its request path can make it current, so the conflict is certain.
  const quiet = storage(schema);
  quiet.watch = () => {};
  const a = await createApp({ storage: quiet, fixtures: demoFixture() });
  apps.push(a);
  const b = await app(schema);
  const put = (id: string, usd: number, token = bearer(DEMO.tokens.operator)) =>
    request(a.callback()).put(`/api/v3/projects/${id}/budget`).set(token).send({ user_daily_usd: usd });
  // B catches up before each write of its own, so its writes never find A's ahead of them.
  const byB = async (write: Parameters<typeof b.store.transact>[0]) => {
    await b.store.sync();
    await b.store.transact(write);
  };
  const setStatus = (id: string, status: 'active' | 'archived') => byB((tx) => tx.put('projects', { ...tx.get('projects', id)!, status }));
  await setStatus(SALES, 'archived');
  // Writes of A's own in a row go optimistic (no catch-up) once others are quiet; none conflicts.
  for (let i = 1; i <= 20; i++) await put(P, i).expect(200);
  assert.equal(await counts(a), [0, 0]);

  // B un-archives SALES: A's first run answers 409 on what it holds and stores nothing; the request runs once more.
  await setStatus(SALES, 'active');
  assert.is((await put(SALES, 7, bearer(DEMO.tokens.owner)).expect(200)).body.limits.user_daily_usd, 7);
  assert.equal(await counts(a), [1, 1]);

  // The next write finds nothing new: it counts nothing.
  await put(P, 21).expect(200);
  assert.equal(await counts(a), [1, 1]);
  // B counted nothing: none of its writes found A's ahead of its own head.
  assert.equal(await counts(b), [0, 0]);

  // B revokes the operator's token. A's first run writes the budget on what it holds; storing it finds B's change
  // first, so that write is refused and the request runs once more: 401, and one conflict with one rerun.
  for (let i = 22; i <= 41; i++) await put(P, i).expect(200);
  await byB((tx) => tx.put('access_tokens', { ...tx.get('access_tokens', DEMO.tokens.operator)!, revoked: true }));
  assert.is((await put(P, 99).expect(401)).body.detail.reason_code, 'token_invalid');
  assert.equal(await counts(a), [2, 2]);
  assert.equal(await counts(b), [0, 0]);
});

test.run();
