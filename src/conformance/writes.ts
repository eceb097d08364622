// The writes (only with --write, only on --disposable-project): a budget PUT that names no new value, a deny of an
// approval the probe finds pending, a cancel of a run it finds cancellable. Each says what it will do before it does it.
import { compareAnswers } from './compare.js';
import { bearer, JSON_HEADERS, type Probe, type ProbeVerdict, type Side } from './probe.js';
import { CANCELLABLE } from '../domain/run-lifecycle.js';

const REASON = 'conformance probe';
const cancellable = new Set<string>(CANCELLABLE);
const on = (side: Side) => `/api/v3/projects/${encodeURIComponent(side.disposable ?? '')}`;
const post = (side: Side, method: string, path: string, body: unknown) =>
  side.send({ method, path: `${on(side)}${path}`, headers: { ...bearer(side), ...JSON_HEADERS }, body: JSON.stringify(body) });
const get = (side: Side, path: string) => side.send({ method: 'GET', path: `${on(side)}${path}`, headers: bearer(side) });

/** Both sides' first record that `find` accepts, then the same write on each; not comparable when a side has none. */
function write(
  name: string,
  operation: string,
  says: string,
  find: (side: Side) => Promise<string | undefined>,
  act: (side: Side, id: string) => Promise<import('../compare/index.js').Answer>,
): Probe {
  return {
    name: `${operation}: ${name}`,
    operation,
    group: 'write',
    says,
    async run(mock, target): Promise<ProbeVerdict> {
      const [m, t] = await Promise.all([find(mock), find(target)]);
      if (t === undefined || m === undefined)
        return { outcome: 'not comparable', reason: `nothing to ${name} on the ${t === undefined ? 'target' : 'mock'}'s disposable project` };
      const [ma, ta] = await Promise.all([act(mock, m), act(target, t)]);
      return { outcome: 'compared', ...compareAnswers(operation, ma, ta), statuses: [ma.status, ta.status] };
    },
  };
}

async function pendingApproval(side: Side): Promise<string | undefined> {
  const a = await get(side, '/approvals?status=pending&limit=200');
  const list = (a.body as { items?: { approval_id?: unknown }[] } | null)?.items;
  const id = a.status === 200 && Array.isArray(list) ? list.find((x) => typeof x.approval_id === 'string')?.approval_id : undefined;
  return id as string | undefined;
}

/** A run the service names on an approval of the project (the v3 API lists no runs) and answers as cancellable. */
async function cancellableRun(side: Side): Promise<string | undefined> {
  const a = await get(side, '/approvals?limit=200');
  const list = (a.body as { items?: { run_id?: unknown }[] } | null)?.items ?? [];
  for (const runId of new Set(list.map((x) => x.run_id).filter((x): x is string => typeof x === 'string'))) {
    const run = await get(side, `/runs/${encodeURIComponent(runId)}`);
    if (run.status === 200 && cancellable.has(String((run.body as { status?: unknown }).status))) return runId;
  }
  return undefined;
}

/** The writes, in the order they run: the deny first (its run goes back to the queue, cancellable), then the cancel. */
export function writeCatalogue(): Probe[] {
  return [
    write(
      'set to its current values',
      'setBudget',
      'PUT the budget of the disposable project with an empty body: no limit or mode changes (runtime_config_epoch moves by one)',
      async (side) => (side.disposable ? 'budget' : undefined),
      (side) => post(side, 'PUT', '/budget', {}),
    ),
    write(
      'deny a pending approval',
      'denyApproval',
      'deny the first pending approval found on the disposable project (its run, if waiting, is queued again)',
      pendingApproval,
      (side, id) => post(side, 'POST', `/approvals/${encodeURIComponent(id)}/deny`, { reason: REASON }),
    ),
    write(
      'cancel a cancellable run',
      'cancelRun',
      'cancel the first cancellable run an approval of the disposable project names (with its pending steps and approvals)',
      cancellableRun,
      (side, id) => post(side, 'POST', `/runs/${encodeURIComponent(id)}/cancel`, { reason: REASON }),
    ),
  ];
}
