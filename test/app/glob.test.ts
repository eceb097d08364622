// Path globs (faults, journal filter): segment semantics, agreement with a reference matcher, and work linear in the path.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import fc from 'fast-check';
import { compileGlob, GLOB_MAX_LENGTH, type StepCounter } from '../../src/glob.js';
import { freshMock } from '../helpers/app.js';
import { DEMO, bearer } from '../helpers/demo.js';

const matches = (pattern: string, path: string) => compileGlob(pattern).test(path);

test('glob: * is one segment, ** any number of whole segments (none included)', () => {
  assert.ok(matches('/api/v3/projects/*/runs/*', '/api/v3/projects/p1/runs/r1'));
  assert.not.ok(matches('/api/v3/projects/*/runs/*', '/api/v3/projects/p1/runs/r1/cancel'));
  assert.not.ok(matches('/api/v3/projects/*/runs/*', '/api/v3/projects/p1/x/runs/r1'));
  assert.ok(matches('/api/**', '/api'));
  assert.ok(matches('/api/**', '/api/v3/projects/p1/runs'));
  assert.not.ok(matches('/api/**', '/apix/v3'));
  assert.ok(matches('/api/**/cancel', '/api/cancel'));
  assert.ok(matches('/api/**/cancel', '/api/v3/projects/p/runs/r/cancel'));
  assert.not.ok(matches('/api/**/cancel', '/api/v3/cancel/more'));
  assert.ok(matches('/**', '/'));
  assert.ok(matches('/**', '/anything/at/all'));
  assert.ok(matches('/**/runs/**/cancel', '/a/runs/b/runs/c/cancel'));
  assert.not.ok(matches('/**/runs/**/cancel', '/a/run/b/cancel'));
});

test('glob: * inside a segment stays inside it; ** inside a segment is a plain *', () => {
  assert.ok(matches('/api/v3/pro*s', '/api/v3/projects'));
  assert.ok(matches('/api/v3/*s', '/api/v3/s'));
  assert.not.ok(matches('/api/v3/pro*s', '/api/v3/pro/jects'));
  assert.ok(matches('/a/*b*c*', '/a/xxbyycz'));
  assert.not.ok(matches('/a/*b*c*', '/a/xxcyyb'));
  assert.ok(matches('/a**b', '/axxb'));
  assert.not.ok(matches('/a**b', '/ax/xb'));
});

test('glob: every character but * is literal (no regular-expression meaning)', () => {
  assert.ok(matches('/a.b/(x)+/$?[y]', '/a.b/(x)+/$?[y]'));
  assert.not.ok(matches('/a.b', '/axb'));
  assert.not.ok(matches('/a?', '/ab'));
  assert.not.ok(matches('/a+', '/aa'));
});

/** An independent reference: memoized recursion over (pattern segment, path segment) and (piece char, path char). */
function reference(pattern: string, path: string): boolean {
  const ps = pattern.split('/');
  const ss = path.split('/');
  const seg = (p: string, s: string): boolean => {
    const memo = new Map<string, boolean>();
    const go = (i: number, j: number): boolean => {
      const key = `${i},${j}`;
      if (memo.has(key)) return memo.get(key)!;
      let r: boolean;
      if (i === p.length) r = j === s.length;
      else if (p[i] === '*') r = go(i + 1, j) || (j < s.length && go(i, j + 1));
      else r = j < s.length && p[i] === s[j] && go(i + 1, j + 1);
      memo.set(key, r);
      return r;
    };
    return go(0, 0);
  };
  const memo = new Map<string, boolean>();
  const go = (i: number, j: number): boolean => {
    const key = `${i},${j}`;
    if (memo.has(key)) return memo.get(key)!;
    let r: boolean;
    if (i === ps.length) r = j === ss.length;
    else if (ps[i] === '**') r = go(i + 1, j) || (j < ss.length && go(i, j + 1));
    else r = j < ss.length && seg(ps[i], ss[j]) && go(i + 1, j + 1);
    memo.set(key, r);
    return r;
  };
  return go(0, 0);
}

test('glob: agrees with a reference matcher on random patterns and paths', () => {
  const patternPart = fc.constantFrom('a', 'b', '/', '*', '**', '/**/', 'ab');
  const pathPart = fc.constantFrom('a', 'b', '/', 'ab', 'ba');
  fc.assert(
    fc.property(fc.array(patternPart, { maxLength: 10 }), fc.array(pathPart, { maxLength: 14 }), (pp, sp) => {
      const pattern = `/${pp.join('')}`;
      const path = `/${sp.join('')}`;
      assert.is(matches(pattern, path), reference(pattern, path), `${pattern} against ${path}`);
    }),
    { numRuns: 2000 },
  );
});

