// The server's shadow flags: refused combinations exit 2 naming the rule; a server shadowing another over HTTP agrees
// with it, and its token shows in no output.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { runCliToExit, startCli } from '../helpers/cli.js';
import { DEMO } from '../helpers/demo.js';

const RUN = `/api/v3/projects/${DEMO.projects.support}/runs/${DEMO.runs.failedApi}`;

test('--shadow-writes without --disposable-project is a usage error naming the rule; nothing listens', async () => {
  const r = await runCliToExit(['--memory', '--port', '0', '--shadow', 'http://127.0.0.1:9', '--shadow-writes']);
  assert.is(r.code, 2);
  assert.match(r.stderr, /--shadow-writes needs --disposable-project ID: shadow writes need a disposable project/);
  assert.not.match(r.stdout, /listening on/);
});

test('shadow flags without --shadow, an empty token, a URL that is not http(s): usage errors', async () => {
  const cases: [string[], RegExp][] = [
    [['--shadow-token', 'abc'], /--shadow-token needs --shadow URL/],
    [['--shadow-writes', '--disposable-project', DEMO.projects.sandbox], /--shadow-writes needs --shadow URL/],
    [['--disposable-project', DEMO.projects.sandbox], /--disposable-project needs --shadow URL/],
    [['--shadow', 'ftp://example.com'], /--shadow must be an http\(s\) URL, got ftp:\/\/example.com/],
    [['--shadow', 'http://x', '--shadow-token', ''], /--shadow-token must not be empty/],
  ];
  for (const [flags, message] of cases) {
    const r = await runCliToExit(['--memory', '--port', '0', ...flags]);
    assert.is(r.code, 2, flags.join(' '));
    assert.match(r.stderr, message);
  }
});

test('a server shadowing a second server from the same fixture over HTTP: zero drift, the token in no output', async () => {
  const target = await startCli(['--memory', '--port', '0', '--simulation', 'off']);
  const token = DEMO.tokens.operator;
  const mock = await startCli(['--memory', '--port', '0', '--simulation', 'off', '--shadow', target.url, '--shadow-token', token]);
  let stdout = '';
  mock.proc.stdout!.on('data', (c) => (stdout += c));
  try {
    for (let i = 0; i < 5; i++) assert.is((await fetch(`${mock.url}${RUN}`, { headers: { Authorization: `Bearer ${DEMO.tokens.owner}` } })).status, 200);
    let report: { compared: number; same: number; drifted: number; pending: number; target: { state: string } };
    do report = (await (await fetch(`${mock.url}/_mock/drift`)).json()) as typeof report;
    while (report.compared < 5);
    assert.equal([report.compared, report.same, report.drifted, report.target.state], [5, 5, 0, 'up']);
    // The target saw the operator's token (its own), not the owner's the client sent.
    const seen = (await (await fetch(`${target.url}/_mock/requests?path=/api/v3/**`)).json()) as { items: { request: { headers: Record<string, string> } }[] };
    assert.is(seen.items.length, 5);
    const journal = await (await fetch(`${mock.url}/_mock/requests`)).text();
    assert.not.ok(journal.includes(token));
  } finally {
    await mock.stop();
    await target.stop();
  }
  assert.not.ok(mock.stderr().includes(token) || stdout.includes(token), 'the shadow token in the output');
});

test.run();
