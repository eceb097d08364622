// Control bodies and fixtures refuse unknown keys (extra_forbidden at the key, the closest known key in ctx.did_you_mean),
// driven from the control operations table so a new route with a body cannot be missed; fixture files say line and column.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as v from 'valibot';
import { CONTROL_OPERATIONS } from '../../src/document/operations.js';
import { CompleteStateDataSchema } from '../../src/schemas/state.js';
import { FixtureError, loadFixtureFile, readFixtureFile, stateFromFixture } from '../../src/fixtures.js';
import { closestKey } from '../../src/pydantic/index.js';
import { issuesToItems, parse, ValidationError, type ValidationItem } from '../../src/validation.js';
import { openApiDocument } from '../../src/document/build.js';
import { DEMO } from '../helpers/demo.js';
import { freshMock, stateOf } from '../helpers/app.js';
import { runCliToExit } from '../helpers/cli.js';

const PARAMS: Record<string, string> = { project_id: DEMO.projects.support, run_id: DEMO.runs.waitingApproval, request_id: '1' };
const WITH_BODY = CONTROL_OPERATIONS.filter((op) => op.body);
/** The schema the route really applies (the snapshot's named schema is open in the document: it is GET's answer too). */
const bodyKeys = (op: (typeof WITH_BODY)[number]): string[] =>
  op.operationId === 'controlPutState'
    ? Object.keys(CompleteStateDataSchema.entries)
    : Object.keys((op.body!.schema.schema as v.ObjectSchema<v.ObjectEntries, undefined>).entries);

type Http = Awaited<ReturnType<typeof freshMock>>['http'];
function send(http: Http, op: (typeof WITH_BODY)[number], body: unknown) {
  const path = op.path.replace(/\{(\w+)\}/g, (_, name: string) => PARAMS[name]);
  return http[op.method as 'post' | 'put'](path).send(body as object);
}

const extras = (detail: ValidationItem[]) => detail.filter((i) => i.type === 'extra_forbidden');

test('the table has the control bodies this test expects (a new one is covered without a change here)', () => {
  assert.ok(WITH_BODY.length >= 12, `${WITH_BODY.length} bodies`);
  for (const op of WITH_BODY) assert.ok(bodyKeys(op).length > 0, op.operationId);
});

for (const op of WITH_BODY) {
  test(`${op.operationId}: an unknown key is 422 extra_forbidden at its loc, after the field items, and nothing changes`, async () => {
    const { mock, http } = await freshMock();
    const before = stateOf(mock);
    const res = await send(http, op, { zz_not_a_field_at_all: [1, 'two'] });
    assert.is(res.status, 422, JSON.stringify(res.body));
    const detail = res.body.detail as ValidationItem[];
    assert.equal(detail.at(-1), { type: 'extra_forbidden', loc: ['body', 'zz_not_a_field_at_all'], msg: 'Extra inputs are not permitted', input: [1, 'two'] });
    assert.is(extras(detail).length, 1);
    assert.is(stateOf(mock), before);
  });

  test(`${op.operationId}: a misspelt key names the key it is close to`, async () => {
    const { http } = await freshMock();
    for (const key of bodyKeys(op)) {
      const typo = `${key.slice(0, -1)}${key.at(-1) === 'x' ? 'y' : 'x'}`;
      const res = await send(http, op, { [typo]: 1 });
      assert.is(res.status, 422, `${op.operationId} ${typo}`);
      assert.equal(
        extras(res.body.detail),
        [{ type: 'extra_forbidden', loc: ['body', typo], msg: 'Extra inputs are not permitted', input: 1, ctx: { did_you_mean: key } }],
        `${op.operationId} ${typo}`,
      );
    }
  });
}

test('PUT /_mock/simulation/behaviours {"nonsense": ...} is 422 and keeps the behaviours; nested models are strict too', async () => {
  const { http } = await freshMock();
  const before = (await http.get('/_mock/simulation')).body.behaviours;
  const res = await http.put('/_mock/simulation/behaviours').send({ nonsense: true, default: { queue_wait_ms: 5, stepz: [] } });
  assert.is(res.status, 422);
  assert.equal(res.body.detail, [
    { type: 'extra_forbidden', loc: ['body', 'default', 'stepz'], msg: 'Extra inputs are not permitted', input: [], ctx: { did_you_mean: 'steps' } },
    { type: 'extra_forbidden', loc: ['body', 'nonsense'], msg: 'Extra inputs are not permitted', input: true },
  ]);
  assert.equal((await http.get('/_mock/simulation')).body.behaviours, before);
});

test('fixtures: a misspelt collection and a misspelt record field are located, with the key they meant', async () => {
  const { http } = await freshMock();
  const res = await http.post('/_mock/fixtures').send({ memorys: [], rnus: [], workspaces: [{ id: DEMO.workspaces.acmeSupport, nmae: 'A', name: 'A' }] });
  assert.is(res.status, 422);
  assert.equal(extras(res.body.detail), [
    { type: 'extra_forbidden', loc: ['body', 'workspaces', 0, 'nmae'], msg: 'Extra inputs are not permitted', input: 'A', ctx: { did_you_mean: 'name' } },
    { type: 'extra_forbidden', loc: ['body', 'memorys'], msg: 'Extra inputs are not permitted', input: [], ctx: { did_you_mean: 'memories' } },
    { type: 'extra_forbidden', loc: ['body', 'rnus'], msg: 'Extra inputs are not permitted', input: [], ctx: { did_you_mean: 'runs' } },
  ]);
  const err = (() => {
    try {
      stateFromFixture({ memorys: [] }, 'fixture x.json');
    } catch (e) {
      return e as FixtureError;
    }
  })();
  assert.instance(err, FixtureError);
  assert.is(err!.message, 'invalid fixture x.json: memorys: Extra inputs are not permitted (did you mean "memories"?)');
});

