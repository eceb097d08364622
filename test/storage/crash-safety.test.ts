// Crash safety of the built CLI on a JSON data file: SIGKILL in the middle of a burst of writes, then restart on
// the same file; the file parses and holds every write that was acknowledged. Also: slow clients are cut off.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { existsSync, mkdtempSync, readdirSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { runCliToExit, startCli } from '../helpers/cli.js';
import { DEMO } from '../helpers/demo.js';
import { JsonFileAdapter } from '../../src/storage/adapters.js';

const P = DEMO.projects.support;
const FAILED_BACKGROUND = [DEMO.runs.failedBackground, DEMO.runs.failedBackground2];
const headers = { Authorization: `Bearer ${DEMO.tokens.owner}`, 'Content-Type': 'application/json' };
const tmpFile = () => join(mkdtempSync(join(tmpdir(), 'prm-crash-')), 'db.json');

interface StoredRun {
  id: string;
  status: string;
}
/** The runs stored in `file` as a restart loads them: the snapshot, then the log replayed. */
const runsIn = async (file: string): Promise<Map<string, StoredRun>> =>
  new Map(((await new JsonFileAdapter(file, { report: {} }).read())!.state.runs as StoredRun[]).map((r) => [r.id, r]));

test('crash safety: SIGKILL mid-burst, restart on the same file: every acknowledged write is there', async () => {
  const file = tmpFile();
  const cli = await startCli(['--port', '0', '--data', file]);
  const created = new Set<string>(); // retries answered 201: a new queued run
  const cancelled = new Set<string>(); // cancels answered 200
  let killed = false;
  // 16 workers in a loop: retry a failed background run (a new run), then cancel that new run.
  const worker = async (w: number) => {
    while (!killed) {
      try {
        const retry = await fetch(`${cli.url}/api/v3/projects/${P}/runs/${FAILED_BACKGROUND[w % 2]}/retry`, {
          method: 'POST',
          headers,
          body: '{"reason":"crash test"}',
        });
        if (retry.status !== 201) throw new Error(`retry answered ${retry.status}`);
        const run = (await retry.json()) as { id: string };
        created.add(run.id);
        const cancel = await fetch(`${cli.url}/api/v3/projects/${P}/runs/${run.id}/cancel`, { method: 'POST', headers, body: '{}' });
        if (cancel.status !== 200) throw new Error(`cancel answered ${cancel.status}`);
        await cancel.arrayBuffer();
        cancelled.add(run.id);
      } catch (err) {
        if (!killed) throw err;
      }
    }
  };
  const workers = Array.from({ length: 16 }, (_, w) => worker(w));
  while (created.size + cancelled.size < 60) await new Promise((r) => setTimeout(r, 5));
  cli.proc.kill('SIGKILL'); // requests are in flight: some were applied and not yet answered
  killed = true;
  await Promise.all(workers);
  assert.ok(cancelled.size > 0, 'no cancel was acknowledged before the kill');

  // The snapshot and its log load (a torn last line is ignored) and hold every acknowledged write.
  const stored = await runsIn(file);
  for (const id of created) assert.ok(stored.has(id), `acknowledged retry ${id} is not in the file`);
  for (const id of cancelled) assert.is(stored.get(id)?.status, 'cancelled', `acknowledged cancel of ${id} is not in the file`);

  // A restart on the same file takes over the dead process's lock and serves those writes.
  const again = await startCli(['--port', '0', '--data', file]);
  try {
    for (const id of [...cancelled].slice(0, 5)) {
      const res = await fetch(`${again.url}/api/v3/projects/${P}/runs/${id}`, { headers });
      assert.is(res.status, 200);
      assert.is(((await res.json()) as StoredRun).status, 'cancelled');
    }
  } finally {
    assert.is(await again.stop(), 0);
  }
});

