// The cold-load probe, run in a fresh Node process on the built package: the first mock (import or require the package,
// createApp with the demo fixture, one mock.fetch), then each capability a first mock does not use (Koa's app first,
// then mock.inject's light-my-request, then croner). After each step it prints one JSON line: the step's name, the status it
// answered, and every file loaded so far (ES modules through the resolve hook, CommonJS ones from the require cache).
// FORMAT=cjs requires the CommonJS build instead of importing.
import { register, createRequire } from 'node:module';
import { MessageChannel } from 'node:worker_threads';
import { fileURLToPath } from 'node:url';

const { port1, port2 } = new MessageChannel();
const resolved = new Set();
let waiting = null;
port1.on('message', (url) => {
  resolved.add(url);
  if (url === waiting?.url) waiting.done();
});
register('./hooks.mjs', import.meta.url, { data: { port: port2 }, transferList: [port2] });

const require = createRequire(import.meta.url);
let marks = 0;
/** Every file loaded so far: a marker import is resolved after every earlier one, so the hook's messages are all in. */
async function loaded() {
  const url = `data:text/javascript,export default ${++marks}`;
  const seen = new Promise((done) => (waiting = { url, done }));
  await import(url);
  await seen;
  const esm = [...resolved].filter((u) => u.startsWith('file:')).map((u) => fileURLToPath(u));
  return [...new Set([...esm, ...Object.keys(require.cache)])].sort();
}
const step = async (name, status) => process.stdout.write(`${JSON.stringify({ step: name, status, files: await loaded() })}\n`);

const pkg = process.env.FORMAT === 'cjs' ? require('project-runtime-mock') : await import('project-runtime-mock');
const { createApp, demoFixture } = pkg;
const auth = { authorization: 'Bearer demo-owner-token' };
const mock = await createApp({ storage: 'memory', fixtures: demoFixture(), log: () => {} });
const first = await mock.fetch('/api/v3/projects/fe1868ee-d60e-4ce6-8db0-f4a764225229/jobs', { headers: auth });
await first.arrayBuffer();
await step('first', first.status);

// Koa: the app is built at its first read (a request the fast path does not take builds it too).
await step('koa', typeof mock.app.callback === 'function' && mock.app.middleware.length > 0 ? 200 : -1);

// mock.inject: light-my-request is required at the first injected request (mock.fetch uses the mock's own transport).
const injected = await mock.inject({ url: '/api/v3/projects/fe1868ee-d60e-4ce6-8db0-f4a764225229/jobs', headers: auth });
await step('inject', Array.isArray(injected.json().items) ? injected.statusCode : -1);

// croner: required at the first cron schedule read; a copy of the demo is validated whole (its jobs' schedules read).
const copy = await createApp({ storage: 'memory', fixtures: structuredClone(demoFixture()), log: () => {} });
await step('cron', (await copy.fetch('/api/v3/projects/fe1868ee-d60e-4ce6-8db0-f4a764225229/jobs', { headers: auth })).status);
await copy.close();

const doc = await mock.fetch('/openapi.json');
await step('document', (await doc.json()).openapi === '3.1.0' ? doc.status : -1);

const page = await mock.fetch('/_mock/ui');
await step('inspector', (await page.text()).includes('/_mock/ui/page.js') ? page.status : -1);

const bundle = await mock.control.exportBundle();
await step('reproduce', typeof bundle === 'object' && bundle !== null ? 200 : -1);

// Shadow mode toward a port nothing listens on: the mock answers, the target is counted unreachable.
const shadowed = await createApp({ storage: 'memory', fixtures: demoFixture(), shadow: { url: 'http://127.0.0.1:9' }, log: () => {} });
const res = await shadowed.fetch('/api/v3/projects/fe1868ee-d60e-4ce6-8db0-f4a764225229/jobs', { headers: auth });
await res.arrayBuffer();
await step('shadow', shadowed.control.drift().enabled ? res.status : -1);
await shadowed.close();
await mock.close();
port1.close();
