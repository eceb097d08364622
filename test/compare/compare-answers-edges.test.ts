// The answer comparator on the edges of error bodies and documents: what makes a management envelope, next_action on
// either side or null, a validation item that is not an object, a default response, and the first finding of a field kept.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createApp } from '../../src/app.js';
import { demoFixture } from '../../src/fixtures.js';
import { compareAnswers } from '../../src/conformance/index.js';
import { compareAnswers as compareWith, responseSchema, type Answer, type Schema } from '../../src/compare/index.js';
import { DEMO, bearer } from '../helpers/demo.js';

const notFound = (detail: Record<string, unknown>): Answer => ({ status: 404, headers: {}, body: { detail } });
const ENVELOPE = { reason_code: 'project_not_found', message: 'The project is unknown.', next_action: 'check_project' };

test('a detail whose reason_code is not a string is not the management envelope: the kinds differ', () => {
  assert.equal(compareAnswers('listJobs', notFound(ENVELOPE), notFound({ reason_code: 404, message: 'Not found' })), {
    differences: [{ field: 'body.detail', mock: 'management envelope', target: 'other' }],
    compatible: [],
    warnings: [],
  });
});

test('next_action: null on the target is absent; present on the target only is a difference too', () => {
  assert.equal(compareAnswers('listJobs', notFound(ENVELOPE), notFound({ ...ENVELOPE, next_action: null })), {
    differences: [{ field: 'body.detail.next_action', mock: 'present', target: 'absent' }],
    compatible: [],
    warnings: [],
  });
  const bare = { reason_code: 'project_not_found', message: 'The project is unknown.' };
  assert.equal(compareAnswers('listJobs', notFound(bare), notFound(ENVELOPE)), {
    differences: [{ field: 'body.detail.next_action', mock: 'absent', target: 'present' }],
    compatible: [],
    warnings: [],
  });
});

test('a validation item that is not an object on the target is a difference at its index', () => {
  const item = { type: 'missing', loc: ['body', 'name'], msg: 'Field required', input: {} };
  const mock: Answer = { status: 422, headers: {}, body: { detail: [item] } };
  const target: Answer = { status: 422, headers: {}, body: { detail: ['Field required'] } };
  assert.equal(compareAnswers('createProject', mock, target), {
    differences: [{ field: 'body.detail[0]', mock: { type: 'missing', loc: ['body', 'name'], msg: 'Field required', input: {} }, target: 'Field required' }],
    compatible: [],
    warnings: [],
  });
});

test('a status the operation does not declare is held to its default response', () => {
  const doc: Schema = {
    paths: {
      '/things/{id}': {
        parameters: [{ name: 'id', in: 'path' }],
        get: {
          operationId: 'getThing',
          responses: {
            '200': { content: { 'application/json': { schema: { type: 'object', properties: { id: { type: 'string' } }, required: ['id'] } } } },
            default: { $ref: '#/components/responses/Problem' },
          },
        },
      },
    },
    components: {
      responses: { Problem: { content: { 'application/json': { schema: { $ref: '#/components/schemas/Problem' } } } } },
      schemas: { Problem: { type: 'object', properties: { title: { type: 'string' }, status: { type: 'integer' } }, required: ['title'] } },
    },
  };
  assert.equal(responseSchema(doc, 'getThing', 503), { $ref: '#/components/schemas/Problem' });
  assert.equal(responseSchema(doc, 'getThing', 200), { type: 'object', properties: { id: { type: 'string' } }, required: ['id'] });
  assert.is(responseSchema(doc, 'getOther', 200), undefined);
  const mock: Answer = { status: 500, headers: {}, body: { title: 'Internal error', status: 500 } };
  const target: Answer = { status: 500, headers: {}, body: { status: '500' } };
  assert.equal(compareWith('getThing', mock, target, { document: doc, fingerprint: () => '' }), {
    differences: [
      { field: 'body.title', mock: 'present (required)', target: 'absent' },
      { field: 'body.status', mock: 'integer', target: '500' },
    ],
    compatible: [],
    warnings: [],
  });
});

test('a fingerprint that breaks its pattern is named by the pattern, not replaced by the recipe finding', async () => {
  const mock = await createApp({ storage: 'memory', fixtures: demoFixture() });
  const res = await mock.fetch(`/api/v3/projects/${DEMO.projects.support}/releases/${DEMO.releases.gen2}/diff`, { headers: bearer(DEMO.tokens.owner) });
  const a: Answer = { status: res.status, headers: Object.fromEntries(res.headers), body: await res.json() };
  assert.is(a.status, 200);
  const t = structuredClone(a) as Answer & { body: { semantic_diff_fingerprint: string } };
  t.body.semantic_diff_fingerprint = 'not-a-hash';
  assert.equal(compareAnswers('diffRelease', a, t), {
    differences: [{ field: 'body.semantic_diff_fingerprint', mock: 'pattern ^[0-9a-f]{64}$', target: 'not-a-hash' }],
    compatible: [],
    warnings: [],
  });
  t.body.semantic_diff_fingerprint = '0'.repeat(64);
  assert.equal(compareAnswers('diffRelease', a, t), {
    differences: [{ field: 'body.semantic_diff_fingerprint', mock: 'SHA-256 of the canonical JSON of the sorted changes', target: 'another value' }],
    compatible: [],
    warnings: [],
  });
});

test.run();
