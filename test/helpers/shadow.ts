// Shadow mode test targets: a second mock from the same fixture reached in process, with a record of what it was sent.
import { createApp, type CreateAppOptions, type MockApp } from '../../src/app.js';
import { demoFixture } from '../../src/fixtures.js';
import type { ShadowOptions } from '../../src/shadow/index.js';
import type { ShadowSettings } from '../../src/shadow/options.js';

export const SHADOW_TOKEN = 'sh4d0w-7f3a9c1e5b';
export const TARGET_URL = 'http://target.test';

/** What the target was sent: method, path and the headers that carry credentials. */
interface Sent {
  method: string;
  path: string;
  authorization: string | null;
  headers: Record<string, string>;
  body: string | null;
}

/** A target mock; `down` makes every request to it fail as a refused connection would; `perturb` rewrites its answers. */
export interface Target {
  mock: MockApp;
  sent: Sent[];
  down: boolean;
  perturb?: (path: string, status: number, body: unknown) => { status: number; body: unknown };
  fetch: NonNullable<ShadowOptions['fetch']>;
}

/** The demo fixture, where the shadow token is the owner's too (as a staging service would know its own token). */
function targetFixture(): Record<string, unknown> {
  const fixture = structuredClone(demoFixture()) as { access_tokens: Record<string, unknown>[] };
  const owner = fixture.access_tokens.find((t) => t.token === 'demo-owner-token')!;
  fixture.access_tokens.push({ ...owner, token: SHADOW_TOKEN });
  return fixture;
}

export async function targetMock(options: CreateAppOptions = {}): Promise<Target> {
  const mock = await createApp({ storage: 'memory', fixtures: targetFixture(), ...options });
  const target: Target = {
    mock,
    sent: [],
    down: false,
    fetch: async (input, init) => {
      const url = new URL(input);
      const headers = Object.fromEntries(new Headers(init.headers));
      const body = init.body === undefined ? null : Buffer.from(init.body as Uint8Array).toString();
      target.sent.push({ method: init.method ?? 'GET', path: url.pathname + url.search, authorization: headers.authorization ?? null, headers, body });
      if (target.down) throw new TypeError('fetch failed', { cause: Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }) });
      const res = await mock.fetch(url.pathname + url.search, init);
      if (!target.perturb) return res;
      const text = await res.text();
      const changed = target.perturb(url.pathname, res.status, text ? JSON.parse(text) : null);
      return new Response(JSON.stringify(changed.body), { status: changed.status, headers: res.headers });
    },
  };
  return target;
}

/** A demo mock shadowing to `target`, with its notice lines collected in `lines`. */
export async function shadowingMock(target: Target, shadow: Partial<ShadowOptions> = {}, options: CreateAppOptions = {}) {
  const lines: string[] = [];
  const mock = await createApp({
    storage: 'memory',
    fixtures: demoFixture(),
    log: (line) => lines.push(line),
    shadow: { url: TARGET_URL, token: SHADOW_TOKEN, fetch: target.fetch, ratePerSecond: 10_000, queue: 10_000, ...shadow },
    ...options,
  });
  return { mock, lines };
}

/** Settings of a ShadowSender for unit tests: a target that is never reached unless `over` gives a fetch. */
export function senderSettings(over: Partial<ShadowSettings> = {}): ShadowSettings {
  return {
    url: new URL('http://target.test'),
    token: undefined,
    writes: false,
    disposableProject: undefined,
    concurrency: 4,
    queue: 100,
    ratePerSecond: 100,
    timeoutMs: 1000,
    retryMs: 1000,
    now: () => 0,
    fetch: null,
    ...over,
  };
}
