// Recipe: the mock embedded in a test, plain JavaScript on any Node 20 (the README shows this file).
import assert from 'node:assert/strict';
import { createApp, demoFixture } from 'project-runtime-mock';

const PROJECT = 'fe1868ee-d60e-4ce6-8db0-f4a764225229';
const RUN = '391206e3-21b8-4eae-b109-2fe71e9c7b14';
const mock = await createApp({ storage: 'memory', fixtures: demoFixture() });

// 1. mock.fetch: the WHATWG fetch signature, answered in process (no socket, no port).
const res = await mock.fetch(`/api/v3/projects/${PROJECT}/runs/${RUN}`, { headers: { Authorization: 'Bearer demo-owner-token' } });
assert.equal(res.status, 200);
assert.equal((await res.json()).status, 'waiting_approval');

// 2. mock.intercept: the code under test keeps its real base URL; global fetch, node:http and node:https
//    (so axios, got, node-fetch) to that origin are answered by the mock until restored.
const intercepting = mock.intercept('https://api.example.test'); // TypeScript 5.2+ on a Node with Symbol.dispose: `using _h = ...`
try {
  const yours = await fetch(`https://api.example.test/api/v3/projects/${PROJECT}/runs/${RUN}`, { headers: { Authorization: 'Bearer demo-owner-token' } });
  assert.equal((await yours.json()).id, RUN); // your client's unchanged code would make this call
} finally {
  intercepting.restore();
}
