// One cold start of the mock through its CommonJS build, in a fresh process: require the package, createApp with the
// demo fixture, one mock.fetch. Prints the milliseconds from the process's first line to the answer, as mock.mjs does.
const t0 = performance.now();
const { createApp, demoFixture } = require('project-runtime-mock');

createApp({ storage: 'memory', fixtures: demoFixture() })
  .then((mock) => mock.fetch('/api/v3/projects/fe1868ee-d60e-4ce6-8db0-f4a764225229/jobs', { headers: { authorization: 'Bearer demo-owner-token' } }))
  .then(async (res) => {
    const body = await res.json();
    if (res.status !== 200 || !Array.isArray(body.items)) throw new Error(`cold start answered ${res.status}`);
    process.stdout.write(`${JSON.stringify({ ms: performance.now() - t0, body: JSON.stringify(body) })}\n`);
  });
