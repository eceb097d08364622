// The datetime field at its edges (text kept as spelled, text rewritten to UTC, each range error) and the free-form fields' non-finite check (found, and where).
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import * as v from 'valibot';
import { anyJson, datetime, dict, issueToItem } from '../../src/pydantic/index.js';

/** The field's answer: its output, or the error item pydantic would give (at `body`). */
function check(schema: v.GenericSchema, input: unknown): unknown {
  const r = v.safeParse(schema, input);
  if (r.success) return { ok: r.output };
  const item = issueToItem(r.issues[0], 'body', input) as { type: string; loc: unknown; ctx?: unknown };
  return { type: item.type, loc: item.loc, ...(item.ctx ? { ctx: item.ctx } : {}) };
}
const parsing = (error: string) => ({ type: 'datetime_parsing', loc: ['body'], ctx: { error } });

const DATETIMES: [string, unknown, unknown][] = [
  // The plain ISO form is kept as spelled, fraction and offset included.
  ['leap day', '2024-02-29T00:00:00Z', { ok: '2024-02-29T00:00:00Z' }],
  ['nine fraction digits and an offset', '2026-01-31T23:59:59.123456789+05:30', { ok: '2026-01-31T23:59:59.123456789+05:30' }],
  ['a year under 100', '0099-03-01T00:00:00+00:00', { ok: '0099-03-01T00:00:00+00:00' }],
  ['the last day of December', '2026-12-31T00:00:00Z', { ok: '2026-12-31T00:00:00Z' }],
  // Other spellings are read and written back as UTC.
  ['a space, no offset', '2026-01-01 10:00:00', { ok: '2026-01-01T10:00:00.000Z' }],
  ['lower-case t and z', '2026-01-01t10:00:00z', { ok: '2026-01-01T10:00:00.000Z' }],
  ['a minus sign (U+2212)', '2026-01-01T10:00:00\u221201:00', { ok: '2026-01-01T11:00:00.000Z' }],
  ['a year under 100, minutes only', '0099-03-01 00:00', { ok: '0099-03-01T00:00:00.000Z' }],
  ['unix seconds as text', '1700000000', { ok: '2023-11-14T22:13:20.000Z' }],
  // Each range, in the plain form (checked as any text is) and outside it.
  ['February 29 of a common year', '2023-02-29T00:00:00Z', parsing('day value is outside expected range')],
  ['April 31', '2026-04-31T00:00:00Z', parsing('day value is outside expected range')],
  ['day 0', '2026-01-00T00:00:00Z', parsing('day value is outside expected range')],
  ['month 0', '2026-00-10T00:00:00Z', parsing('month value is outside expected range of 1-12')],
  ['month 13', '2026-13-01T00:00:00Z', parsing('month value is outside expected range of 1-12')],
  ['month 13, other spelling', '2026-13-01 00:00', parsing('month value is outside expected range of 1-12')],
  ['hour 24', '2026-01-01T24:00:00Z', parsing('hour value is outside expected range of 0-23')],
  ['second 60', '2026-01-01T00:00:60Z', parsing('second value is outside expected range of 0-59')],
  ['year 0', '0000-01-01T00:00:00Z', parsing('year 0 is out of range')],
  ['an offset of 24 hours', '2026-01-01T00:00:00+24:00', parsing('timezone offset must be less than 24 hours')],
];

test('datetime: text kept, text rewritten, and every range refused with its error', () => {
  for (const [name, input, expected] of DATETIMES) assert.equal(check(datetime(), input), expected, name);
});

test('free-form fields: finite values pass as given (the same object); a non-finite number is refused at its first place, depth first', () => {
  const fine = { a: [1, -0, 1e300, { b: null, c: 'x', d: [true, [2.5]] }], e: {} };
  const dictOut = v.safeParse(dict(), fine);
  assert.ok(dictOut.success && dictOut.output === fine);
  const anyOut = v.safeParse(anyJson(), [fine, 3]);
  assert.ok(anyOut.success);
  const finite = { type: 'finite_number' };
  const at = (loc: unknown[]) => ({ ...finite, loc: ['body', ...loc] });
  assert.equal(check(dict(), { a: [1, { b: Infinity }], c: NaN }), at(['a', 1, 'b']));
  assert.equal(check(dict(), { a: 1, c: -Infinity }), at(['c']));
  assert.equal(check(anyJson(), [[0, [NaN]], Infinity]), at([0, 1, 0]));
  assert.equal(check(anyJson(), Infinity), at([]));
  assert.equal(check(anyJson(), 'text'), { ok: 'text' });
});

test.run();
