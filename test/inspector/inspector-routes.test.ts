// The inspector page's URLs: a route template with its path parameters filled in (encoded) and its defined query values.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { routeUrl } from '../../src/inspector/page/routes.js';

test('path parameters are filled in, encoded; a route without any stays as it is', () => {
  assert.is(routeUrl('/_mock/clock'), '/_mock/clock');
  assert.is(routeUrl('/_mock/projects/{project_id}/runs/{run_id}', { project_id: 'p1', run_id: 'a b/c' }), '/_mock/projects/p1/runs/a%20b%2Fc');
  assert.is(routeUrl('/_mock/requests/{request_id}', { request_id: 7 }), '/_mock/requests/7');
});

test('query values given are appended in order; undefined, null and empty ones are left out', () => {
  assert.is(routeUrl('/_mock/requests', undefined, { summary: true, after: 0, limit: 1000 }), '/_mock/requests?summary=true&after=0&limit=1000');
  assert.is(routeUrl('/_mock/projects', undefined, { limit: 1, cursor: undefined, status: '', order: null }), '/_mock/projects?limit=1');
  assert.is(routeUrl('/_mock/projects', undefined, {}), '/_mock/projects');
});

test.run();
