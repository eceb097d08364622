// A fresh mock whose clock a test sets to a given ms past its start, and a GET of one of its runs: for fault timing.
import { freshMock } from './app.js';
import { DEMO, bearer } from './demo.js';

export const RUN = `/api/v3/projects/${DEMO.projects.support}/runs/${DEMO.runs.failedApi}`;
export const owner = bearer(DEMO.tokens.owner);

export async function clocked() {
  const m = await freshMock();
  const start = Date.parse((await m.http.get('/_mock/clock')).body.now);
  const at = (ms: number) =>
    m.http
      .post('/_mock/clock')
      .send({ now: new Date(start + ms).toISOString() })
      .expect(200);
  const get = () => m.http.get(RUN).set(owner);
  return { ...m, start, at, get };
}
