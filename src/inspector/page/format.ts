// Pure helpers of the page (no DOM, no Preact): the clock offset and traffic as words, and a journal row's time. Unit-tested in Node (test/inspector/inspector-format.test.ts).

const UNITS: [string, number][] = [
  ['d', 86_400_000],
  ['h', 3_600_000],
  ['min', 60_000],
  ['s', 1000],
  ['ms', 1],
];

/** A clock offset as its two largest units, signed: `+2 d 3 h`, `-5 min`, `+1 min 30 s`, `+250 ms`; `0` for none. */
export function offsetText(ms: number): string {
  if (ms === 0) return '0';
  let rest = Math.abs(Math.trunc(ms));
  const parts: string[] = [];
  for (const [unit, size] of UNITS) {
    const n = Math.floor(rest / size);
    if (n > 0 && parts.length < 2) parts.push(`${n} ${unit}`);
    else if (parts.length > 0) break; // `+1 d 5 s`: the next unit is zero, so the first alone is shown
    rest -= n * size;
  }
  return `${ms < 0 ? '-' : '+'}${parts.join(' ')}`;
}

/** The synthetic chat traffic in one line: `10 messages an hour on 1 chat binding`, or `none`. */
export function trafficText(traffic: readonly { messages_per_hour: number }[]): string {
  if (traffic.length === 0) return 'none';
  const total = traffic.reduce((sum, t) => sum + t.messages_per_hour, 0);
  const rate = Number.isInteger(total) ? String(total) : total.toFixed(3).replace(/0+$/, '');
  return `${rate} ${total === 1 ? 'message' : 'messages'} an hour on ${traffic.length} chat ${traffic.length === 1 ? 'binding' : 'bindings'}`;
}

/** A journal row's time: date and time to the second (UTC, the mock clock), so rows across days read in order. */
export const rowTime = (iso: string): string => iso.replace('T', ' ').slice(0, 19);
