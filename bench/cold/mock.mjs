// One cold start of the mock, in a fresh process: import the package, createApp with the demo fixture, one mock.fetch.
// Prints the milliseconds from the process's first line to the answer (the bench adds the process start itself).
const t0 = performance.now();
const { createApp, demoFixture } = await import('project-runtime-mock');
const mock = await createApp({ storage: 'memory', fixtures: demoFixture() });
const res = await mock.fetch('/api/v3/projects/fe1868ee-d60e-4ce6-8db0-f4a764225229/jobs', { headers: { authorization: 'Bearer demo-owner-token' } });
const body = await res.json();
if (res.status !== 200 || !Array.isArray(body.items)) throw new Error(`cold start answered ${res.status}`);
process.stdout.write(`${JSON.stringify({ ms: performance.now() - t0, body: JSON.stringify(body) })}\n`);
