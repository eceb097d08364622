// Remembered path and query checks answer exactly as the schema does: the same value for the same input, a fresh 422 for
// each refused one, nothing shared that a reader could change, and correct answers past the bound.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import * as v from 'valibot';
import { parseMemo } from '../../src/pipeline/parse-memo.js';
import { RunPath } from '../../src/pipeline/path-params.js';
import { parse, ValidationError } from '../../src/validation.js';

const id = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;

test("an accepted input: the schema's value, the same frozen one when repeated; an upper-case id read as the canonical one", () => {
  const check = parseMemo(RunPath, 'path');
  const input = { project_id: id(1), run_id: id(2) };
  const first = check({ ...input });
  assert.equal(first, parse(RunPath, input, 'path'));
  assert.is(check({ ...input }), first);
  assert.ok(Object.isFrozen(first));
  assert.equal(check({ project_id: id(1), run_id: id(2).toUpperCase() }), { project_id: id(1), run_id: id(2) });
});

test("a refused input is refused every time, with the schema's own items", () => {
  const check = parseMemo(RunPath, 'path');
  const bad = { project_id: id(1), run_id: 'not-a-uuid' };
  let expected: unknown;
  try {
    parse(RunPath, bad, 'path');
  } catch (err) {
    expected = (err as ValidationError).items;
  }
  for (let i = 0; i < 2; i++) {
    try {
      check({ ...bad });
      assert.unreachable('refused');
    } catch (err) {
      assert.instance(err, ValidationError);
      assert.equal((err as ValidationError).items, expected);
    }
  }
});

test('names and values are told apart whatever they hold; a value with arrays is made anew each time', () => {
  const pair = v.object({ a: v.string(), b: v.string() });
  const check = parseMemo(pair, 'query');
  assert.equal(check({ a: 'x1:y', b: 'z' }), { a: 'x1:y', b: 'z' });
  assert.equal(check({ a: 'x', b: '1:yz' }), { a: 'x', b: '1:yz' });
  const list = parseMemo(v.object({ a: v.optional(v.array(v.string()), () => ['d']) }), 'query');
  const once = list({});
  const again = list({});
  assert.equal([once, again], [{ a: ['d'] }, { a: ['d'] }]);
  assert.is.not(once, again);
  assert.not.ok(Object.isFrozen(once));
});

test('past the bound (128 inputs) every input still gets its own value, the first one too', () => {
  const check = parseMemo(RunPath, 'path');
  for (let n = 0; n <= 128; n++) assert.equal(check({ project_id: id(0), run_id: id(n) }), { project_id: id(0), run_id: id(n) });
  assert.equal(check({ project_id: id(0), run_id: id(0) }), { project_id: id(0), run_id: id(0) });
});

test('the bound: 128 inputs are remembered per schema; the 129th drops the oldest, which is then parsed anew', () => {
  const check = parseMemo(RunPath, 'path');
  const input = (n: number) => ({ project_id: id(1), run_id: id(n) });
  const oldest = check(input(0));
  for (let n = 1; n < 128; n++) check(input(n));
  assert.is(check(input(0)), oldest, 'at the limit the oldest is still remembered');
  check(input(128));
  const again = check(input(0));
  assert.is.not(again, oldest, 'past the limit the oldest was dropped');
  assert.equal(again, oldest);
  assert.is(check(input(1)), check(input(1)), 'the others stay remembered');
});

test('a frozen input is known by itself: parsed once, the same value after; an input that is not frozen is read anew', () => {
  let parses = 0;
  const counted = v.pipe(
    v.object({ a: v.string() }),
    v.transform((x) => (parses++, x)),
  );
  const check = parseMemo(counted, 'query');
  const frozen = Object.freeze({ a: 'x' });
  const first = check(frozen);
  assert.equal([first, parses], [{ a: 'x' }, 1]);
  assert.is(check(frozen), first);
  assert.is(parses, 1);
  const open: Record<string, string> = { a: 'y' };
  assert.equal(check(open), { a: 'y' });
  open.a = 'z';
  assert.equal(check(open), { a: 'z' }, 'a changed input is parsed for what it holds now');
  assert.is(parses, 3);
});

test('a frozen input that is refused is refused every time', () => {
  const check = parseMemo(RunPath, 'path');
  const bad = Object.freeze({ project_id: id(1), run_id: 'not-a-uuid' });
  for (let i = 0; i < 2; i++)
    assert.throws(
      () => check(bad),
      (err: unknown) => err instanceof ValidationError && err.items[0].loc.join('.') === 'path.run_id',
    );
});

test.run();
