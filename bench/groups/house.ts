// Group house: today's build against the last commit before the redesign step (layers, composed parts, time read through
// the transaction), in one run: GET run detail over HTTP, cancels in batches, mock.fetch per request in process, and GET
// run detail round-robin over 100 sandboxes. Each row runs the same load on both builds, interleaved, so what the step
// cost shows as a ratio; the older build is made once by lib/pinned.ts and reused.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { RUN, writeFixture } from '../lib/data.js';
import { AUTH, POOL, POOL_BATCH, poolCancels, rps, runPath, sandboxRoundRobin } from '../lib/load.js';
import { cpuTimes, perRequest } from '../lib/per-request.js';
import { pinnedPackage } from '../lib/pinned.js';
import { ab, pair, us } from '../lib/ab.js';
import { bad, fmt, report, reportThroughput } from '../lib/report.js';
import { ROOT, type Server } from '../lib/servers.js';

/** The last commit before the redesign step. Its CLI takes the flags used here, its control routes (/_mock/reset,
 * /_mock/sandboxes) and sandbox paths (/sandboxes/{id}/...) are today's, and its package exports createApp and demoFixture. */
export const BEFORE = '890fb10';

/** What the in-process row uses of either build's package. */
interface Package {
  createApp(options: { storage: 'memory'; fixtures: unknown; log?: (line: string) => void }): Promise<{
    fetch(path: string, init: RequestInit): Promise<Response>;
    close(): Promise<void>;
  }>;
  demoFixture(): unknown;
}

const say = (line: string) => process.stderr.write(`  house: ${line}\n`);

/** Said in a row's note when the two builds answer different bodies (their demos differ): the sizes, since a row compares bytes too. */
async function sameAnswer(before: Server, now: Server, path: string): Promise<string | undefined> {
  const [a, b] = await Promise.all([before, now].map(async (s) => (await fetch(s.url + path, { headers: AUTH })).text()));
  return a === b ? undefined : `the two builds answer different bodies (${a.length} bytes before, ${b.length} now)`;
}

/** b-h: GET run detail with bearer auth, memory, each build's demo (row b's request). */
async function detail() {
  say(`GET run detail over HTTP, ${BEFORE} against today's build`);
  const [before, now, stop] = await pair(BEFORE, '--memory');
  const differ = await sameAnswer(before, now, runPath(RUN));
  const r = await ab(before, now, { url: before.url, path: runPath(RUN), headers: AUTH }, { url: now.url, path: runPath(RUN), headers: AUTH });
  reportThroughput(
    { id: 'b-h0', what: `GET run detail, bearer auth, memory, on commit ${BEFORE} (req/s)`, rps: rps(r.base), bad: bad(r.base) },
    { id: 'b-h', what: `GET run detail, bearer auth, memory, against commit ${BEFORE} (req/s)`, rps: rps(r.subject), bad: bad(r.subject) },
    1.0,
    differ ? `${r.cpu}; ${differ}` : r.cpu,
  );
  await stop();
}

/** c-h: cancels of queued runs in batches, the pool brought back by POST /_mock/reset between batches (row c's load). */
async function cancels() {
  say(`cancels in batches, ${BEFORE} against today's build`);
  const [before, now, stop] = await pair(BEFORE, '--memory', '--fixtures', writeFixture('fixture-pool.json', { runs: POOL }));
  const r = await ab(before, now, poolCancels(before.url), poolCancels(now.url));
  const note = `${r.cpu}, resets aside; batches of ${POOL_BATCH} cancels, the pool of ${POOL} queued runs reset between batches (untimed)`;
  reportThroughput(
    { id: 'c-h0', what: `cancel of a queued run, memory, on commit ${BEFORE} (req/s)`, rps: rps(r.base), bad: bad(r.base) },
    { id: 'c-h', what: `cancel of a queued run, memory, against commit ${BEFORE} (req/s)`, rps: rps(r.subject), bad: bad(r.subject) },
    1.0,
    r.base.bad || r.subject.bad ? `${note}; refused cancels make the ratio meaningless` : note,
  );
  await stop();
}

/** sb3-h: GET run detail spread round-robin over 100 sandboxes of the demo on each build (row sb3's load). */
async function sandboxes() {
  say(`GET run detail over 100 sandboxes, ${BEFORE} against today's build`);
  const [before, now, stop] = await pair(BEFORE, '--memory', '--simulation', 'off', '--max-sandboxes', '2000');
  const [pathBefore, pathNow] = [await sandboxRoundRobin(before.url, 100), await sandboxRoundRobin(now.url, 100)];
  const r = await ab(before, now, { url: before.url, path: pathBefore, headers: AUTH }, { url: now.url, path: pathNow, headers: AUTH });
  reportThroughput(
    { id: 'sb3-h0', what: `GET run detail round-robin over 100 sandboxes, on commit ${BEFORE} (req/s)`, rps: rps(r.base), bad: bad(r.base) },
    { id: 'sb3-h', what: `GET run detail round-robin over 100 sandboxes, against commit ${BEFORE} (req/s)`, rps: rps(r.subject), bad: bad(r.subject) },
    1.0,
    r.cpu,
  );
  await stop();
}

/**
 * i1-h: mock.fetch GET run detail per request, both builds' packages (dist/index.js) in this one process, alternating
 * batches: the same heap, JIT and machine load weigh on both (two processes would each have their own).
 */
async function inProcess() {
  say(`mock.fetch per request in process, ${BEFORE} against today's build`);
  const today = join(ROOT, 'dist', 'index.js');
  if (!existsSync(today)) throw new Error('house: dist/index.js is missing; npm run build first');
  const [before, now] = await Promise.all([pinnedPackage<Package>(BEFORE), import(pathToFileURL(today).href) as Promise<Package>]);
  const [mockBefore, mockNow] = await Promise.all([before, now].map((p) => p.createApp({ storage: 'memory', fixtures: p.demoFixture(), log: () => {} })));
  const path = runPath(RUN);
  const one = (mock: typeof mockNow, length: number) => async () => {
    const r = await mock.fetch(path, { headers: AUTH });
    if (r.status !== 200 || (await r.text()).length !== length) throw new Error(`house: mock.fetch answered ${r.status}`);
  };
  const [textBefore, textNow] = await Promise.all([mockBefore, mockNow].map(async (m) => (await m.fetch(path, { headers: AUTH })).text()));
  const t = await perRequest({ before: one(mockBefore, textBefore.length), now: one(mockNow, textNow.length) }, 200);
  const differ = textBefore === textNow ? '' : `; the two builds answer different bodies (${textBefore.length} bytes before, ${textNow.length} now)`;
  report({
    id: 'i1-h0',
    what: `mock.fetch GET run detail on commit ${BEFORE} (per request)`,
    value: us(t.before),
    baseline: '',
    ratio: '',
    target: 'baseline',
    met: null,
  });
  report({
    id: 'i1-h',
    what: `mock.fetch GET run detail against commit ${BEFORE} (per request)`,
    value: us(t.now),
    baseline: us(t.before),
    ratio: `${fmt(t.now / t.before, 2)} x i1-h0`,
    target: '<= 1.0 x i1-h0',
    met: t.now <= t.before,
    note: `CPU per request ${us(cpuTimes.now)} against ${us(cpuTimes.before)} (${fmt(cpuTimes.now / cpuTimes.before, 2)} x)${differ}`,
  });
  await Promise.all([mockBefore.close(), mockNow.close()]);
}

export async function houseGroup() {
  await inProcess();
  await detail();
  await cancels();
  await sandboxes();
}
