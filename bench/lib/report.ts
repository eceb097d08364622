// Benchmark rows: each measurement is reported as it lands, then printed as one table and written to bench/results.json.
export interface Row {
  id: string;
  what: string;
  value: string;
  baseline: string;
  ratio: string;
  target: string;
  /** null for a baseline row. */
  met: boolean | null;
  note?: string;
}
export const rows: Row[] = [];

export const fmt = (n: number, digits = 0) => n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });
export const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
/** ` [N non-2xx/errors: 503 x 4, errors x 1]` when a side had any, with what they were. */
export const bad = (s: { bad: number; why?: Record<string, number> }) => {
  if (!s.bad) return '';
  const why = Object.entries(s.why ?? {})
    .map(([k, n]) => `${k} x ${n}`)
    .join(', ');
  return ` [${s.bad} non-2xx/errors${why ? `: ${why}` : ''}]`;
};

export function report(row: Row) {
  rows.push(row);
  process.stderr.write(
    `  (${row.id}) ${row.what}: ${row.value}${row.ratio ? `, ratio ${row.ratio}` : ''} ${row.met === null ? '' : row.met ? 'met' : 'MISSED'}${row.note ? ` (${row.note})` : ''}\n`,
  );
}

export function printTable() {
  const head = ['', 'measurement', 'figure', 'baseline', 'ratio', 'target', 'met'];
  const body = rows.map((r) => [r.id, r.what, r.value, r.baseline, r.ratio, r.target, r.met === null ? '' : r.met ? 'yes' : 'NO']);
  const widths = head.map((h, i) => Math.max(h.length, ...body.map((b) => b[i].length)));
  const line = (cells: string[]) => `| ${cells.map((c, i) => c.padEnd(widths[i])).join(' | ')} |`;
  const out = [line(head), `|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`, ...body.map(line)];
  const notes = rows.filter((r) => r.note).map((r) => `(${r.id}) ${r.note}`);
  process.stdout.write(`\n${out.join('\n')}\n\n${notes.join('\n')}\n`);
}

/**
 * A throughput comparison as two rows: the baseline side, then the subject with its ratio against a minimum (null: a
 * control, reported without a target).
 */
export function reportThroughput(
  base: { id: string; what: string; rps: number; bad: string },
  subject: { id: string; what: string; rps: number; bad: string },
  min: number | null,
  note?: string,
): void {
  const ratio = subject.rps / base.rps;
  report({ id: base.id, what: base.what, value: fmt(base.rps) + base.bad, baseline: '', ratio: '', target: 'baseline', met: null });
  report({
    id: subject.id,
    what: subject.what,
    value: fmt(subject.rps) + subject.bad,
    baseline: fmt(base.rps),
    ratio: `${fmt(ratio, 2)} x ${base.id}`,
    target: min === null ? 'control' : `>= ${min} x ${base.id}`,
    met: min === null ? null : ratio >= min,
    note,
  });
}
