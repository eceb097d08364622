// Fields the mock sends and the target dropped, walked through lists, nullable branches (anyOf and oneOf, object or
// list) and maps: a required one is one difference, an optional one a warning, named by its path with [] for list items.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { compareAnswers, type Answer, type Schema } from '../../src/compare/index.js';

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const DOC: Schema = {
  paths: { '/page': { get: { operationId: 'getPage', responses: { '200': { content: { 'application/json': { schema: ref('Page') } } } } } } },
  components: {
    schemas: {
      Meta: { type: 'object', properties: { a: { type: 'string' }, b: { type: 'string' } }, required: ['a'] },
      Item: {
        type: 'object',
        properties: { id: { type: 'string' }, name: { type: 'string' }, note: { type: 'string' }, meta: { anyOf: [ref('Meta'), { type: 'null' }] } },
        required: ['id', 'name'],
      },
      Page: {
        type: 'object',
        properties: {
          items: { type: 'array', items: ref('Item') },
          tags: { anyOf: [{ type: 'array', items: ref('Item') }, { type: 'null' }] },
          owner: { oneOf: [ref('Meta'), { type: 'null' }] },
          labels: { type: 'object', properties: {}, additionalProperties: ref('Meta') },
        },
        required: ['items'],
      },
    },
  },
};
const ok = (body: unknown): Answer => ({ status: 200, headers: {}, body });
const compare = (mock: unknown, target: unknown) => compareAnswers('getPage', ok(mock), ok(target), { document: DOC, fingerprint: () => '' });

test('list items: a required field the target items lack is one difference, an optional one a warning, at items[]', () => {
  assert.equal(compare({ items: [{ id: '1', name: 'a', note: 'n' }] }, { items: [{ id: '2' }] }), {
    differences: [{ field: 'body.items[].name', mock: 'present (required)', target: 'absent' }],
    compatible: [],
    warnings: [{ field: 'body.items[].note', mock: 'present', target: 'absent' }],
  });
});

test('an empty list on either side says nothing of its items fields', () => {
  const empty = { differences: [], compatible: [], warnings: [] };
  assert.equal(compare({ items: [{ id: '1', name: 'a', note: 'n' }] }, { items: [] }), empty);
  assert.equal(compare({ items: [] }, { items: [{ id: '1', name: 'a' }] }), empty);
});

test('list items are walked by the first value each key carries: a nested field dropped under it is a warning', () => {
  const mock = {
    items: [
      { id: '1', name: 'a', meta: { a: 'x', b: 'y' } },
      { id: '2', name: 'b', meta: null },
    ],
  };
  assert.equal(compare(mock, { items: [{ id: '3', name: 'c', meta: { a: 'z' } }] }), {
    differences: [],
    compatible: [],
    warnings: [{ field: 'body.items[].meta.b', mock: 'present', target: 'absent' }],
  });
});

test('a oneOf of an object and null: a required field dropped inside is a difference, not also a warning', () => {
  assert.equal(compare({ items: [], owner: { a: 'x', b: 'y' } }, { items: [], owner: { b: 'y' } }), {
    differences: [{ field: 'body.owner.a', mock: 'present (required)', target: 'absent' }],
    compatible: [],
    warnings: [],
  });
});

test('an anyOf of a list and null: its items are held to the list item schema', () => {
  assert.equal(compare({ items: [], tags: [{ id: '1', name: 'a', note: 'n' }] }, { items: [], tags: [{ id: '2' }] }), {
    differences: [{ field: 'body.tags[].name', mock: 'present (required)', target: 'absent' }],
    compatible: [],
    warnings: [{ field: 'body.tags[].note', mock: 'present', target: 'absent' }],
  });
});

test('a map: each value is held to additionalProperties, its required field dropped is a difference', () => {
  assert.equal(compare({ items: [], labels: { x: { a: '1', b: '2' } } }, { items: [], labels: { x: { b: '2' } } }), {
    differences: [{ field: 'body.labels.x.a', mock: 'present (required)', target: 'absent' }],
    compatible: [],
    warnings: [],
  });
});

test('a null the target sends where the mock sends an object drops none of its fields (a nullable one is no finding)', () => {
  assert.equal(compare({ items: [], owner: { a: 'x', b: 'y' } }, { items: [], owner: null }), { differences: [], compatible: [], warnings: [] });
  assert.equal(compare({ items: [{ id: '1', name: 'a', meta: { a: 'x', b: 'y' } }] }, { items: [{ id: '2', name: 'b', meta: null }] }), {
    differences: [],
    compatible: [],
    warnings: [],
  });
});

test.run();
