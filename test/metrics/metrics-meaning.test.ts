// What each figure of /_mock/metrics means at its edges: histogram buckets (a value on a bound counts in that bound's
// bucket, one past the top only in +Inf), sums, status classes, fault kinds, durations in seconds and shadow counts.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createApp } from '../../src/app.js';
import { demoFixture } from '../../src/fixtures.js';
import { ScopeCells } from '../../src/metrics/index.js';
import { ServerCells } from '../../src/metrics/cells.js';
import { exposition, type MetricSources } from '../../src/metrics/exposition.js';
import { DEMO } from '../helpers/demo.js';
import { parsePrometheus, series } from '../helpers/prometheus.js';

const RUN = `/api/v3/projects/${DEMO.projects.support}/runs/${DEMO.runs.waitingApproval}`;
const OWNER = { authorization: `Bearer ${DEMO.tokens.owner}` };
const NO_SOURCES: MetricSources = { journal: () => ({ entries: 0, bytes: 0 }), shadow: () => null };

/** The text format of hand-filled cells, parsed (strictly: cumulative buckets, +Inf equal to the count). */
async function scrapeCells(fill: (root: ScopeCells) => void, sources = NO_SOURCES) {
  const root = new ScopeCells('default', ['getRun']);
  fill(root);
  return parsePrometheus(await exposition([root], new ServerCells(), sources).metrics());
}

test('commit group sizes: a size on a bound counts in its bucket, one past it in the next, past the top (256) only in +Inf; sum and count', async () => {
  const f = await scrapeCells((root) => {
    for (const size of [1, 2, 3, 256, 257, 1000]) root.commitGroups.observe(size);
  });
  const buckets = series(f, 'prm_commit_group_size_bucket');
  // Computed by hand, cumulative: <=1: 1; <=2: 2; <=4: 3 (3); 8..128: 3; <=256: 4; +Inf: 6.
  assert.equal(Object.fromEntries(['1', '2', '4', '8', '16', '32', '64', '128', '256', '+Inf'].map((le) => [le, buckets[`{le="${le}",scope="default"}`]])), {
    1: 1,
    2: 2,
    4: 3,
    8: 3,
    16: 3,
    32: 3,
    64: 3,
    128: 3,
    256: 4,
    '+Inf': 6,
  });
  assert.equal(series(f, 'prm_commit_group_size_sum'), { '{scope="default"}': 1 + 2 + 3 + 256 + 257 + 1000 });
  assert.equal(series(f, 'prm_commit_group_size_count'), { '{scope="default"}': 6 });
});

test('status classes: 100 is 1xx and 599 is 5xx; 99, 600 and 0 (no answer sent) count as none', async () => {
  const f = await scrapeCells((root) => {
    for (const status of [100, 199, 200, 302, 404, 599, 99, 600, 0]) root.request('getRun', status, 0.001);
    root.request('noSuchOperation', 200, 0.001); // an operation it does not know counts as none
  });
  assert.equal(series(f, 'prm_requests_total'), {
    '{scope="default",operation="getRun",status_class="none"}': 3,
    '{scope="default",operation="getRun",status_class="1xx"}': 2,
    '{scope="default",operation="getRun",status_class="2xx"}': 1,
    '{scope="default",operation="getRun",status_class="3xx"}': 1,
    '{scope="default",operation="getRun",status_class="4xx"}': 1,
    '{scope="default",operation="getRun",status_class="5xx"}': 1,
    '{scope="default",operation="none",status_class="2xx"}': 1,
  });
});

test('shadow: comparisons by outcome, and drops and skips together by reason; none of either without a shadow target', async () => {
  const shadow = { compared: 5, same: 3, drifted: 2, dropped: { queue_full: 1 }, skipped: { not_compared: 4 } };
  const f = await scrapeCells(() => {}, { ...NO_SOURCES, shadow: () => shadow });
  assert.equal(series(f, 'prm_shadow_comparisons_total'), { '{outcome="same"}': 3, '{outcome="drifted"}': 2 });
  assert.equal(series(f, 'prm_shadow_dropped_total'), { '{reason="queue_full"}': 1, '{reason="not_compared"}': 4 });
  const none = await scrapeCells(() => {});
  assert.equal([series(none, 'prm_shadow_comparisons_total'), series(none, 'prm_shadow_dropped_total')], [{}, {}]);
});

test('faults fired by kind: a rate limit, a delay and a transport fault each count under their own kind', async () => {
  const mock = await createApp({ storage: 'memory', fixtures: demoFixture(), log: () => {} });
  try {
    mock.control.addFault({ method: 'GET', path: RUN, rate_limit: { requests: 1, per_ms: 60_000 }, times: 3 });
    const statuses = [];
    for (let i = 0; i < 3; i++) statuses.push((await mock.fetch(RUN, { headers: OWNER })).status);
    assert.equal(statuses, [200, 429, 429]);
    mock.control.clearFaults();
    mock.control.addFault({ method: 'GET', path: RUN, delay_ms: 1, times: 1 });
    assert.is((await mock.fetch(RUN, { headers: OWNER })).status, 200);
    mock.control.addFault({ method: 'GET', path: RUN, transport: 'malformed_json', times: 1 });
    await (await mock.fetch(RUN, { headers: OWNER })).text();
    const f = parsePrometheus(await (await mock.fetch('/_mock/metrics')).text());
    assert.equal(series(f, 'prm_faults_fired_total'), {
      '{scope="default",kind="rate_limit"}': 2,
      '{scope="default",kind="delay"}': 1,
      '{scope="default",kind="malformed_json"}': 1,
    });
  } finally {
    await mock.close();
  }
});

test('request durations are in seconds: a request held 50 ms by a delay counts between 0.045 and 10 s (a timer may fire up to a millisecond early), in no bucket up to 0.025', async () => {
  const mock = await createApp({ storage: 'memory', fixtures: demoFixture(), log: () => {} });
  try {
    mock.control.addFault({ method: 'GET', path: RUN, delay_ms: 50, times: 1 });
    assert.is((await mock.fetch(RUN, { headers: OWNER })).status, 200);
    const f = parsePrometheus(await (await mock.fetch('/_mock/metrics')).text());
    const sum = series(f, 'prm_request_duration_seconds_sum')['{scope="default",operation="getRun"}'];
    assert.ok(sum >= 0.045 && sum < 10, String(sum));
    const buckets = series(f, 'prm_request_duration_seconds_bucket');
    assert.is(buckets['{le="0.025",scope="default",operation="getRun"}'], 0);
    assert.is(buckets['{le="10",scope="default",operation="getRun"}'], 1);
  } finally {
    await mock.close();
  }
});

test.run();
