// A handler's answer, v3 or control, is held to its success schema at compile time (`npm run typecheck` fails otherwise):
// the value, a Reply carrying it, its ready JSON text or a stream of it; a wrong field type, a missing field, a wide
// `boolean` where the schema says `true`, a stream of another document or another record's view does not compile.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import * as v from 'valibot';
import { Readable } from 'node:stream';
import { declare } from '../../src/operations/index.js';
import { declareControl } from '../../src/operations/declare.js';
import { streamed } from '../../src/json-stream.js';
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

const Deleted = v.object({ deleted: v.literal(true), id: v.string() });
const Document = v.looseObject({ format: v.literal('probe@1') });
const control = {
  operationId: 'controlProbe',
  method: 'delete' as const,
  path: '/_mock/probe',
  summary: 'probe',
  description: 'probe',
  success: [json(200, 'ControlProbe', Deleted, 'The probe')],
  client: { name: 'probe' },
};
const streaming = { ...control, method: 'get' as const, success: [json(200, 'ControlDocument', Document, 'The document')] };
const wide = (): { deleted: boolean; id: string } => ({ deleted: true, id: 'a' });
const chunks = () => Readable.from(['{"format":"probe@1"}']);

const acceptedControl = [
  declareControl({ ...control, handler: () => () => ({ deleted: true as const, id: 'a' }) }),
  declareControl({ ...control, handler: () => async () => new Reply(200, { deleted: true as const, id: 'a' }) }),
  // A refusal the handler words itself, with a documented error status (a failed verification's 417).
  declareControl({ ...control, handler: () => () => new Reply(417, { matched: 0 }) }),
  declareControl({ ...streaming, handler: () => () => new Reply(200, streamed<{ format: 'probe@1' }>(chunks())) }),
  // @ts-expect-error a wide boolean where the schema says true
  declareControl({ ...control, handler: () => () => wide() }),
  // @ts-expect-error a missing field
  declareControl({ ...control, handler: () => async () => ({ deleted: true as const }) }),
  // @ts-expect-error a success status carrying another shape
  declareControl({ ...control, handler: () => () => new Reply(200, { matched: 0 }) }),
  // @ts-expect-error a stream of another document
  declareControl({ ...streaming, handler: () => () => new Reply(200, streamed<{ format: 'other@1' }>(chunks())) }),
  // @ts-expect-error a stream that names nothing
  declareControl({ ...streaming, handler: () => () => new Reply(200, chunks()) }),
];

test('declarations whose handlers answer their schema build (the rejected ones fail to compile)', () => {
  assert.is(accepted.length, 6);
  assert.equal(
    accepted.map((op) => op.operationId),
    Array(6).fill('probe'),
  );
});

test('control declarations are held to their schemas the same way', () => {
  assert.equal(
    acceptedControl.map((op) => [op.operationId, op.tag]),
    Array(9).fill(['controlProbe', 'control']),
  );
});

test.run();
