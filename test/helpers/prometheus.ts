// A strict parser of the Prometheus text format (0.0.4), written from the format's rules, for tests of GET /_mock/metrics.

export interface Family {
  type: 'counter' | 'gauge' | 'histogram' | 'summary' | 'untyped';
  help?: string;
  /** Sample name + canonical label text ('{a="1",b="2"}' in the order given, '' without labels) -> value. */
  samples: Map<string, number>;
}

const NAME = /^[a-zA-Z_:][a-zA-Z0-9_:]*$/;
const LABEL = /^[a-zA-Z_][a-zA-Z0-9_]*$/;
const SUFFIXES = { histogram: ['_bucket', '_sum', '_count'], summary: ['_sum', '_count', ''] } as const;

/** Parses `text`; throws on anything the format forbids (see the checks below). */
export function parsePrometheus(text: string): Map<string, Family> {
  if (text !== '' && !text.endsWith('\n')) throw new Error('the text must end with a newline');
  const families = new Map<string, Family>();
  const seen = new Set<string>();
  const lines = text.split('\n').slice(0, -1);
  for (const [i, line] of lines.entries()) {
    const where = `line ${i + 1}: ${line}`;
    if (line === '') continue;
    if (line.startsWith('#')) {
      const m = /^# (HELP|TYPE) (\S+) ?(.*)$/.exec(line);
      if (!m) continue; // a plain comment
      const [, kind, name, rest] = m;
      if (!NAME.test(name)) throw new Error(`bad metric name: ${where}`);
      const f = families.get(name);
      if (kind === 'TYPE') {
        if (f?.samples.size) throw new Error(`TYPE after samples: ${where}`);
        if (f && f.type !== 'untyped') throw new Error(`TYPE twice: ${where}`);
        if (!['counter', 'gauge', 'histogram', 'summary', 'untyped'].includes(rest)) throw new Error(`bad type: ${where}`);
        families.set(name, { ...(f ?? { samples: new Map() }), type: rest as Family['type'] });
      } else {
        if (f?.help !== undefined) throw new Error(`HELP twice: ${where}`);
        families.set(name, { ...(f ?? { type: 'untyped', samples: new Map() }), help: rest });
      }
      continue;
    }
    const m = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(\{[^}]*\})? (\S+)( -?\d+)?$/.exec(line);
    if (!m) throw new Error(`bad sample: ${where}`);
    const [, name, labelText = '', valueText] = m;
    const labels = parseLabels(labelText, where);
    const value = valueText === '+Inf' ? Infinity : valueText === '-Inf' ? -Infinity : valueText === 'NaN' ? NaN : Number(valueText);
    if (!/^(?:[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?|[+-]Inf|NaN)$/.test(valueText)) throw new Error(`bad value: ${where}`);
    const family = familyOf(families, name);
    if (!family) throw new Error(`a sample with no TYPE before it: ${where}`);
    const key = `${name}${labels}`;
    if (seen.has(key)) throw new Error(`a series twice: ${where}`);
    seen.add(key);
    if (family.type === 'counter' && !(value >= 0)) throw new Error(`a counter below zero: ${where}`);
    family.samples.set(key, value);
  }
  for (const [name, f] of families) if (f.type === 'histogram') checkHistogram(name, f);
  return families;
}

/** Label pairs `a="x",b="y"` (escapes \\, \" and \n only; no label twice); answered in canonical form. */
function parseLabels(text: string, where: string): string {
  if (text === '') return '';
  const inner = text.slice(1, -1);
  const names = new Set<string>();
  const parts: string[] = [];
  let rest = inner;
  while (rest.length) {
    const m = /^([^=]+)="((?:[^"\\\n]|\\[\\"n])*)"(,|$)/.exec(rest);
    if (!m || !LABEL.test(m[1])) throw new Error(`bad labels: ${where}`);
    if (names.has(m[1])) throw new Error(`a label twice: ${where}`);
    names.add(m[1]);
    parts.push(`${m[1]}="${m[2]}"`);
    rest = rest.slice(m[0].length);
    if (m[3] === '' && rest.length) throw new Error(`bad labels: ${where}`);
  }
  return `{${parts.join(',')}}`;
}

function familyOf(families: Map<string, Family>, sample: string): Family | undefined {
  const direct = families.get(sample);
  if (direct && direct.type !== 'histogram') return direct;
  for (const [name, f] of families) {
    const suffixes = f.type === 'histogram' ? SUFFIXES.histogram : f.type === 'summary' ? SUFFIXES.summary : null;
    if (suffixes?.some((s) => sample === name + s)) return f;
  }
  return undefined;
}

/** Per label set: buckets cumulative (never falling) by `le`, a +Inf bucket equal to _count, a _sum. */
function checkHistogram(name: string, f: Family): void {
  const groups = new Map<string, { le: number; v: number }[]>();
  for (const [key, v] of f.samples) {
    if (!key.startsWith(`${name}_bucket`)) continue;
    const le = /le="([^"]*)"/.exec(key)?.[1];
    if (le === undefined) throw new Error(`a bucket without le: ${key}`);
    const rest = key
      .slice(`${name}_bucket`.length)
      .replace(/le="[^"]*",?/, '')
      .replace(/,}$/, '}');
    const list = groups.get(rest === '{}' ? '' : rest) ?? [];
    list.push({ le: le === '+Inf' ? Infinity : Number(le), v });
    groups.set(rest === '{}' ? '' : rest, list);
  }
  for (const [labels, buckets] of groups) {
    buckets.sort((a, b) => a.le - b.le);
    for (let i = 1; i < buckets.length; i++) if (buckets[i].v < buckets[i - 1].v) throw new Error(`${name}${labels}: buckets not cumulative`);
    const inf = buckets.at(-1)!;
    if (inf.le !== Infinity) throw new Error(`${name}${labels}: no +Inf bucket`);
    if (f.samples.get(`${name}_count${labels}`) !== inf.v) throw new Error(`${name}${labels}: +Inf bucket is not _count`);
    if (!f.samples.has(`${name}_sum${labels}`)) throw new Error(`${name}${labels}: no _sum`);
  }
}

/** The samples named `sample` (a family's name, or a histogram's name_bucket / _sum / _count) by their label text. */
export function series(families: Map<string, Family>, sample: string): Record<string, number> {
  const out: Record<string, number> = {};
  for (const f of families.values()) for (const [key, v] of f.samples) if (key === sample || key.startsWith(`${sample}{`)) out[key.slice(sample.length)] = v;
  return out;
}
