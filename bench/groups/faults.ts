// Group flt: GET run detail on a mock with 50 faults installed for other routes (none matching) against one with none.
// The faults are indexed by method, operation and path shape, so the request looks at none of them.
import { RUN } from '../lib/data.js';
import { AUTH, compare, rps, runPath } from '../lib/load.js';
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

export async function faultsGroup() {
  const bare = await mockServer('--memory');
  const faulted = await mockServer('--memory');
  for (const f of fiftyFaults()) {
    const res = await fetch(`${faulted.url}/_mock/faults`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(f) });
    if (res.status !== 200) throw new Error(`bench flt: a fault was refused: ${await res.text()}`);
  }
  const { base, subject } = await compare({ url: bare.url, path: runPath(RUN), headers: AUTH }, { url: faulted.url, path: runPath(RUN), headers: AUTH });
  reportThroughput(
    { id: 'flt0', what: 'GET run detail, no faults, memory (req/s)', rps: rps(base), bad: bad(base) },
    { id: 'flt', what: 'GET run detail with 50 faults installed, none matching (req/s)', rps: rps(subject), bad: bad(subject) },
    0.95,
  );
  await Promise.all([bare.stop(), faulted.stop()]);
}
