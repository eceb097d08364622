// Commit figures of /_mock/metrics: conflicts per refused group and per optimistic confirm, reruns, sizes, seconds, scopes.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createApp, type MockApp } from '../../src/app.js';
import { demoFixture } from '../../src/fixtures.js';
import { ChangeSetConflict, type ChangeSet, type ChangeSetAdapter } from '../../src/storage/adapters.js';
import { MemoryAdapter } from '../../src/storage/memory.js';
import type { DataFile } from '../../src/schemas/state.js';
import { DEMO } from '../helpers/demo.js';
import { parsePrometheus, series } from '../helpers/prometheus.js';

const P = DEMO.projects.support;
const OWNER = { authorization: `Bearer ${DEMO.tokens.owner}` };
const PUT = { method: 'PUT', headers: { ...OWNER, 'content-type': 'application/json' }, body: '{"user_daily_usd":5}' };

/** The commit figures of one scope: conflicts, reruns, groups and their sizes (sum, and the buckets up to 4). */
async function commits(mock: MockApp, scope = 'default') {
  const f = parsePrometheus(await (await mock.fetch('/_mock/metrics')).text());
  const s = `{scope="${scope}"}`;
  const bucket = (le: string) => series(f, 'prm_commit_group_size_bucket')[`{le="${le}",scope="${scope}"}`];
  return {
    conflicts: series(f, 'prm_commit_conflicts_total')[s],
    reruns: series(f, 'prm_commit_reruns_total')[s],
    groups: series(f, 'prm_commit_group_size_count')[s],
    changeSets: series(f, 'prm_commit_group_size_sum')[s],
    le1: bucket('1'),
    le2: bucket('2'),
    le4: bucket('4'),
    seconds: series(f, 'prm_commit_duration_seconds_sum')[s],
    timed: series(f, 'prm_commit_duration_seconds_count')[s],
  };
}

/** `after` less `before`, figure by figure. */
const delta = <T extends Record<string, number>>(after: T, before: T) => Object.fromEntries(Object.keys(after).map((k) => [k, after[k] - before[k]])) as T;

/**
 * Change sets in one log, as a database shared by instances holds them (every instance here opens before the first
 * append, so reading the base is enough); answers a conflict `conflictsLeft` more times, and whenever its head moved.
 */
class SharedLog {
  base: DataFile | null = null;
  sets: ChangeSet[] = [];
  conflictsLeft = 0;
  get head(): number {
    return this.sets.length ? this.sets[this.sets.length - 1].seq : (this.base?.seq ?? 0);
  }
  adapter(): ChangeSetAdapter {
    return {
      read: async () => (this.base ? structuredClone(this.base) : null),
      write: async (data) => {
        this.base = structuredClone(data);
        this.sets = [];
      },
      appendChangeSets: async (group) => {
        if (this.conflictsLeft > 0 || group[0].seq !== this.head + 1) {
          this.conflictsLeft = Math.max(0, this.conflictsLeft - 1);
          throw new ChangeSetConflict();
        }
        this.sets.push(...structuredClone(group));
      },
      changesSince: async (seq) => structuredClone(this.sets.filter((s) => s.seq > seq)),
    };
  }
}

/** A transaction: the support project's budget epoch, one higher. */
const bump = (tx: Parameters<Parameters<MockApp['store']['transact']>[0]>[0]) => {
  const budget = tx.get('budgets', P)!;
  tx.put('budgets', { ...budget, runtime_config_epoch: budget.runtime_config_epoch + 1 });
};

test('a refused group while another transaction waits is one conflict and two reruns; each is then stored in a group of its own', async () => {
  const log = new SharedLog();
  const mock = await createApp({ storage: log.adapter(), fixtures: demoFixture() });
  try {
    const before = await commits(mock);
    log.conflictsLeft = 1;
    // The first is handed to storage alone and refused; the second waited. Both run again, each stored as it is run.
    await Promise.all([mock.store.transact(bump), mock.store.transact(bump)]);
    const d = delta(await commits(mock), before);
    assert.equal(
      { conflicts: d.conflicts, reruns: d.reruns, groups: d.groups, changeSets: d.changeSets, le1: d.le1, le2: d.le2 },
      { conflicts: 1, reruns: 2, groups: 2, changeSets: 2, le1: 2, le2: 2 },
    );
    assert.equal(await commits(mock, 'sandbox').then((s) => [s.conflicts, s.reruns]), [0, 0]);
  } finally {
    await mock.close();
  }
});

