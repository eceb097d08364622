// The inspector page's pure helpers (src/inspector/page/format.ts): the clock offset and traffic in words, a journal
// row's time with its date, and the project the State view opens on.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { offsetText, rowTime, trafficText } from '../../src/inspector/page/format.js';

const S = 1000;
const MIN = 60 * S;
const H = 60 * MIN;
const D = 24 * H;

test('offsetText: the two largest units, signed; a zero unit after the first ends it; 0 for none', () => {
  assert.is(offsetText(0), '0');
  assert.is(offsetText(2 * D + 3 * H), '+2 d 3 h');
  assert.is(offsetText(2 * D + 3 * H + 59 * MIN + 59 * S + 999), '+2 d 3 h');
  assert.is(offsetText(-(5 * MIN)), '-5 min');
  assert.is(offsetText(MIN + 30 * S), '+1 min 30 s');
  assert.is(offsetText(D + 5 * S), '+1 d');
  assert.is(offsetText(250), '+250 ms');
  assert.is(offsetText(1), '+1 ms');
  assert.is(offsetText(-1), '-1 ms');
  assert.is(offsetText(S + 1), '+1 s 1 ms');
  assert.is(offsetText(-(5 * D + 8 * H + 12 * MIN)), '-5 d 8 h');
  assert.is(offsetText(400 * D), '+400 d');
});

test('trafficText: the sum an hour and how many bindings; none when there is none', () => {
  assert.is(trafficText([]), 'none');
  assert.is(trafficText([{ messages_per_hour: 10 }]), '10 messages an hour on 1 chat binding');
  assert.is(trafficText([{ messages_per_hour: 1 }]), '1 message an hour on 1 chat binding');
  assert.is(trafficText([{ messages_per_hour: 10 }, { messages_per_hour: 2.5 }]), '12.5 messages an hour on 2 chat bindings');
  assert.is(trafficText([{ messages_per_hour: 0.001 }]), '0.001 messages an hour on 1 chat binding');
});

test('rowTime: the date and the time to the second, so rows across days sort as they read', () => {
  assert.is(rowTime('2026-11-20T12:00:05.123Z'), '2026-11-20 12:00:05');
  assert.is(rowTime('2026-11-21T00:00:00.000Z'), '2026-11-21 00:00:00');
  assert.ok(rowTime('2026-11-20T23:59:59.999Z') < rowTime('2026-11-21T00:00:00.000Z'));
});

test.run();
