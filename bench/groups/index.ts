// Every benchmark group, in the order `npm run bench` runs them; add a group as one line here and one file beside this one.
import { inProcess } from './in-process.js';
import { readThroughput } from './read-throughput.js';
import { memoryWrites } from './memory-writes.js';
import { lastPage } from './last-page.js';
import { fileWrites } from './file-writes.js';
import { startTimes } from './start-times.js';
import { memory } from './rss.js';
import { storageLoads, storageWrites } from './storage.js';
import { requestPath } from './request-path.js';
import { simulationRun } from './simulation.js';
import { postgresGroup } from './postgres.js';
import { faultsGroup } from './faults.js';
import { reproduceGroup } from './reproduce.js';
import { coldStart } from './cold-start.js';
import { sandboxesGroup } from './sandboxes.js';
import { conformanceGroup } from './conformance.js';
import { shadowGroup } from './shadow.js';
import { containerGroup } from './container.js';
import { sandboxWritesOnPostgres } from './postgres-sandbox-writes.js';
import { timelineGroup } from './timeline.js';
import { BEFORE, houseGroup } from './house.js';
import { PRIOR, priorGroup } from './prior.js';
import { UNHELD, idleGroup } from './idle.js';

export interface Group {
  /** The name `node --import tsx bench/run.ts <name> ...` selects it by. */
  name: string;
  what: string;
  run(): Promise<void>;
  /**
   * Runs in a process of its own: its figures are per-request times in this process, and the heap earlier groups leave
   * behind (a thousand createApp calls, loaded fixtures) makes every collection slower, more so for the side that
   * allocates more.
   */
  fresh?: true;
}

export const GROUPS: Group[] = [
  { name: 'f', what: 'in-process createApp and restore', run: inProcess },
  { name: 'cold', what: 'a fresh process to its first answered mock.fetch vs msw', run: coldStart },
  { name: 'ab', what: 'GET run detail vs bare Koa, json-server, raw node:http and a pinned older commit', run: readThroughput },
  { name: 'idle', what: `GET run detail after an idle spell's full collections, against commit ${UNHELD}`, run: idleGroup },
  { name: 'i', what: 'in-process fetch, inject and interception per request', run: requestPath, fresh: true },
  { name: 'c', what: 'memory-mode cancels vs bare Koa + koa-body', run: memoryWrites },
  { name: 'e', what: 'first vs last page of 100k users', run: lastPage },
  { name: 'd', what: 'JSON-file cancels vs json-server, 10k and 100k', run: async () => (await fileWrites(10_000), await fileWrites(100_000)) },
  { name: 'g', what: 'spawn to first response vs bare Koa', run: startTimes },
  { name: 'img', what: 'container image (podman) start to first response vs the CLI on the host', run: containerGroup },
  // h reads the 100k data file that d leaves behind.
  { name: 'h', what: 'RSS with 100k runs', run: () => memory() },
  { name: 's', what: 'PUT budget at 1k/100k/1M stored runs (memory, JSON file), fdatasync vs memory and json-server, lone latency', run: storageWrites },
  { name: 'l', what: 'start on data files of 1M and 2M runs: time and peak RSS', run: storageLoads },
  { name: 'm', what: '30 days of the demo simulated in one simulation/run (memory), with and without retention', run: simulationRun },
  { name: 'flt', what: 'GET run detail with 50 faults for other routes vs none', run: faultsGroup },
  { name: 'r', what: 'client report over a full journal; repro bundles of 100k runs vs GET/PUT /_mock/state', run: reproduceGroup },
  {
    name: 'sb',
    what: 'sandboxes: create over HTTP, in process and on PostgreSQL, RSS of 1,000, GET run detail over 100 vs the root',
    run: sandboxesGroup,
  },
  {
    name: 'house',
    what: `the redesign step A/B: GET run detail, cancels, mock.fetch per request, GET over 100 sandboxes, against commit ${BEFORE}`,
    run: houseGroup,
    fresh: true,
  },
  { name: 'conf', what: 'conformance: the full read-only catalogue against a local mock (CLI start to exit)', run: conformanceGroup },
  { name: 'shadow', what: 'GET run detail with --shadow to a local target vs without', run: shadowGroup },
  { name: 'tl', what: 'the inspector Timeline: GET /_mock/timeline over 30 simulated days; first paint with the Timeline vs Requests', run: timelineGroup },
  { name: 'pg', what: 'PostgreSQL instances vs memory mode: reads, writes, 1 to 3 instances', run: postgresGroup },
  {
    name: 'prior',
    what: `the rows to be no worse than in the last full run before the work on speed: cancels, and reads and cancels on PostgreSQL, against commit ${PRIOR}`,
    run: priorGroup,
  },
  { name: 'pgsb', what: 'PostgreSQL: writes spread over 30 sandboxes, 3 instances vs 1', run: sandboxWritesOnPostgres },
];
