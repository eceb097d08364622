// Group i: the in-process request path, per request: mock.fetch against supertest and light-my-request on bare Koa; intercepted fetch against mock.fetch and msw.
import Koa from 'koa';
import Router from '@koa/router';
import inject from 'light-my-request';
import request from 'supertest';
import { http as mswHttp, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { createApp } from '../../src/app.js';
import { demoFixture } from '../../src/fixtures.js';
import { RUN } from '../lib/data.js';
import { AUTH, runPath } from '../lib/load.js';
import { fmt, median, report } from '../lib/report.js';
import { cpuTimes, perRequest } from '../lib/per-request.js';

const ORIGIN = 'https://api.example.test';
const us = (n: number) => `${fmt(n, 1)} µs`;

export async function requestPath() {
  const mock = await createApp({ storage: 'memory', fixtures: demoFixture() });
  const path = runPath(RUN);
  const text = await (await mock.fetch(path, { headers: AUTH })).text();
  const doc = JSON.parse(text) as object;
  // The baseline app: bare Koa + @koa/router returning the same JSON.
  const bareApp = new Koa();
  const router = new Router();
  router.get('/api/v3/projects/:project_id/runs/:run_id', (ctx) => {
    ctx.body = doc;
  });
  bareApp.use(router.routes());
  const bare = bareApp.callback();
  const callback = mock.callback();
  const check = (status: number, body: string) => {
    if (status !== 200 || body.length !== text.length) throw new Error(`unexpected answer ${status}`);
  };

  const a = await perRequest(
    {
      fetch: async () => {
        const r = await mock.fetch(path, { headers: AUTH });
        check(r.status, await r.text());
      },
      bareInject: async () => {
        const r = await inject(bare, { url: path, headers: AUTH });
        check(r.statusCode, r.payload);
      },
    },
    200,
  );
  const aCpu = { ...cpuTimes };
  const s = await perRequest(
    {
      supertest: async () => {
        const r = await request(callback).get(path).set(AUTH);
        check(r.status, r.text);
      },
      fetch: async () => {
        const r = await mock.fetch(path, { headers: AUTH });
        check(r.status, await r.text());
      },
    },
    20,
  );

  // Interception and msw take turns (both patch globalThis.fetch through @mswjs/interceptors).
  const msw = setupServer(mswHttp.get(`${ORIGIN}/api/v3/projects/:project_id/runs/:run_id`, () => HttpResponse.json(doc)));
  const viaGlobalFetch = async () => {
    const r = await fetch(`${ORIGIN}${path}`, { headers: AUTH });
    check(r.status, await r.text());
  };
  const intercepted: number[] = [];
  const mswTimes: number[] = [];
  const local: number[] = [];
  const cpu: Record<'intercepted' | 'msw' | 'fetch', number[]> = { intercepted: [], msw: [], fetch: [] };
  for (let round = 0; round < 4; round++) {
    const handle = mock.intercept(ORIGIN);
    intercepted.push((await perRequest({ intercepted: viaGlobalFetch }, 100)).intercepted);
    handle.restore();
    msw.listen({ onUnhandledRequest: 'bypass' });
    mswTimes.push((await perRequest({ msw: viaGlobalFetch }, 100)).msw);
    msw.close();
    local.push((await perRequest({ fetch: async () => check((await mock.fetch(path, { headers: AUTH })).status, text) }, 100)).fetch);
    for (const k of ['intercepted', 'msw', 'fetch'] as const) cpu[k].push(cpuTimes[k]);
  }
  const [i, m, f] = [median(intercepted), median(mswTimes), median(local)];

  report({
    id: 'i0',
    what: 'light-my-request inject on bare Koa, same JSON (per request)',
    value: us(a.bareInject),
    baseline: '',
    ratio: '',
    target: 'baseline',
    met: null,
  });
  report({
    id: 'i1',
    what: 'mock.fetch GET run detail (per request)',
    value: us(a.fetch),
    baseline: us(a.bareInject),
    ratio: `${fmt(a.fetch / a.bareInject, 2)} x i0`,
    target: '<= 1.2 x i0',
    met: a.fetch <= 1.2 * a.bareInject,
    note: `CPU per request ${us(aCpu.fetch)} against ${us(aCpu.bareInject)} (${fmt(aCpu.fetch / aCpu.bareInject, 2)} x)`,
  });
  report({
    id: 'i2',
    what: 'supertest on callback(), GET run detail (per request)',
    value: us(s.supertest),
    baseline: '',
    ratio: '',
    target: 'baseline',
    met: null,
  });
  report({
    id: 'i3',
    what: 'mock.fetch vs supertest (per request)',
    value: us(s.fetch),
    baseline: us(s.supertest),
    ratio: `${fmt(s.supertest / s.fetch, 1)} x faster`,
    target: '>= 5 x faster',
    met: s.supertest >= 5 * s.fetch,
  });
  report({
    id: 'i4',
    what: 'msw 2.x static handler, same JSON, global fetch (per request)',
    value: us(m),
    baseline: '',
    ratio: '',
    target: 'baseline',
    met: null,
  });
  report({
    id: 'i5',
    what: 'intercepted global fetch GET run detail (per request)',
    value: us(i),
    baseline: `${us(f)} mock.fetch, ${us(m)} msw`,
    ratio: `${fmt(i / f, 2)} x mock.fetch, ${fmt(i / m, 2)} x msw`,
    target: '<= 2 x mock.fetch, <= 1 x msw',
    met: i <= 2 * f && i <= m,
    note: `CPU per request ${us(median(cpu.intercepted))}, mock.fetch ${us(median(cpu.fetch))}, msw ${us(median(cpu.msw))} (${fmt(median(cpu.intercepted) / median(cpu.fetch), 2)} x mock.fetch)`,
  });
}
