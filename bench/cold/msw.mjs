// One cold start of msw, in a fresh process: import msw, setupServer with one handler answering the JSON the mock
// answers (BODY, passed in), listen, and one fetch to it. Prints the milliseconds from the process's first line.
const t0 = performance.now();
const { http, HttpResponse } = await import('msw');
const { setupServer } = await import('msw/node');
const body = JSON.parse(process.env.BODY);
const server = setupServer(http.get('https://api.example.test/api/v3/projects/:project/jobs', () => HttpResponse.json(body)));
server.listen({ onUnhandledRequest: 'error' });
const res = await fetch('https://api.example.test/api/v3/projects/fe1868ee-d60e-4ce6-8db0-f4a764225229/jobs', {
  headers: { authorization: 'Bearer demo-owner-token' },
});
const got = await res.json();
if (res.status !== 200 || got.items.length !== body.items.length) throw new Error(`msw answered ${res.status}`);
server.close();
process.stdout.write(`${JSON.stringify({ ms: performance.now() - t0 })}\n`);
