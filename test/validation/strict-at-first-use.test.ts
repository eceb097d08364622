// A strict copy (forbidExtra) is made at its first use, not when it is declared: declaring or wrapping one reads only
// what its schema expects; once used it validates, lists its keys and reads as the copy made at once would.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import * as v from 'valibot';
import { forbidExtra, model, strictModel } from '../../src/pydantic/index.js';

/** An object schema whose property reads are counted (the copy reads `type`, `entries` and `pipe` of what it copies). */
function counted() {
  const reads: PropertyKey[] = [];
  const inner = model({ name: v.string() });
  const schema = model({ id: v.number(), inner: v.optional(inner), tags: v.array(inner) });
  const proxy = new Proxy(schema, {
    get(target, key, receiver) {
      reads.push(key);
      return Reflect.get(target, key, receiver) as unknown;
    },
  });
  return { schema: proxy, reads };
}

test('declaring a strict copy, or wrapping it, reads only what it expects of its schema; its first parse makes it', () => {
  const { schema, reads } = counted();
  const strict = forbidExtra(schema);
  assert.equal(reads, ['expects']);
  assert.is(forbidExtra(schema), strict, 'one copy per schema');
  const wrapped = v.optional(strict);
  assert.is(wrapped.expects, '(Object | undefined)');
  assert.equal(reads, ['expects']);
  const result = v.safeParse(strict, { id: 1, extra: true, inner: { name: 'a', nme: 'b' }, tags: [] });
  assert.ok(reads.length > 0, 'made at its first use');
  assert.is(result.success, false);
  const made = reads.length;
  v.safeParse(strict, { id: 2, tags: [] });
  assert.is(reads.length, made, 'made once');
});

test('a strict copy made at first use answers, lists and reads as one made at once', () => {
  const entries = { id: v.number(), inner: v.optional(strictModel({ name: v.string() })), tags: v.array(v.string()) };
  const lazy = forbidExtra(model(entries));
  const eager = strictModel(entries);
  for (const input of [{ id: 1, tags: [] }, { id: 1, idd: 2, tags: ['a'] }, { inner: { name: 'x', nam: 'y' }, tags: 3 }, [], null]) {
    const a = v.safeParse(lazy, input);
    const b = v.safeParse(eager, input);
    assert.is(a.success, b.success);
    assert.equal(
      a.issues?.map((i) => [i.kind, i.type, i.message, i.path?.map((p) => p.key)]),
      b.issues?.map((i) => [i.kind, i.type, i.message, i.path?.map((p) => p.key)]),
    );
    if (a.success && b.success) assert.equal(a.output, b.output);
  }
  assert.is(lazy.expects, eager.expects);
  assert.is(lazy.type, 'strict_object');
  assert.equal(Object.keys(lazy.entries), ['id', 'inner', 'tags']);
  assert.equal(Object.keys(lazy).sort(), Object.keys(eager).sort());
  assert.ok('~run' in lazy);
  assert.is(Object.getPrototypeOf(lazy), Object.getPrototypeOf(eager));
  assert.equal({ ...lazy, '~run': 0, '~standard': 0, entries: 0 }, { ...eager, '~run': 0, '~standard': 0, entries: 0 });
});

test.run();
