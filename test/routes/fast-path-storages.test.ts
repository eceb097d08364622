// The fast path on every storage (memory, the JSON file, PostgreSQL): it takes a v3 read, answers as Koa's whole chain
// does, and its cached answer follows each acknowledged write at once.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createApp, type MockApp } from '../../src/app.js';
import { demoFixture } from '../../src/fixtures.js';
import { STORAGES, removeDirs } from '../helpers/storages.js';
import { dropCreated } from '../helpers/postgres.js';
import { DEMO, bearer } from '../helpers/demo.js';

const RUN_PATH = `/api/v3/projects/${DEMO.projects.support}/runs/${DEMO.runs.waitingApproval}`;
const owner = bearer(DEMO.tokens.owner);
const opened: { mock: MockApp; servers: Server[] }[] = [];
test.after(async () => {
  for (const { mock, servers } of opened.splice(0)) {
    servers.forEach((s) => s.close());
    await mock.close();
  }
  removeDirs();
  await dropCreated();
});

async function listen(listener: Parameters<typeof createServer>[1], servers: Server[]): Promise<string> {
  const server = createServer(listener);
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

async function get(base: string): Promise<{ status: number; length: string | null; body: unknown }> {
  const res = await fetch(base + RUN_PATH, { headers: owner });
  return { status: res.status, length: res.headers.get('content-length'), body: await res.json() };
}

for (const storage of STORAGES) {
  test(`${storage.name}: a read taken by the fast path answers as the whole chain, and the next read after a write shows it`, async () => {
    const mock = await createApp({ storage: storage.make(), fixtures: demoFixture(), clock: () => Date.parse(DEMO.now) });
    const servers: Server[] = [];
    opened.push({ mock, servers });
    let made = 0;
    const create = mock.app.createContext.bind(mock.app);
    mock.app.createContext = ((req, res) => (made++, create(req, res))) as typeof mock.app.createContext;
    const fast = await listen(mock.callback(), servers);
    const full = await listen(mock.app.callback(), servers);
    const before = await get(fast);
    assert.is(made, 0, 'taken by the fast path');
    assert.equal(await get(full), before);
    assert.is((before.body as { cost_usd: number }).cost_usd, 0.0093);
    for (const cost of [1.5, 2.25]) {
      await mock.store.transact((tx) => void tx.put('runs', { ...tx.get('runs', DEMO.runs.waitingApproval)!, cost_usd: cost }));
      const after = await get(fast);
      const expected = { ...(before.body as object), cost_usd: cost };
      assert.equal(after, { status: 200, length: String(Buffer.byteLength(JSON.stringify(expected))), body: expected });
      assert.equal(await get(full), after);
    }
    assert.is(made, 3, 'a context for each read through the whole chain, none for the fast path');
  });
}

test.run();
