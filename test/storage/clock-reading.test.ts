// Reading the mock clock: a frozen clock reads its frozen point whichever state came before it (the point a reading
// keeps is the last one it read, never a stale one), a running clock reads its source plus the offset, and a sped-up
// one runs at its rate from its anchor.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { ClockReading } from '../../src/storage/index.js';
import type { ClockState } from '../../src/schemas/index.js';

const A = '2030-01-01T00:00:00.000Z';
const B = '2031-06-15T12:30:45.678Z';

/** A reading over a holder the test swaps states in, on a source the test moves. */
function reading() {
  const holder: { clock: ClockState } = { clock: { frozen_at: null, offset_ms: 0 } };
  const source = { ms: Date.parse('2029-03-03T03:03:03.003Z') };
  return { r: new ClockReading(() => source.ms, holder), holder, source };
}

test('clock reading: frozen points in turn, each read as its own instant', () => {
  const { r, holder } = reading();
  const seen: number[] = [];
  for (const at of [A, A, B, A, B, B]) {
    holder.clock = { frozen_at: at, offset_ms: 0 };
    seen.push(r.nowMs());
  }
  assert.equal(seen, [A, A, B, A, B, B].map(Date.parse));
  // A new state object frozen at the same instant reads the same; the ISO form matches the instant.
  holder.clock = { frozen_at: `${B}`, offset_ms: 5 };
  assert.is(r.nowMs(), Date.parse(B));
  assert.is(r.nowIso(), B);
});

test('clock reading: running, frozen, running again: the source and offset, then the frozen point, then the source', () => {
  const { r, holder, source } = reading();
  holder.clock = { frozen_at: null, offset_ms: 250 };
  assert.is(r.nowMs(), source.ms + 250);
  holder.clock = { frozen_at: A, offset_ms: 250 };
  assert.is(r.nowMs(), Date.parse(A));
  source.ms += 1000;
  assert.is(r.nowMs(), Date.parse(A)); // frozen: the source moving changes nothing
  holder.clock = { frozen_at: null, offset_ms: -100 };
  assert.is(r.nowMs(), source.ms - 100);
  holder.clock = { frozen_at: A, offset_ms: 0 };
  assert.is(r.nowMs(), Date.parse(A));
});

test('clock reading: a sped-up clock runs at its rate from its anchor, and nowMsOf reads a state not held', () => {
  const { r, holder, source } = reading();
  const anchor = source.ms;
  holder.clock = { frozen_at: null, offset_ms: 40, rate: 10, anchor_ms: anchor };
  source.ms += 123;
  assert.is(r.nowMs(), Math.floor(anchor + 40 + 123 * 10));
  assert.is(r.nowMsOf({ frozen_at: B, offset_ms: 0 }), Date.parse(B));
  assert.is(r.nowMs(), Math.floor(anchor + 40 + 123 * 10));
  assert.is(r.nowMsOf({ frozen_at: A, offset_ms: 0 }), Date.parse(A));
});

test.run();
