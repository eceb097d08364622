// Bare journal records for tests that fill a journal directly, without a mock in front of it.
import type { JournalRecord } from '../../src/control/journal.js';

/** A GET of `path` answered 200 with `responseBody` (none by default), no headers, query or operation. */
export const plainGet = (path: string, responseBody: string | null = null): JournalRecord => ({
  atMs: 0,
  method: 'GET',
  path,
  querystring: '',
  status: 200,
  duration_ms: 0,
  operation: null,
  requestHeaders: {},
  requestBody: null,
  responseHeaders: {},
  responseBody,
});
