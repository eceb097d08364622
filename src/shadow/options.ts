// Shadow mode's settings: where the target is, what it may receive, and the bounds on the traffic sent to it.

/** createApp's `shadow`: every v3 request is answered by the mock and also sent to `url`, off the request's path. */
export interface ShadowOptions {
  /** The target's base URL (http or https), e.g. a staging deployment of the real service. */
  url: string;
  /** Sent to the target as `Authorization: Bearer <token>` in place of the client's credentials (never journaled or logged). */
  token?: string;
  /** Also shadow writes (POST, PUT, PATCH, DELETE), and only those under /api/v3/projects/{disposableProject}. */
  writes?: boolean;
  /** The one project whose writes may be sent to the target; `writes` is refused without it. */
  disposableProject?: string;
  /** Shadow requests in flight at once (default 4). */
  concurrency?: number;
  /** Requests waiting for a slot; past it a request is dropped and counted (default 100). */
  queue?: number;
  /** Shadow requests started per second at most, as a token bucket of this size (default 10); past it a request is dropped and counted. */
  ratePerSecond?: number;
  /** A target that has not answered in this long is down for that request (default 10,000 ms). */
  timeoutMs?: number;
  /** While the target is down, one request is tried this often; the others are dropped and counted (default 5,000 ms). */
  retryMs?: number;
  /** Real time in ms for the rate, the retries and the once-a-minute notices (default Date.now). */
  now?: () => number;
  /** How requests reach the target (default node:http(s), connections kept alive); a mock's `fetch` answers in process. */
  fetch?: (input: string, init: RequestInit) => Promise<Response>;
}

export interface ShadowSettings {
  url: URL;
  token: string | undefined;
  writes: boolean;
  disposableProject: string | undefined;
  concurrency: number;
  queue: number;
  ratePerSecond: number;
  timeoutMs: number;
  retryMs: number;
  now: () => number;
  /** Null: node:http(s) with kept-alive connections. */
  fetch: ((input: string, init: RequestInit) => Promise<Response>) | null;
}

/** The rule `--shadow-writes` and `writes` break without a disposable project, as one sentence. */
export const WRITES_RULE = 'shadow writes need a disposable project: writes are sent to the target only for the one project that may be changed';

const positive = (name: string, value: number | undefined, fallback: number): number => {
  if (value === undefined) return fallback;
  if (!Number.isInteger(value) || value < 1) throw new TypeError(`createApp: shadow.${name} must be a positive integer, got ${value}`);
  return value;
};

/** Checks createApp's `shadow` and fills in the defaults; a TypeError names what is wrong. */
export function shadowSettings(o: ShadowOptions): ShadowSettings {
  let url: URL;
  try {
    url = new URL(o.url);
  } catch {
    throw new TypeError(`createApp: shadow.url must be an http(s) URL, got ${JSON.stringify(o.url)}`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new TypeError(`createApp: shadow.url must be an http(s) URL, got ${url.protocol}`);
  if (o.token !== undefined && (o.token === '' || /[\r\n]/.test(o.token))) throw new TypeError('createApp: shadow.token must be a non-empty header value');
  if (o.writes && !o.disposableProject) throw new TypeError(`createApp: ${WRITES_RULE}`);
  return {
    url,
    token: o.token,
    writes: o.writes === true,
    disposableProject: o.disposableProject,
    concurrency: positive('concurrency', o.concurrency, 4),
    queue: positive('queue', o.queue, 100),
    ratePerSecond: positive('ratePerSecond', o.ratePerSecond, 10),
    timeoutMs: positive('timeoutMs', o.timeoutMs, 10_000),
    retryMs: positive('retryMs', o.retryMs, 5_000),
    now: o.now ?? Date.now,
    fetch: o.fetch ?? null,
  };
}

/** The target's URL as it may be shown: a password in it is replaced. */
export function shownUrl(url: URL): string {
  if (!url.password && !url.username) return url.href;
  const copy = new URL(url.href);
  copy.username = copy.username ? '***' : '';
  copy.password = copy.password ? '***' : '';
  return copy.href;
}
