// fast-check generators of v3 requests (path ids, query strings, headers, bodies), shared by the property tests
// and the in-process equivalence tests.
import fc from 'fast-check';
import { gzipSync } from 'node:zlib';
import { demoFixture } from '../../src/fixtures.js';
import { DEMO } from './demo.js';
import { V3_DECLARATIONS } from '../../src/operations/index.js';

export const any = <T>(...xs: T[]) => fc.constantFrom(...xs);
const randomText = fc.oneof(
  fc.string(),
  fc.string({ unit: 'grapheme', maxLength: 40 }),
  any('', ' ', '..', '%', '%zz', '%E0%A4%A', '%00', 'null', '-1', '0', '1e309', 'NaN', '[]', '{}', 'a/b'),
);
/** A path segment: a valid demo id, another UUID, or anything (percent-encoded unless it is a raw escape sequence). */
const segment = (valid: string[]) =>
  fc.oneof(
    { weight: 8, arbitrary: any(...valid) },
    { weight: 2, arbitrary: fc.uuid() },
    { weight: 2, arbitrary: randomText.map((s) => (/^%/.test(s) ? s : encodeURIComponent(s))) },
  );

const users = (demoFixture() as { users: { id: string }[] }).users.map((u) => u.id);
const projects = Object.values(DEMO.projects);
const SEG = {
  project_id: segment(projects),
  run_id: segment(Object.values(DEMO.runs)),
  approval_id: segment(Object.values(DEMO.approvals)),
  user_id: segment(users.slice(0, 6)),
  release_id: segment(Object.values(DEMO.releases)),
  connection_name: segment(['support-chat', 'crm', 'billing-api', 'sales-crm']),
  binding_id: segment(Object.values(DEMO.connections)),
  // The control surface's own names: a sandbox id (lower case, 1-40) and a snapshot name, none of which exist at the start.
  sandbox_id: segment(['abcdefghij0123456789', 'a', 'x'.repeat(40)]),
  name: segment(['before-test', 'nightly', 's1']),
};
type Param = keyof typeof SEG;

/** The 20 v3 routes, in the order docs/api.md numbers them: [endpoint, METHOD, path template], from each operation's declaration. */
export const ENDPOINTS: [number, string, string][] = V3_DECLARATIONS.map((op) => [op.endpoint, op.method.toUpperCase(), op.path]);

export const path = (template: string) => {
  const names = [...template.matchAll(/\{(\w+)\}/g)].map((m) => m[1] as Param);
  return fc.tuple(...names.map((n) => SEG[n])).map((values) => values.reduce<string>((p, v, i) => p.replace(`{${names[i]}}`, v), template));
};

const QUERY_KEYS = ['limit', 'cursor', 'status', 'runtime_mode', 'baseline_release_id'];
const queryValue = fc.oneof(
  randomText,
  any('1', '50', '200', '201', '0', '-5', '2.5', 'live', 'test', 'pending', 'denied', 'expired'),
  fc.uuid(),
  any(...Object.values(DEMO.releases)),
);
/** Known and unknown keys, sometimes repeated (koa then hands the handler an array). */
export const query = fc.array(fc.tuple(fc.oneof(any(...QUERY_KEYS), fc.string({ maxLength: 8 })), queryValue), { maxLength: 4 }).map((pairs) => {
  const q = new URLSearchParams();
  for (const [k, v] of pairs) q.append(k, v);
  const s = q.toString();
  return s ? `?${s}` : '';
});

const headerText = fc.string({ maxLength: 60 }); // printable ASCII: what fetch accepts in a header
const TOKENS = Object.values(DEMO.tokens);
/** A header that is usually a good value, sometimes absent, sometimes anything. */
const header = (good: fc.Arbitrary<string>, weight = 3, absent = 1) =>
  fc.oneof({ weight, arbitrary: good }, { weight: absent, arbitrary: fc.constant(undefined) }, { weight: 1, arbitrary: headerText });
