// Shadow mode's documented defaults and checks (4 in flight, 100 queued, 10 a second, 10 s, a retry every 5 s; positive integers only), and the query parameters left out however they are encoded.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { shadowSettings, shownUrl } from '../../src/shadow/options.js';
import { forwardedQuery } from '../../src/shadow/query.js';
import { shadowFlags } from '../../src/shadow/flags.js';

const URL_ = 'https://staging.example.com';

test('the defaults are those the docs give', () => {
  const s = shadowSettings({ url: URL_ });
  assert.equal(
    [s.concurrency, s.queue, s.ratePerSecond, s.timeoutMs, s.retryMs, s.writes, s.fetch, s.url.href],
    [4, 100, 10, 10_000, 5_000, false, null, 'https://staging.example.com/'],
  );
  // A disposable project alone does not turn writes on.
  assert.is(shadowSettings({ url: URL_, disposableProject: 'p1' }).writes, false);
  assert.is(shadowSettings({ url: URL_, writes: true, disposableProject: 'p1' }).writes, true);
  // Writes with an empty project id are refused like writes without one.
  assert.throws(() => shadowSettings({ url: URL_, writes: true, disposableProject: '' }), /shadow writes need a disposable project/);
});

test('every bound must be a positive integer: 0, a fraction and a negative are refused, naming the option', () => {
  for (const name of ['concurrency', 'queue', 'ratePerSecond', 'timeoutMs', 'retryMs'] as const) {
    for (const bad of [0, 1.5, -1]) {
      assert.throws(
        () => shadowSettings({ url: URL_, [name]: bad }),
        (err: Error) => err instanceof TypeError && err.message === `createApp: shadow.${name} must be a positive integer, got ${bad}`,
        `${name} ${bad}`,
      );
    }
    assert.is(shadowSettings({ url: URL_, [name]: 1 })[name], 1);
  }
});

test('the URL is http or https; the token a non-empty header value', () => {
  assert.is(shadowSettings({ url: 'http://target.test:8080/base' }).url.href, 'http://target.test:8080/base');
  assert.throws(() => shadowSettings({ url: 'ftp://target.test' }), /must be an http\(s\) URL, got ftp:/);
  for (const token of ['', 'a\r\nX-Injected: 1', 'a\nb'])
    assert.throws(() => shadowSettings({ url: URL_, token }), /shadow\.token must be a non-empty header value/);
});

test('a URL is shown without its user name or password', () => {
  assert.is(shownUrl(new URL('https://staging.example.com/v')), 'https://staging.example.com/v');
  assert.is(shownUrl(new URL('https://ci:pa55w0rd@staging.example.com/')), 'https://***:***@staging.example.com/');
  assert.is(shownUrl(new URL('https://ci-only@staging.example.com/')), 'https://***@staging.example.com/');
});

test('a parameter is left out by its decoded name or value: percent-encoded, with + for a space, or a held key inside a value', () => {
  const held = 'k3y-h3ld-0123456789';
  const secrets = { has: (word: string) => word === 'tok-abcdef123456', fixed: [held] };
  const hex = (s: string) => [...s].map((c) => `%${c.charCodeAt(0).toString(16)}`).join('');
  const query = [
    'limit=2',
    `${hex('password')}=a1`, // every byte of the name encoded
    'access%5Ftoken=a2', // access_token
    'client+secret=a3', // client secret
    `trace=${hex('tok-abcdef123456')}`, // a held credential, every byte encoded
    `note=Bearer+${held}`, // a configured key inside a longer value
    'q=a%20b+c',
    'flag',
  ].join('&');
  assert.is(forwardedQuery(query, secrets), 'limit=2&q=a%20b+c&flag');
});

test('the CLI flags: each rule a one-line usage error; writes only when asked', () => {
  const url = 'https://staging.example.com';
  assert.equal(shadowFlags({}), {});
  assert.equal(shadowFlags({ 'shadow-writes': false }), {});
  assert.equal(shadowFlags({ 'shadow-token': 't' }), { error: '--shadow-token needs --shadow URL' });
  assert.equal(shadowFlags({ shadow: 'http:///staging' }), { error: '--shadow must be an http(s) URL, got http:///staging' });
  assert.equal(shadowFlags({ shadow: url, 'shadow-token': '' }), { error: '--shadow-token must not be empty' });
  assert.equal(shadowFlags({ shadow: url, 'shadow-writes': true }), {
    error:
      '--shadow-writes needs --disposable-project ID: shadow writes need a disposable project: writes are sent to the target only for the one project that may be changed',
  });
  assert.equal(shadowFlags({ shadow: url, 'shadow-token': 't', 'shadow-writes': false, 'disposable-project': 'p1' }), {
    options: { url, token: 't', writes: false, disposableProject: 'p1' },
  });
  assert.equal(shadowFlags({ shadow: url, 'shadow-writes': true, 'disposable-project': 'p1' }), {
    options: { url, token: undefined, writes: true, disposableProject: 'p1' },
  });
});

test.run();
