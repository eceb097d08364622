// The keys of the path and query memo (src/pipeline/parse-memo.ts): inputs whose names and values run together, absent values and lists are told apart, and an output that is a list is never shared.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import * as v from 'valibot';
import { parseMemo } from '../../src/pipeline/parse-memo.js';
import { parse } from '../../src/validation.js';

test('inputs that differ only in where one value ends and the next name begins each get their own value', () => {
  const schema = v.object({ a: v.string(), b: v.string() });
  const check = parseMemo(schema, 'query');
  for (const input of [
    { a: 'xb', b: 'y' },
    { a: 'x', b: 'by' },
    { a: 'x', b: '1:by' },
    { a: 'x1:b', b: 'y' },
  ]) {
    assert.equal(check({ ...input }), input, JSON.stringify(input));
  }
});

test('an absent value is told apart from a name that follows a value', () => {
  const schema = v.object({ a: v.optional(v.string()), b: v.optional(v.string()), x: v.optional(v.string()) });
  const check = parseMemo(schema, 'query');
  const first = { a: 'b', x: undefined };
  const second = { a: undefined, b: 'x' };
  assert.equal(check({ ...first }), parse(schema, first, 'query'));
  assert.equal(check({ ...second }), parse(schema, second, 'query'));
  assert.equal(check({ ...second }), { a: undefined, b: 'x' });
});

test('a value that is a list is never answered with what the names around it parsed to', () => {
  const schema = v.object({ a: v.optional(v.union([v.string(), v.array(v.string())])), b: v.string() });
  const check = parseMemo(schema, 'query');
  assert.equal(check({ b: 'z' }), { b: 'z' });
  assert.equal(check({ a: ['x', 'y'], b: 'z' }), { a: ['x', 'y'], b: 'z' });
  assert.equal(check({ b: 'z', a: ['x', 'y'] }), { b: 'z', a: ['x', 'y'] });
});

test('an output that is a list is made anew for each input, never frozen', () => {
  const check = parseMemo(
    v.pipe(
      v.object({ a: v.string() }),
      v.transform((o) => [o.a]),
    ),
    'query',
  );
  const once = check({ a: 'x' });
  const again = check({ a: 'x' });
  assert.equal([once, again], [['x'], ['x']]);
  assert.is.not(once, again);
  assert.not.ok(Object.isFrozen(once));
});

test.run();
