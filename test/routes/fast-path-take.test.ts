// Which reads the fast path takes: Host headers counted by name only (two are the whole chain's 400, a value that reads Host is not one), and a v3 path in capitals left to the whole chain, which answers it alike and does not shadow it.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { Server } from 'node:http';
import { createApp } from '../../src/app.js';
import { demoFixture } from '../../src/fixtures.js';
import { DEMO } from '../helpers/demo.js';
import { shadowingMock, targetMock } from '../helpers/shadow.js';
import { closeAll, countContexts, listen, send } from '../helpers/fast-path.js';

const P = DEMO.projects.support;
const RUN = `/api/v3/projects/${P}/runs/${DEMO.runs.waitingApproval}`;
const TOKEN = `Bearer ${DEMO.tokens.owner}`;
const servers: Server[] = [];
test.after.each(() => closeAll(servers));

test('Host headers are counted by name: two (in any spelling) are refused as the whole chain refuses them, a header whose value is Host is taken', async () => {
  const mock = await createApp({ storage: 'memory', fixtures: demoFixture(), clock: () => Date.parse(DEMO.now) });
  try {
    const contexts = countContexts(mock);
    const [fast, chain] = [await listen(mock.callback()), await listen(mock.app.callback())];
    servers.push(fast, chain);
    for (const hosts of [
      ['Host', 'localhost', 'Host', 'localhost'],
      ['HOST', 'localhost', 'host', 'other.test'],
    ]) {
      const headers = [...hosts, 'Authorization', TOKEN];
      const made = contexts();
      const a = await send(fast, RUN, headers);
      assert.is(contexts(), made + 1, `${hosts.join(' ')}: left to the whole chain`);
      assert.equal(a, await send(chain, RUN, headers));
      assert.equal([a.status, JSON.parse(a.body).detail.reason_code], [400, 'host_invalid']);
      assert.match(JSON.parse(a.body).detail.message, /2 Host headers/);
    }
    const made = contexts();
    const valued = ['Host', 'localhost', 'X-Role', 'Host', 'X-Seen-By', 'host', 'Authorization', TOKEN];
    const a = await send(fast, RUN, valued);
    assert.is(contexts(), made, 'taken by the fast path');
    assert.equal(a, await send(chain, RUN, valued));
    assert.is(a.status, 200);
  } finally {
    await mock.close();
  }
});

test('shadow mode: a v3 read in capitals (/API/V3) is answered as by the whole chain and, as there, never sent to the target', async () => {
  const target = await targetMock();
  const { mock } = await shadowingMock(target);
  try {
    const contexts = countContexts(mock);
    const [fast, chain] = [await listen(mock.callback()), await listen(mock.app.callback())];
    servers.push(fast, chain);
    const upper = RUN.replace('/api/v3/', '/API/V3/');
    const a = await send(fast, upper, { Authorization: TOKEN });
    const b = await send(chain, upper, { Authorization: TOKEN });
    assert.equal(a, b);
    assert.equal([a.status, JSON.parse(a.body).id], [200, DEMO.runs.waitingApproval]);
    const report = await mock.control.drift({ settled: true });
    assert.equal([report.compared, target.sent.length], [0, 0], 'not sent to the target');
    assert.is(contexts(), 2, 'both through the whole chain');
    // The same read in lower case is taken, sent and compared.
    await send(fast, RUN, { Authorization: TOKEN });
    assert.is(contexts(), 2, 'taken by the fast path');
    assert.equal([(await mock.control.drift({ settled: true })).compared, target.sent.map((s) => s.path)], [1, [RUN]]);
  } finally {
    await mock.close();
    await target.mock.close();
  }
});

test.run();
