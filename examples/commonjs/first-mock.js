// Recipe (CommonJS, any Node from 20.0.0): `node first-mock.js` requires the package, builds a mock with the demo
// data and asks it for a run, in process: no port, no server.
const { createApp, demoFixture } = require('project-runtime-mock');

const P = 'fe1868ee-d60e-4ce6-8db0-f4a764225229'; // the demo's Support Desk project
const RUN = '59cfeed3-439a-4dab-a2ba-fa30f52df113'; // one of its runs

async function main() {
  const mock = await createApp({ storage: 'memory', fixtures: demoFixture() });
  const res = await mock.fetch(`/api/v3/projects/${P}/runs/${RUN}`, { headers: { Authorization: 'Bearer demo-owner-token' } });
  const run = await res.json();
  console.log(`${res.status} ${run.id} ${run.status}`);
}

main().catch((err) => {
  console.error(err);
  process.exitCode = 1;
});
