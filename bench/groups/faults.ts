// Group flt: GET run detail on a mock with 50 faults installed for other routes (none matching) against the same mock with none.
// One server serves both sides, the faults installed before each faulted round and cleared before each bare one: two
// server processes of the same build differ by about 5 % on this machine, more than the row's margin. Rounds of one
// server in one state land at either of two speeds (about 22k and 29k req/s here, faults or none), so each side gets 6
// rounds rather than 2: with 2, one side's pair landing slow moved the ratio by a tenth.
import { RUN } from '../lib/data.js';
import { AUTH, EDGE, compare, rps, runPath } from '../lib/load.js';
import { bad, reportThroughput } from '../lib/report.js';
import { mockServer } from '../lib/servers.js';

const OTHER_OPERATIONS = [
  'cancelRun',
  'retryRun',
  'listUsers',
  'getUser',
  'listJobs',
  'listApprovals',
  'getApproval',
  'setBudget',
  'listReleases',
  'diffRelease',
];

/** Fifty faults a busy test suite might leave: by operation, by path for other methods, and GET globs of other shapes. */
function fiftyFaults(): object[] {
  const out: object[] = [];
  for (let i = 0; i < 20; i++) out.push({ match: { operation: OTHER_OPERATIONS[i % OTHER_OPERATIONS.length] }, status: 500 + (i % 4), after: i });
  for (let i = 0; i < 15; i++) out.push({ method: ['POST', 'PUT', 'DELETE'][i % 3], path: `/api/v3/**/x${i}`, status: 503 });
  for (let i = 0; i < 15; i++) out.push({ method: 'GET', path: `/api/v3/projects/*/${'x/'.repeat(i % 5)}jobs${i}`, delay_ms: 1000 });
  return out;
}

async function send(url: string, method: 'POST' | 'DELETE', body?: object) {
  const res = await fetch(`${url}/_mock/faults`, { method, headers: { 'content-type': 'application/json' }, body: body && JSON.stringify(body) });
  if (res.status !== 200) throw new Error(`bench flt: ${method} /_mock/faults answered ${res.status}: ${await res.text()}`);
  return (await res.json()) as { cleared?: number };
}

export async function faultsGroup() {
  const server = await mockServer('--memory');
  const faults = fiftyFaults();
  const load = { url: server.url, path: runPath(RUN), headers: AUTH };
  const bare = async () => {
    const { cleared } = await send(server.url, 'DELETE');
    if (cleared !== 0 && cleared !== faults.length) throw new Error(`bench flt: cleared ${cleared} faults`);
  };
  const faulted = async () => {
    await bare(); // a faulted round may follow another: exactly the 50 each time
    for (const f of faults) await send(server.url, 'POST', f);
  };
  const { base, subject } = await compare({ ...load, before: bare }, { ...load, before: faulted }, EDGE);
  reportThroughput(
    { id: 'flt0', what: 'GET run detail, no faults, memory (req/s)', rps: rps(base), bad: bad(base) },
    { id: 'flt', what: 'GET run detail, the same server with 50 faults installed, none matching (req/s)', rps: rps(subject), bad: bad(subject) },
    0.95,
  );
  await server.stop();
}
