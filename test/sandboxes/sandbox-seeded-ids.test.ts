// Sandbox ids of a seeded server: each is 20 lower-case letters and digits (a path segment and a DNS label as it is), drawn from the whole alphabet, distinct, and repeated by any server with the same seed, 0 and '' included (a seed is any value given, not only a truthy one).
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { freshMock } from '../helpers/app.js';

const ID = /^[a-z0-9]{20}$/;

/** The ids of `n` sandboxes created in turn on a fresh server made with `options`. */
async function idsOf(options: object, n: number): Promise<string[]> {
  const m = await freshMock(options);
  const ids: string[] = [];
  for (let i = 0; i < n; i++) ids.push((await m.mock.control.createSandbox({})).id);
  await m.mock.close();
  return ids;
}

test('a seeded server mints ids of exactly 20 lower-case letters and digits, over HTTP as in process', async () => {
  const m = await freshMock({ seed: 'format' });
  const overHttp = await m.http.post('/_mock/sandboxes').send({}).expect(201);
  assert.match(overHttp.body.id, ID);
  assert.is(overHttp.body.id.length, 20);
  assert.is(overHttp.body.base_url.endsWith(`/sandboxes/${overHttp.body.id}`), true);
  const inProcess = await m.mock.control.createSandbox({});
  assert.match(inProcess.id, ID);
  assert.is.not(inProcess.id, overHttp.body.id);
  // The id reaches its sandbox in each form, so it is a path segment and a DNS label as it is.
  for (const [header, value] of [
    ['X-Mock-Sandbox', inProcess.id],
    ['Host', `${inProcess.id}.localhost:4010`],
  ]) {
    const res = await m.http.get('/_mock/clock').set(header, value);
    assert.is(res.status, 200, `${header}: ${res.text}`);
  }
  await m.mock.close();
});

test('40 seeded ids: all distinct, all of the id form, and between them they use letters and digits', async () => {
  const ids = await idsOf({ seed: 'alphabet' }, 40);
  for (const id of ids) assert.match(id, ID);
  assert.is(new Set(ids).size, 40);
  const chars = new Set(ids.join(''));
  // 800 characters drawn from 36: every class of the alphabet shows up.
  assert.ok(
    [...chars].some((c) => c >= '0' && c <= '9'),
    'a digit appears',
  );
  assert.ok(
    [...chars].some((c) => c >= 'a' && c <= 'z'),
    'a letter appears',
  );
  assert.ok(chars.size > 26, `more than the 26 letters are used (${chars.size})`);
});

for (const seed of [0, '']) {
  test(`seed ${JSON.stringify(seed)} is a seed: two servers with it mint the same ids, in the same order`, async () => {
    const first = await idsOf({ seed }, 3);
    const second = await idsOf({ seed }, 3);
    assert.equal(second, first);
    assert.is(new Set(first).size, 3);
    for (const id of first) assert.match(id, ID);
    // An unseeded server draws other ids.
    const unseeded = await idsOf({}, 3);
    assert.not.equal(unseeded, first);
  });
}

test.run();