test('an optimistic write request that finds another instance wrote first: a conflict for its group, one when it confirms, one rerun', async () => {
  const log = new SharedLog();
  const a = await createApp({ storage: log.adapter(), fixtures: demoFixture() });
  const b = await createApp({ storage: log.adapter(), fixtures: demoFixture() });
  try {
    // Sixteen writes of its own in a row: b then runs a write request before catching up (see Store.optimism).
    for (let i = 0; i < 16; i++) assert.is((await b.fetch(`/api/v3/projects/${P}/budget`, PUT)).status, 200);
    const before = await commits(b);
    assert.equal([before.conflicts, before.reruns], [0, 0]);
    await a.store.transact(bump); // b does not know of it
    assert.is((await b.fetch(`/api/v3/projects/${P}/budget`, PUT)).status, 200);
    const d = delta(await commits(b), before);
    assert.equal({ conflicts: d.conflicts, reruns: d.reruns, groups: d.groups }, { conflicts: 2, reruns: 1, groups: 1 });
  } finally {
    await Promise.all([a.close(), b.close()]);
  }
});

/** Memory storage whose every append takes 40 ms, measured from inside (what a commit group waits for). */
class SlowMemory extends MemoryAdapter {
  readonly spans: number[] = [];
  override async appendChangeSets(group: readonly ChangeSet[], committed: Parameters<MemoryAdapter['appendChangeSets']>[1]): Promise<void> {
    const t0 = performance.now();
    await new Promise((r) => setTimeout(r, 40));
    super.appendChangeSets(group, committed);
    this.spans.push(performance.now() - t0);
  }
}

test('commit durations are in seconds, each group the time its append took; transactions waiting meanwhile are the next group', async () => {
  const adapter = new SlowMemory();
  const mock = await createApp({ storage: adapter, fixtures: demoFixture() });
  try {
    const before = await commits(mock);
    const t0 = performance.now();
    // Three at once: the first is stored alone, the two that waited for it together.
    await Promise.all([mock.store.transact(bump), mock.store.transact(bump), mock.store.transact(bump)]);
    const waited = (performance.now() - t0) / 1000;
    const d = delta(await commits(mock), before);
    assert.equal(
      { groups: d.groups, changeSets: d.changeSets, le1: d.le1, le2: d.le2, le4: d.le4, timed: d.timed },
      { groups: 2, changeSets: 3, le1: 1, le2: 2, le4: 2, timed: 2 },
    );
    // The two groups' time: at least what their appends took (measured inside them), at most the whole wait.
    const appends = (adapter.spans.at(-1)! + adapter.spans.at(-2)!) / 1000;
    assert.ok(d.seconds >= appends && d.seconds <= waited, `${d.seconds} s: appends ${appends} s, wait ${waited} s`);
  } finally {
    await mock.close();
  }
});

test('writes to a sandbox count their commit groups under scope sandbox, the default mock under default', async () => {
  const mock = await createApp({ storage: 'memory', fixtures: demoFixture() });
  try {
    const created = await mock.fetch('/_mock/sandboxes', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    const { id } = (await created.json()) as { id: string };
    const before = [await commits(mock), await commits(mock, 'sandbox')];
    for (let i = 0; i < 2; i++) assert.is((await mock.fetch(`/sandboxes/${id}/api/v3/projects/${P}/budget`, PUT)).status, 200);
    assert.is((await mock.fetch(`/api/v3/projects/${P}/budget`, PUT)).status, 200);
    const [root, sandbox] = [delta(await commits(mock), before[0]), delta(await commits(mock, 'sandbox'), before[1])];
    assert.equal([root.groups, root.changeSets, sandbox.groups, sandbox.changeSets], [1, 1, 2, 2]);
  } finally {
    await mock.close();
  }
});

test.run();