test('closestKey: a case change or up to a third of the length in edits (at least one); nearest first; long keys get none', () => {
  const known = ['runs', 'memories', 'approvals', 'advance_ms', 'now'];
  assert.is(closestKey('RUNS', known), 'runs');
  assert.is(closestKey('rnus', known), 'runs'); // a transposition is one edit
  assert.is(closestKey('run', known), 'runs');
  assert.is(closestKey('ru', known), undefined); // two edits from a 4-letter key: more than max(1, floor(4 / 3))
  assert.is(closestKey('memorys', known), 'memories'); // two edits, 8 letters: floor(8 / 3) = 2
  assert.is(closestKey('mem', known), undefined);
  assert.is(closestKey('aprovals', known), 'approvals');
  assert.is(closestKey('advance', known), 'advance_ms'); // three edits of ten letters
  assert.is(closestKey('adv', known), undefined);
  assert.is(closestKey('nox', known), 'now');
  assert.is(closestKey('xyz', known), undefined);
  assert.is(closestKey(`${'r'.repeat(64)}`, ['r'.repeat(63)]), 'r'.repeat(63));
  assert.is(closestKey(`${'r'.repeat(65)}`, ['r'.repeat(64)]), undefined);
});

test("valibot's own strictObject: parse() reports every unknown key with its suggestion; the bare issue maps to extra_forbidden", () => {
  const schema = v.strictObject({ alpha: v.string(), inner: v.optional(v.strictObject({ beta: v.number() })) });
  try {
    parse(schema, { alpha: 'x', alpah: 2, c: 3, inner: { betta: 1, beta: 1 } }, 'body');
    assert.unreachable();
  } catch (err) {
    assert.instance(err, ValidationError);
    assert.equal((err as ValidationError).items, [
      { type: 'extra_forbidden', loc: ['body', 'inner', 'betta'], msg: 'Extra inputs are not permitted', input: 1, ctx: { did_you_mean: 'beta' } },
      { type: 'extra_forbidden', loc: ['body', 'alpah'], msg: 'Extra inputs are not permitted', input: 2, ctx: { did_you_mean: 'alpha' } },
      { type: 'extra_forbidden', loc: ['body', 'c'], msg: 'Extra inputs are not permitted', input: 3 },
    ]);
  }
  assert.throws(
    () => parse(schema, [1], 'body'),
    (e: ValidationError) => e.items[0].type === 'model_attributes_type',
  );
  const bare = v.safeParse(v.strictObject({ a: v.string() }), { a: 'x', b: 2, c: 3 }, { abortEarly: false });
  assert.equal(issuesToItems(bare.issues!, 'body'), [{ type: 'extra_forbidden', loc: ['body', 'b'], msg: 'Extra inputs are not permitted', input: 2 }]);
});

test('OpenAPI: every control request body is closed (additionalProperties false), nested models too; v3 bodies stay open', () => {
  const doc = openApiDocument(true) as {
    components: { schemas: Record<string, { additionalProperties?: unknown; properties?: Record<string, { items?: { additionalProperties?: unknown } }> }> };
  };
  const s = doc.components.schemas;
  // A document that is also an answer (the state snapshot, the repro bundle) is documented as an open object.
  const answers = new Set(CONTROL_OPERATIONS.flatMap((op) => op.success.flatMap((r) => (r.body && 'name' in r.body ? [r.body.name] : []))));
  for (const op of WITH_BODY) {
    if (answers.has(op.body!.schema.name)) continue;
    assert.is(s[op.body!.schema.name].additionalProperties, false, op.body!.schema.name);
  }
  assert.is(s.FixtureDocument.properties!.runs.items!.additionalProperties, false);
  assert.ok(s.BudgetRequestV3 && s.BudgetRequestV3.additionalProperties !== false);
});

const tmp = () => mkdtempSync(join(tmpdir(), 'prm-strict-'));

test('fixture files: a JSON syntax error says line and column once (read whole and streamed)', async () => {
  const file = join(tmp(), 'bad.json');
  writeFileSync(file, '{\n  "runs": [],\n  "users" []\n}\n');
  const expected = `invalid ${file}: not valid JSON at line 3, column 11: Expecting ':' delimiter`;
  assert.throws(
    () => readFixtureFile(file),
    (e: Error) => e.message.startsWith(expected) && !/not valid JSON.*not valid JSON/.test(e.message),
  );
  const streamed = await loadFixtureFile(file).catch((e: Error) => e);
  assert.instance(streamed, FixtureError);
  assert.ok((streamed as Error).message.startsWith(expected), (streamed as Error).message);
  writeFileSync(file, '{"runs": [');
  assert.throws(
    () => readFixtureFile(file),
    (e: Error) => e.message === `invalid ${file}: not valid JSON at line 1, column 11: Expecting value`,
  );
});

test('cli: a fixture file with an unknown key is one line naming the key and its suggestion, exit 1', async () => {
  const file = join(tmp(), 'typo.json');
  writeFileSync(file, JSON.stringify({ memorys: [] }));
  const { code, stderr } = await runCliToExit(['--port', '0', '--memory', '--fixtures', file]);
  assert.is(code, 1);
  assert.is(stderr, `project-runtime-mock: invalid ${file}: memorys: Extra inputs are not permitted (did you mean "memories"?)\n`);
  writeFileSync(file, '{\n"runs": [}\n');
  const bad = await runCliToExit(['--port', '0', '--memory', '--fixtures', file]);
  assert.is(bad.code, 1);
  assert.match(bad.stderr, new RegExp(`^project-runtime-mock: invalid ${file}: not valid JSON at line 2, column 10: Expecting value\\n$`));
});

test.run();
