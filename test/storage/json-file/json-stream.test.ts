// The streaming JSON reader: any formatting and any chunk size give what JSON.parse gives; damage, depth and the
// one-element-per-line fast path; and the compiled "complete and valid" record check agrees with valibot.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import fc from 'fast-check';
import * as v from 'valibot';
import { writeFileSync } from 'node:fs';
import { createApp } from '../../../src/app.js';
import { demoFixture } from '../../../src/fixtures.js';
import { JsonStreamError, nestedDeeperThan, readJsonStreaming } from '../../../src/storage/json-file/json-document.js';
import { completeAndValid } from '../../../src/storage/record-check.js';
import { COLLECTION_NAMES, COLLECTION_SCHEMAS } from '../../../src/schemas/state.js';
import { sameJson } from '../../../src/json.js';
import { tmpDataFile } from '../../helpers/disk.js';

const CHUNKS = [1, 2, 3, 7, 64, 1 << 20];
const read = (text: string, chunkBytes: number) => {
  const file = tmpDataFile('prm-stream-');
  writeFileSync(file, text);
  return readJsonStreaming(file, { recordDepth: 3, maxDepth: 10, chunkBytes });
};

const demo = demoFixture() as { runs: unknown[] };
const GOOD: [string, string][] = [
  ['compact', JSON.stringify({ a: 1, state: { runs: demo.runs, x: { y: [1, 2] }, e: [] }, z: 'x"\\' })],
  ['pretty-printed, with an escaped quote in a key', JSON.stringify({ a: 1, state: { 'ru\\"ns': demo.runs, x: { y: [1, 2] }, e: [] } }, null, 2)],
  ['one element per line', '{"state":{\n"runs":[\n{"a":1},\n{"b":[2]},\n"x"\n]}}'],
  ['leading commas', '{"state":{\n"runs":[\n{"a":1}\n,{"b":2}\n, 3\n]}}'],
  ['lines and pretty-printed elements mixed', '{"state":{\n"runs":[\n{"a":1},\n{\n  "b": [\n    1,\n    2\n  ]\n},\n[3],\n4\n]}}'],
  ['CRLF line ends', '{"state":{\r\n"runs":[\r\n{"a":1},\r\n{"b":2}\r\n]}}'],
  ['two elements on one line', '{"state":{\n"runs":[\n{"a":1}, {"b":2},\n{"c":3}\n]}}'],
  ['empty arrays', '{"state":{\n"runs":[\n],"x":[]}}'],
  ['strings with brackets, commas and escapes', '{"state":{"runs":[{"a":"\\u00e9\\"}],"},"a,]",{"b":[]},null]}}'],
  ['a key given twice keeps the last array', '{"state":{"runs":[1,2],"runs":[3]}}'],
];

for (const [what, text] of GOOD) {
  test(`stream: ${what} reads as JSON.parse reads it, at every chunk size`, async () => {
    for (const chunk of CHUNKS) assert.equal(await read(text, chunk), JSON.parse(text), `chunk ${chunk}`);
  });
}

test('stream: a BOM is skipped', async () => {
  assert.equal(await read('\ufeff{"state":{"runs":[1]}}', 2), { state: { runs: [1] } });
});

const BAD: [string, string, RegExp][] = [
  ['a trailing comma', '{"state":{"runs":[1,]}}', /a missing element in state\.runs/],
  ['a trailing comma on its own line', '{"state":{\n"runs":[\n{"a":1},\n]}}', /a missing element/],
  ['a leading comma', '{"state":{"runs":[,1]}}', /a missing element/],
  ['two elements without a comma', '{"state":{"runs":[1 2]}}', /element of state\.runs/],
  ['two lines without a comma', '{"state":{\n"runs":[\n{"a":1}\n{"b":2}\n]}}', /a missing comma|element of state\.runs/],
  ['a line, then a pretty element without a comma', '{"state":{\n"runs":[\n{"a":1}\n{\n"b":2}\n]}}', /a missing comma|element of state\.runs/],
  ['truncated', '{"state":{"runs":[1]}', /ends in the middle/],
  ['a mismatched bracket', '{"state":{"runs":[1}}}', /unexpected "}"/],
  ['empty', '', /empty/],
  ['too deep', '[[[[[[[[[[[[[[[[]]]]]]]]]]]]]]]]', /nested deeper than 10 levels/],
  ['too deep on one line', `{"state":{\n"runs":[\n${'['.repeat(20)}${']'.repeat(20)}\n]}}`, /nested deeper than 10 levels/],
  ['garbage after the document', '{"state":{"runs":[{"a":"é"}]}} x', /the document outside the record arrays: /],
];

