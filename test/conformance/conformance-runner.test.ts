// The conformance runner: cursor-walk invariants, how a drift met by many probes is folded, why a probe is not
// comparable, bounded reports on a hostile target, and progress on a terminal.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { demoFixture } from '../../src/fixtures.js';
import { runConformance, type ConformanceOptions, type ConformanceReport } from '../../src/conformance/index.js';
import { conformanceCommand } from '../../src/conformance-command.js';
import { MAX_SHOWN } from '../../src/compare/index.js';
import { MAX_ANSWER_BYTES } from '../../src/conformance/probe.js';
import { driftingTarget, onGet, type Perturbation } from '../helpers/drifting-target.js';
import { DEMO } from '../helpers/demo.js';

const P = DEMO.projects.support;
const base = { token: DEMO.tokens.owner, project: P, fixtures: demoFixture() };

async function against(p: Perturbation | null, options: Partial<ConformanceOptions> = {}): Promise<ConformanceReport> {
  const target = await driftingTarget(p);
  try {
    return await runConformance({ ...base, target: target.url, ...options });
  } finally {
    await target.close();
  }
}
const differences = (r: ConformanceReport) => r.results.flatMap((x) => x.differences.map((d) => ({ probe: x.probe, ...d })));
const usersPage = (change: Perturbation['change']) => onGet(/\/users$/, 200, 'listUsers', change);

test('cursor walk: an id repeated across pages is a difference of the walk, named with the repeated ids', async () => {
  let first: unknown;
  const report = await against(
    usersPage((a) => {
      first ??= a.body.items[0];
      if (a.body.items.length) a.body.items[a.body.items.length - 1] = first;
    }),
  );
  const found = differences(report);
  assert.is(found.length, 1, JSON.stringify(found));
  assert.is(found[0].probe, 'listUsers: cursor walk (limit 2)');
  assert.is(found[0].field, 'body.items[].id (repeated across the walk)');
  assert.equal(found[0].mock, []);
  assert.ok(Array.isArray(found[0].target) && (found[0].target as string[]).every((id) => id === (first as { id: string }).id));
});

test('cursor walk: a page longer than limit is a difference of the walk, naming the pages', async () => {
  const report = await against(usersPage((a) => a.body.items.length === 2 && a.body.items.push({ ...a.body.items[0], id: crypto.randomUUID() })));
  const found = differences(report);
  assert.equal(
    found.map((d) => [d.probe, d.field]),
    [['listUsers: cursor walk (limit 2)', 'body.items (more than limit)']],
  );
  assert.equal((found[0].target as number[]).slice(0, 3), [1, 2, 3]);
});

test('folding: one drift met by many probes is reported once; two different due statuses of one operation are two', async () => {
  // 401 -> 400 and 404 -> 410 on getRun: two findings, each once, later probes pointing at them.
  const report = await against(
    onGet(/^\/api\/v3\/projects\/[^/]+\/runs\/[^/]+$/, null, 'getRun', (a) => (a.status = a.status === 401 ? 400 : a.status === 404 ? 410 : a.status)),
  );
  const found = differences(report).filter((d) => d.probe.startsWith('getRun'));
  assert.equal(
    found.map((d) => [d.field, d.mock, d.target]),
    [
      ['status', 401, 400],
      ['status', 404, 410],
    ],
  );
  assert.is(report.summary.differences, 2);
  const repeats = report.results.flatMap((x) => x.repeats);
  assert.ok(repeats.length >= 2, 'the wrong token and the order probes meet the 401 again');
  for (const r of repeats) assert.ok(found.some((f) => f.probe === r.first && f.field === r.field));
  assert.is(report.summary.different, report.results.filter((x) => x.differences.length || x.repeats.length).length);
  assert.is(report.summary.same + report.summary.different + report.summary.not_comparable, report.summary.probes);
});

test('not comparable, and why: no token, no project, nothing to deny on the target, no admin key', async () => {
  const bare = await against(null, { token: undefined, project: undefined });
  const reason = (r: ConformanceReport, probe: string) => r.results.find((x) => x.probe === probe)?.reason;
  assert.is(reason(bare, 'getRun: path run_id uuid_parsing'), 'no --token given: the probe needs credentials the target accepts');
  assert.is(reason(bare, 'listUsers: first page'), 'no --project given');
  assert.is(reason(bare, 'listUsers: cursor walk (limit 2)'), 'no --project given');
  assert.is(reason(bare, 'getUser: admin key, random ids'), 'no --admin-key given');
  assert.is(reason(bare, 'setBudget: body clear bool_parsing'), 'changes the project itself: runs only on --disposable-project');
  assert.is(bare.results.find((x) => x.probe === 'getRun: no credentials')?.outcome, 'same');
  assert.is(bare.summary.differences, 0);
  // The empty sandbox project has nothing pending and no run to cancel: the writes say so, the budget one runs.
  const empty = await against(null, { write: true, disposableProject: DEMO.projects.sandbox });
  const writes = empty.results.filter((x) => x.group === 'write');
  assert.equal(
    writes.map((w) => [w.operation, w.outcome, w.reason]),
    [
      ['setBudget', 'same', undefined],
      ['denyApproval', 'not comparable', "nothing to deny a pending approval on the target's disposable project"],
      ['cancelRun', 'not comparable', "nothing to cancel a cancellable run on the target's disposable project"],
    ],
  );
});

test('a hostile target: answers nested too deep or too long are compared as text, and every shown value is bounded', async () => {
  let deep = '"leaf"';
  for (let i = 0; i < 5000; i++) deep = `{"n":${deep}}`;
  const report = await against(
    onGet(/\/approvals\/[^/]+$/, 200, 'getApproval', (a) => {
      a.body = { ...a.body, blob: 'x'.repeat(100_000) };
    }),
  );
  const blob = report.results.flatMap((x) => x.compatible).find((d) => d.field === 'body.blob');
  assert.is(blob?.target, `"${'x'.repeat(MAX_SHOWN - 1)}…`);
  const r2 = await against(onGet(/\/jobs$/, 200, 'listJobs', (a) => (a.raw = deep)));
  const d = differences(r2).find((x) => x.probe.startsWith('listJobs'))!;
  assert.equal([d.field, d.mock], ['body', 'object']);
  assert.is((d.target as string).length, MAX_SHOWN + 1);
  const big = await against(
    onGet(/\/users$/, 200, 'listUsers', (a) => (a.raw = `{"items": [], "next_cursor": null, "pad": "${'x'.repeat(MAX_ANSWER_BYTES)}"}`)),
  );
  const cut = differences(big).find((x) => x.probe === 'listUsers: first page')!;
  assert.equal([cut.field, cut.mock, cut.target], ['body', 'object', `(an answer of more than ${MAX_ANSWER_BYTES} bytes)`]);
});

test('progress on a terminal: one overwritten line per probe on stderr, cleared before the summary', async () => {
  const target = await driftingTarget(null);
  try {
    let err = '';
    let out = '';
    const code = await conformanceCommand(
      ['--target', target.url, '--token', DEMO.tokens.owner],
      { write: (s: string) => ((out += s), true) },
      { isTTY: true, write: (s: string) => ((err += s), true) },
    );
    assert.is(code, 0);
    const total = /(\d+) probes/.exec(out)![1];
    assert.match(err, new RegExp(`^\\r\\x1b\\[K\\[1/${total}\\] `));
    assert.ok(err.includes(`[${total}/${total}] `));
    assert.ok(err.endsWith('\r\x1b[K'));
    assert.not.ok(err.includes(DEMO.tokens.owner));
  } finally {
    await target.close();
  }
});

test.run();