export const headers = fc
  .record({
    authorization: header(
      fc.oneof(
        { weight: 6, arbitrary: any(...TOKENS.map((t) => `Bearer ${t}`)) },
        headerText.map((t) => `Bearer ${t}`),
        any('Bearer', 'Basic ZGVtbzpkZW1v', `bearer ${DEMO.tokens.owner}`),
      ),
      6,
    ),
    'x-admin-key': header(any(DEMO.adminKey), 1, 4),
    'content-type': header(
      any(
        'application/json',
        'application/json; charset=utf-8',
        'text/plain',
        'application/x-www-form-urlencoded',
        'multipart/form-data; boundary=x',
        'application/merge-patch+json',
        'APPLICATION/JSON',
        'application/json/x',
      ),
    ),
    'content-encoding': header(any('gzip', 'br', 'deflate', 'x-unknown', 'identity'), 1, 6),
    'x-chatapp-secret-token': header(any(DEMO.chatSecret)),
    /** 'sign' is replaced by the body's real signature, so the broker webhook gets past its check too. */
    'x-broker-hmac-sha256': header(fc.oneof(any('sign'), fc.stringMatching(/^[0-9a-f]{64}$/))),
  })
  .map((h) => Object.fromEntries(Object.entries(h).filter(([, v]) => v !== undefined)) as Record<string, string>);

const FIELDS = [
  'now',
  'advance_ms',
  'method',
  'path',
  'status',
  'times',
  'delay_ms',
  'to',
  'steps',
  'target',
  'principal_id',
  'code_challenge',
  'runtime_mode',
  'surface',
  'reason',
  'binding_fingerprint',
  'confirmation',
  'workspace_id',
  'clear',
  'funding_mode',
  'project_daily_usd',
  'user_monthly_usd',
  'metadata',
  'code',
  'code_verifier',
  'grant_type',
  'refresh_token',
  'base_revision_id',
  'bundle',
  'mutation',
  'type',
  'message',
  'update_id',
  'event',
  'connection_id',
  '__proto__',
  'constructor',
];
const fieldValue = fc.oneof(
  fc.jsonValue({ maxDepth: 3 }),
  any('delete-application-user', 'authorization_code', 'refresh_token', 'free_sandbox', DEMO.workspaces.acmeLabs, DEMO.authorizationCode, DEMO.pkceVerifier),
  fc.uuid(),
);
/** No body, any JSON, an object of the endpoints' field names with values of any type, invalid JSON, or a huge body (the last size is over the 1 MiB limit). */
export const body = fc.oneof(
  { weight: 2, arbitrary: fc.constant(undefined) },
  { weight: 2, arbitrary: fc.jsonValue({ maxDepth: 4 }).map((j) => JSON.stringify(j)) },
  { weight: 4, arbitrary: fc.dictionary(any(...FIELDS), fieldValue, { maxKeys: 5 }).map((o) => JSON.stringify(o)) },
  { weight: 1, arbitrary: fc.string({ maxLength: 40 }) },
  {
    weight: 1,
    arbitrary: fc.tuple(any('reason', 'confirmation', 'message'), any(1_000, 300_000, 1_100_000)).map(([k, n]) => JSON.stringify({ [k]: 'é'.repeat(n / 2) })),
  },
  // Nesting around the limit (64) and far past it, in a field or at the top.
  { weight: 1, arbitrary: fc.tuple(fc.integer({ min: 60, max: 12_000 }), any('[', '{"metadata":', '{"x":[')).map(([n, open]) => deepJson(n, open)) },
  // Numbers JSON.parse and Python read differently, or that overflow: 1e400, NaN, Infinity, huge integers.
  {
    weight: 1,
    arbitrary: fc
      .tuple(any(...FIELDS), any('1e400', '-1e400', 'NaN', 'Infinity', '-Infinity', '9007199254740993', '1e300', '-0', '1.5e-400'))
      .map(([k, n]) => `{"${k}": ${n}}`),
  },
  // Bytes that are not text, and a compressed JSON body.
  { weight: 1, arbitrary: fc.uint8Array({ maxLength: 40 }) },
  { weight: 1, arbitrary: fc.dictionary(any(...FIELDS), fieldValue, { maxKeys: 3 }).map((o) => gzipSync(JSON.stringify(o))) },
);

/** `n` levels of nesting opened with `open` (each level a `[` or a `{"metadata":` / `{"x":[` pair), then closed. */
function deepJson(n: number, open: string): string {
  const close = open === '[' ? ']' : open === '{"x":[' ? ']}' : '}';
  return `${open.repeat(n)}1${close.repeat(n)}`;
}

/** A body as signBrokerPayload takes it (the generator also makes raw bytes). */
export const asSigned = (b: string | Uint8Array | undefined): string | Buffer => (b === undefined ? '' : typeof b === 'string' ? b : Buffer.from(b));

export const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];