/** The comparisons one match makes. */
function steps(pattern: string, path: string): { result: boolean; steps: number } {
  const counter: StepCounter = { steps: 0 };
  const result = compileGlob(pattern, counter).test(path);
  return { result, steps: counter.steps };
}

test('glob: the reported pathological patterns give the right answers', () => {
  // With a backtracking regular expression, `/**a**a**a!` against a 2,000-character path took 6 s; 8 levels of `**`
  // on a 100-character path ran past 15 s.
  assert.is(matches('/**a**a**a!', `/${'a'.repeat(2000)}`), false);
  assert.is(matches('/**a**a**a!', `/${'a'.repeat(2000)}!`), true);
  const deep = `/${Array(8).fill('**/a*').join('/')}/b`;
  const path100 = `/${Array(50).fill('a').join('/')}`.slice(0, 100);
  assert.is(matches(deep, path100), false);
  assert.is(matches(deep, `${path100}/b`), true);
  assert.is(matches(`/${Array(8).fill('**').join('/')}/b/**`, path100), false);
});

test('glob: the work of a match grows linearly with the path, even when every prefix almost matches', () => {
  const aSegments = (n: number) => `/${Array(n).fill('a').join('/')}`;
  const cases: [string, (n: number) => string][] = [
    // inside one segment: a backtracking matcher tries every split of the a's between the stars
    ['/*a*a*a*b*', (n) => `/${'a'.repeat(n)}`],
    ['/**a**a**a**b**', (n) => `/${'a'.repeat(n)}`],
    // across segments: every placement of the `**`s
    ['/**/a/**/a/**/a/**/b/**', aSegments],
    [`/${Array(8).fill('**').join('/')}/b/**`, aSegments],
    [`/**${'/a/a/a/c/**'.repeat(10)}`, aSegments],
  ];
  for (const [pattern, path] of cases) {
    const one = steps(pattern, path(1000));
    const two = steps(pattern, path(2000));
    assert.is(one.result, false, pattern);
    assert.is(two.result, false, pattern);
    // It reads the path (at least once) ...
    assert.ok(one.steps >= 1000, `${pattern}: ${one.steps} steps`);
    // ... and twice the path costs about twice the work, never its square.
    assert.ok(two.steps <= 2.1 * one.steps, `${pattern}: ${one.steps} -> ${two.steps} steps for twice the path`);
  }
});

test('glob: a fault with a pathological path answers a long request, and the journal filter too', async () => {
  const { http } = await freshMock();
  const added = await http.post('/_mock/faults').send({ method: 'GET', path: '/**a**a**a!', status: 418 });
  assert.is(added.status, 200);
  const long = `/api/v3/projects/${'a'.repeat(2000)}/runs/x`;
  const res = await http.get(long).set(bearer(DEMO.tokens.owner));
  // Not matched (no `!`): the request reaches the route and is refused as a bad project id.
  assert.is(res.status, 422);
  assert.equal(res.body.detail[0].loc, ['path', 'project_id']);
  const hit = await http.get(`/${'a'.repeat(2000)}!`);
  assert.is(hit.status, 418);
  assert.is(hit.headers['x-mock-fault'], added.body.id);

  const deep = encodeURIComponent(`/${Array(8).fill('**').join('/')}/zz`);
  const filtered = await http.get(`/_mock/requests?path=${deep}`);
  assert.is(filtered.status, 200);
  assert.equal(filtered.body.items, []);
  const bang = await http.get(`/_mock/requests?path=${encodeURIComponent('/**a**a**a!')}`);
  assert.equal(
    bang.body.items.map((e: { status: number }) => e.status),
    [418],
  );
});

test('glob: patterns longer than the cap are a 422 at their loc, and add no fault', async () => {
  const { mock, http } = await freshMock();
  const tooLong = `/${'*'.repeat(GLOB_MAX_LENGTH)}`;
  const fault = await http.post('/_mock/faults').send({ method: 'GET', path: tooLong, status: 500 });
  assert.is(fault.status, 422);
  assert.equal(fault.body.detail[0].loc, ['body', 'path']);
  assert.equal(mock.control.faults(), []);
  const atCap = `/${'a'.repeat(GLOB_MAX_LENGTH - 1)}`;
  assert.is((await http.post('/_mock/faults').send({ method: 'GET', path: atCap, status: 500 })).status, 200);

  const filter = await http.get(`/_mock/requests?path=${encodeURIComponent(tooLong)}`);
  assert.is(filter.status, 422);
  assert.equal(filter.body.detail[0].loc, ['query', 'path']);
});

test.run();
