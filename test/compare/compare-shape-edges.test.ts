// The schema walk on its edges: values cut at 300 characters of JSON, $ref chains, a falsy const, date-time spellings,
// required keys without properties, open objects, extras inside a branch, and null where a branch allows it.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { checkShape, MAX_SHOWN, type Schema, type ShapeFindings } from '../../src/compare/index.js';

function shape(schema: Schema, value: unknown, doc: Schema = {}) {
  const out: ShapeFindings = { differences: new Map(), compatible: new Map() };
  checkShape(doc, schema, value, 'body', out);
  return { differences: [...out.differences.values()], compatible: [...out.compatible.values()] };
}

test('a value of 300 characters of JSON is shown whole; a longer one is its first 300 characters and a marker', () => {
  assert.is(MAX_SHOWN, 300);
  const whole = 'w'.repeat(298);
  assert.equal(shape({ type: 'integer' }, whole).differences, [{ field: 'body', mock: 'integer', target: whole }]);
  const long = 'x'.repeat(400);
  assert.equal(shape({ type: 'integer' }, long).differences, [{ field: 'body', mock: 'integer', target: `"${'x'.repeat(299)}…` }]);
});

test('a $ref to a $ref is followed to the schema it names', () => {
  const doc = { components: { schemas: { RunId: { $ref: '#/components/schemas/Id' }, Id: { type: 'string', format: 'uuid' } } } };
  assert.equal(shape({ $ref: '#/components/schemas/RunId' }, 'nope', doc).differences, [{ field: 'body', mock: 'format uuid', target: 'nope' }]);
  assert.equal(shape({ $ref: '#/components/schemas/RunId' }, '3f0c6a8e-0000-4000-8000-000000000001', doc).differences, []);
});

test('a const of false or 0 is held like any other', () => {
  assert.equal(shape({ const: false }, true).differences, [{ field: 'body', mock: false, target: true }]);
  assert.equal(shape({ const: 0 }, 1).differences, [{ field: 'body', mock: 0, target: 1 }]);
  assert.equal(shape({ const: false }, false).differences, []);
});

test('date-time: any number of fraction digits, a lowercase t or a space between date and time', () => {
  for (const ok of ['2026-01-15T12:00:00.123456Z', '2026-01-15T12:00:00.1+02:00', '2026-01-15t12:00:00Z', '2026-01-15 12:00:00+00:00'])
    assert.equal(shape({ type: 'string', format: 'date-time' }, ok).differences, [], ok);
  assert.equal(shape({ type: 'string', format: 'date-time' }, '2026-01-15T12:00:00.Z').differences, [
    { field: 'body', mock: 'format date-time', target: '2026-01-15T12:00:00.Z' },
  ]);
});

test('objects: required keys are checked without properties (the others are extra); additionalProperties true leaves extras unreported', () => {
  assert.equal(shape({ type: 'object', required: ['id'] }, { name: 'x' }), {
    differences: [{ field: 'body.id', mock: 'present (required)', target: 'absent' }],
    compatible: [{ field: 'body.name', mock: 'absent', target: 'x' }],
  });
  assert.equal(shape({ type: 'object', properties: { a: { type: 'string' } }, additionalProperties: true }, { a: 'x', z: 1 }), {
    differences: [],
    compatible: [],
  });
});

test('anyOf: the extra keys of the matching branch are compatible', () => {
  const maybe = { anyOf: [{ type: 'object', properties: { a: { type: 'string' } } }, { type: 'null' }] };
  assert.equal(shape(maybe, { a: 'x', z: 1 }), { differences: [], compatible: [{ field: 'body.z', mock: 'absent', target: 1 }] });
});

test('anyOf: null is no difference when a branch takes it (a type list with null, an open schema), else named not nullable', () => {
  assert.equal(shape({ anyOf: [{ type: ['string', 'null'] }, { type: 'integer' }] }, null), { differences: [], compatible: [] });
  assert.equal(shape({ anyOf: [{}, { type: 'integer' }] }, null), { differences: [], compatible: [] });
  assert.equal(shape({ anyOf: [{ enum: ['a', 'b'] }, { const: 'c' }] }, null), {
    differences: [{ field: 'body', mock: 'not nullable', target: null }],
    compatible: [],
  });
});

test.run();
