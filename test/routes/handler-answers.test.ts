// A v3 handler's answer is held to its success schema at compile time (`npm run typecheck` fails otherwise): the value,
// a Reply carrying it, or its ready JSON text; a wrong field type, a missing field or another record's view does not compile.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import * as v from 'valibot';
import { declare } from '../../src/operations/index.js';
import { json } from '../../src/openapi/operation-spec.js';
import { Reply } from '../../src/pipeline/endpoint.js';
import { JsonText } from '../../src/pipeline/json-text.js';

const Answer = v.object({ id: v.string(), count: v.number() });
const base = {
  operationId: 'probe',
  endpoint: 99,
  method: 'get' as const,
  path: '/probe',
  tag: 'probe',
  summary: 'probe',
  description: 'probe',
  security: [],
  level: 'public' as const,
  success: [json(200, 'Probe', Answer, 'The probe')],
  errors: [],
  reasonCodes: [],
  client: {},
};

const accepted = [
  declare({ ...base, handler: () => () => ({ id: 'a', count: 1 }) }),
  declare({ ...base, handler: () => async () => new Reply(201, { id: 'a', count: 1 }) }),
  declare({ ...base, handler: () => () => new JsonText<{ id: string; count: number }>('{"id":"a","count":1}') }),
  // @ts-expect-error a string where the schema says a number
  declare({ ...base, handler: () => () => ({ id: 'a', count: '1' }) }),
  // @ts-expect-error a missing field
  declare({ ...base, handler: () => async () => ({ id: 'a' }) }),
  // @ts-expect-error a Reply carrying another shape
  declare({ ...base, handler: () => () => new Reply(200, { name: 'a' }) }),
];

test('declarations whose handlers answer their schema build (the rejected ones fail to compile)', () => {
  assert.is(accepted.length, 6);
  assert.equal(
    accepted.map((op) => op.operationId),
    Array(6).fill('probe'),
  );
});

test.run();
