// Child of inprocess.test.ts: a tight loop of in-process requests; prints how much the heap grew (after GC) over 5,000 of them.
import { createApp } from '../../src/app.js';
import { demoFixture } from '../../src/fixtures.js';

const gc = (globalThis as { gc?: () => void }).gc!;
const path = '/api/v3/projects/fe1868ee-d60e-4ce6-8db0-f4a764225229/runs/a7072153-3dfa-470d-aaf0-be9f68012cd1';
const headers = { authorization: 'Bearer demo-owner-token' };
const mock = await createApp({ storage: 'memory', fixtures: demoFixture(), journal: { entries: 10 } });
for (let i = 0; i < 500; i++) await (await mock.fetch(path, { headers })).arrayBuffer();
gc();
const before = process.memoryUsage().heapUsed;
for (let i = 0; i < 2500; i++) await (await mock.fetch(path, { headers })).text();
for (let i = 0; i < 2500; i++) void (await mock.inject({ url: path, headers })).body;
gc();
process.stdout.write(JSON.stringify({ grownMB: (process.memoryUsage().heapUsed - before) / 1e6 }));
