// Group tl: the inspector's Timeline. tl1: GET /_mock/timeline over 30 simulated days of the demo with its chat traffic
// (in process, memory), each call after a write so the series are rebuilt; tl2: the page's first contentful paint
// opened on the Timeline against opened on Requests, in headless Chromium, the two interleaved.
import { existsSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { chromium } from 'playwright-core';
import { createApp, demoFixture } from '../../src/index.js';
import { fmt, median, report } from '../lib/report.js';
import { mockServer } from '../lib/servers.js';

const DAY = 86_400_000;
const CHROMIUM = '/usr/bin/chromium';
const ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking'];

async function seriesRoute() {
  const mock = await createApp({ storage: 'memory', fixtures: demoFixture(), seed: 7, simulation: { mode: 'auto', start: { traffic: 10 } } });
  const post = (path: string, body: unknown) =>
    mock.fetch(path, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  await post('/_mock/clock', { advance_ms: 30 * DAY });
  const now = Date.parse(mock.control.clock().now);
  const query = `/_mock/timeline?from=${new Date(now - 30 * DAY).toISOString()}&buckets=240`;
  const runs = mock.store.toData().runs.length;
  const times: number[] = [];
  let bytes = 0;
  for (let i = 0; i < 30; i++) {
    // A write first: the runs' parsed index is rebuilt by the call measured, as it is while the clock runs.
    await post(`/_mock/projects/${demoFixture().projects![0].id}/runs`, {});
    const t0 = performance.now();
    const res = await mock.fetch(query);
    bytes = (await res.text()).length;
    times.push(performance.now() - t0);
  }
  const ms = median(times);
  report({
    id: 'tl1',
    what: `GET /_mock/timeline, 30 simulated days (${fmt(runs)} runs, the journal full), 240 buckets, after a write (ms)`,
    value: fmt(ms, 1),
    baseline: '',
    ratio: '',
    target: '<= 50 ms',
    met: ms <= 50,
    note: `median of ${times.length}; slowest ${fmt(Math.max(...times), 1)} ms; answer ${fmt(bytes)} bytes`,
  });
  await mock.close();
}

async function firstPaint() {
  if (!existsSync(CHROMIUM)) {
    report({
      id: 'tl2',
      what: 'inspector first paint, Timeline vs Requests',
      value: 'skipped',
      baseline: '',
      ratio: '',
      target: '<= 1.2 x',
      met: false,
      note: `no ${CHROMIUM}`,
    });
    return;
  }
  const server = await mockServer('--memory');
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: ARGS });
  const paint = async (hash: string) => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    await page.goto(`${server.url}/_mock/ui#${hash}`);
    await page.waitForFunction(() => performance.getEntriesByName('first-contentful-paint').length > 0);
    const ms = await page.evaluate(() => performance.getEntriesByName('first-contentful-paint')[0].startTime);
    await page.close();
    return ms;
  };
  const timeline: number[] = [];
  const requests: number[] = [];
  await paint('requests');
  for (let i = 0; i < 15; i++) {
    requests.push(await paint('requests'));
    timeline.push(await paint('timeline'));
  }
  const ratio = median(timeline) / median(requests);
  report({
    id: 'tl2',
    what: 'inspector first contentful paint opened on the Timeline (ms, Chromium)',
    value: fmt(median(timeline), 1),
    baseline: fmt(median(requests), 1),
    ratio: `${fmt(ratio, 2)} x (Timeline / Requests)`,
    target: '<= 1.2 x',
    met: ratio <= 1.2,
    note: 'medians of 15 loads each, interleaved; the chart library (uplot.js) loads after the first paint, on first showing the Timeline',
  });
  await browser.close();
  await server.stop();
}

export async function timelineGroup() {
  await seriesRoute();
  await firstPaint();
}