for (const [what, text, reason] of BAD) {
  test(`stream: ${what} is refused at every chunk size`, async () => {
    for (const chunk of CHUNKS) {
      const err = await read(text, chunk).catch((e: unknown) => e);
      assert.instance(err, JsonStreamError, `chunk ${chunk}`);
      assert.match((err as Error).message, reason);
    }
  });
}

test('nestedDeeperThan counts containers outside strings only', () => {
  assert.is(nestedDeeperThan(Buffer.from('[[[1]]]'), 3), false);
  assert.is(nestedDeeperThan(Buffer.from('[[[[1]]]]'), 3), true);
  assert.is(nestedDeeperThan(Buffer.from('["[[[[\\"[[["]'), 3), false);
});

// ---- the compiled record check: "true" only where valibot accepts the record and gives it back unchanged ----
const mock = await createApp({ storage: 'memory', fixtures: demoFixture() });
const records = COLLECTION_NAMES.flatMap((c) => Array.from(mock.store.values(c), (r) => [c, JSON.parse(JSON.stringify(r))] as const));

test('record check: every stored demo record is complete and valid', () => {
  for (const [c, r] of records) assert.ok(completeAndValid(COLLECTION_SCHEMAS[c] as v.GenericSchema)(r), `${c} ${JSON.stringify(r).slice(0, 120)}`);
});

const mutation = fc.oneof(
  fc.constant({ kind: 'drop' as const }),
  fc.record({
    kind: fc.constant('set' as const),
    value: fc.oneof(
      fc.jsonValue({ maxDepth: 2 }),
      fc.constantFrom(null, '', 'queued', 0, -1, 1.5, '2026-01-01T00:00:00.000Z', 'b0000001-0000-4000-8000-000000000001'),
    ),
  }),
  fc.record({ kind: fc.constant('add' as const), key: fc.string({ maxLength: 8 }) }),
);

test('record check: on mutated records it never says yes where valibot disagrees', () => {
  fc.assert(
    fc.property(fc.nat(records.length - 1), fc.array(fc.tuple(fc.nat(), mutation), { minLength: 1, maxLength: 3 }), (index, mutations) => {
      const [c, original] = records[index];
      const r = structuredClone(original) as Record<string, unknown>;
      for (const [pick, m] of mutations) {
        // Walk to a random nested object and change one of its fields.
        let at: Record<string, unknown> = r;
        for (let depth = 0; depth < 2; depth++) {
          const nested = Object.values(at).filter((x) => typeof x === 'object' && x !== null) as Record<string, unknown>[];
          if (!nested.length || (pick >> depth) % 2 === 0) break;
          at = nested[pick % nested.length];
        }
        const keys = Object.keys(at);
        // A named key on a list is no JSON a file could hold (and `length` on one throws): added to objects only.
        if (m.kind === 'add' && Array.isArray(at)) continue;
        const key = m.kind === 'add' ? m.key : keys[pick % Math.max(1, keys.length)];
        if (key === undefined) continue;
        if (m.kind === 'drop') delete at[key];
        else at[key] = m.kind === 'set' ? m.value : 'extra';
      }
      const schema = COLLECTION_SCHEMAS[c] as v.GenericSchema;
      if (completeAndValid(schema)(r)) {
        const result = v.safeParse(schema, r);
        assert.ok(result.success, `${c}: the check accepted what valibot refuses: ${JSON.stringify(r).slice(0, 300)}`);
        assert.ok(sameJson(result.output, r), `${c}: the check accepted a record valibot changes`);
      }
    }),
    { numRuns: Number(process.env.PROPERTY_RUNS ?? 80) * 10 },
  );
});

test.run();