test('crash safety: SIGKILL while the log is being compacted, restart: every acknowledged write is there', async () => {
  const file = tmpFile();
  const tmp = join(dirname(file), `.${basename(file)}.compacting.tmp`);
  const cli = await startCli(['--port', '0', '--data', file]);
  const acked: string[] = [];
  let killed = false;
  // Runs with 200 KB of metadata: the log passes its 8 MiB threshold after some 40 of them, and compaction starts.
  const metadata = { note: 'x'.repeat(200_000) };
  const worker = async () => {
    while (!killed) {
      try {
        const res = await fetch(`${cli.url}/_mock/projects/${P}/runs`, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json' },
          body: JSON.stringify({ status: 'queued', request_metadata: metadata }),
        });
        if (res.status !== 200) throw new Error(`create answered ${res.status}`);
        acked.push(((await res.json()) as { id: string }).id);
      } catch (err) {
        if (!killed) throw err;
      }
    }
  };
  const workers = Array.from({ length: 4 }, worker);
  const deadline = Date.now() + 60_000;
  while (!existsSync(tmp) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 1));
  const sawCompaction = existsSync(tmp);
  cli.proc.kill('SIGKILL');
  killed = true;
  await Promise.all(workers);
  assert.ok(sawCompaction, 'no compaction started within 60 s');
  assert.ok(acked.length > 30);
  const stored = await runsIn(file);
  for (const id of acked) assert.ok(stored.has(id), `acknowledged run ${id} is missing after the restart`);
  const again = await startCli(['--port', '0', '--data', file]);
  try {
    const res = await fetch(`${again.url}/api/v3/projects/${P}/runs/${acked[acked.length - 1]}`, { headers });
    assert.is(res.status, 200);
  } finally {
    assert.is(await again.stop(), 0);
  }
  assert.equal(readdirSync(dirname(file)), ['db.json'], 'a clean stop leaves the JSON file alone');
});

/** Opens a raw socket, writes `first`, then trickles `drip` every 100 ms; resolves with what the server sent and when it closed. */
/** At most this many drips (a minute at one per 100 ms) before the test gives up: far beyond any timeout under test. */
const MAX_DRIPS = 600;

/**
 * Sends `first`, then `drip` every 100 ms, so the request never completes, until the server closes the connection.
 * Deterministic under load: nothing is measured against the wall clock; the only bound is the number of drips sent.
 */
function slowClient(url: string, first: string, drip: string): Promise<{ answer: string; drips: number }> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname, () => socket.write(first));
    let answer = '';
    let drips = 0;
    const timer = setInterval(() => {
      if (++drips > MAX_DRIPS) {
        clearInterval(timer);
        socket.destroy();
        reject(new Error(`the server kept a slow client through ${MAX_DRIPS} drips`));
      } else if (socket.writable) socket.write(drip);
    }, 100);
    socket.on('data', (c) => (answer += c));
    socket.on('error', () => {}); // a reset after the 408 is fine
    socket.on('close', () => {
      clearInterval(timer);
      resolve({ answer, drips });
    });
  });
}

test('limits: the standalone server cuts off clients that send headers or bodies too slowly', async () => {
  const cli = await startCli(['--port', '0', '--memory', '--headers-timeout-ms', '400', '--request-timeout-ms', '800']);
  try {
    // Headers that never end (no blank line): cut off by the headers timeout with 408, whatever the load.
    const headersSlow = await slowClient(cli.url, 'GET /_mock/health HTTP/1.1\r\nHost: x\r\n', 'X-Slow: 1\r\n');
    assert.match(headersSlow.answer, /^HTTP\/1\.1 408 Request Timeout\r\n/, JSON.stringify(headersSlow));

    // A body that can never be complete (a megabyte announced, under the body limit; a byte per drip): cut off by the request timeout with 408.
    const bodySlow = await slowClient(
      cli.url,
      `POST /api/v3/projects/${P}/runs/${DEMO.runs.waitingApproval}/cancel HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${DEMO.tokens.owner}\r\nContent-Type: application/json\r\nContent-Length: 1000000\r\n\r\n{`,
      ' ',
    );
    assert.match(bodySlow.answer, /^HTTP\/1\.1 408 Request Timeout\r\n/, JSON.stringify(bodySlow));

    // The server still answers others, and the cut-off cancel changed nothing.
    assert.is((await fetch(`${cli.url}/_mock/health`)).status, 200);
    const run = await fetch(`${cli.url}/api/v3/projects/${P}/runs/${DEMO.runs.waitingApproval}`, { headers });
    assert.is(((await run.json()) as { status: string }).status, 'waiting_approval');
  } finally {
    assert.is(await cli.stop(), 0);
  }
});

test('limits: bad timeout flags exit 2', async () => {
  const { code, stderr } = await runCliToExit(['--memory', '--headers-timeout-ms', '500', '--request-timeout-ms', '100']);
  assert.is(code, 2);
  assert.match(stderr, /--request-timeout-ms/);
});

test.run();
