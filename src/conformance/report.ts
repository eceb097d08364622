// The conformance report in its three written forms (JSON, JUnit XML, Markdown) and the summary line with counts.
import type { ConformanceReport } from './runner.js';
import type { DriftFinding, ProbeResult } from './probe.js';

/** Characters XML 1.0 does not allow at all (not even escaped): C0 controls other than tab, newline, return; U+FFFE/F. */
const xmlChar = (c: string) => {
  const n = c.codePointAt(0)!;
  return (n < 0x20 && n !== 0x09 && n !== 0x0a && n !== 0x0d) || n === 0xfffe || n === 0xffff ? '\ufffd' : c;
};
const esc = (s: string) => Array.from(s, xmlChar).join('').replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
const show = (v: unknown) => (v === undefined ? 'undefined' : JSON.stringify(v));

/** One line per difference: `field: mock <value>, target <value>`. */
export function differenceLines(r: ProbeResult): string[] {
  return [
    ...r.differences.map((d) => `${d.field}: mock ${show(d.mock)}, target ${show(d.target)}`),
    ...r.repeats.map((d) => `${d.field}: as reported by "${d.first}"`),
  ];
}

export function summaryLine(report: ConformanceReport): string {
  const s = report.summary;
  const verdict = s.differences > 0 ? 'differences found' : 'no differences';
  return `conformance: ${s.probes} probes against ${report.target}: ${s.same} same, ${s.different} different (${s.differences} distinct differences, ${s.warnings} warnings), ${s.not_comparable} not comparable, ${s.compatible} compatible extras; ${verdict}`;
}

export function jsonReport(report: ConformanceReport): string {
  return `${JSON.stringify(report, null, 2)}\n`;
}

/** JUnit XML: a test case per probe; a difference is a failure, a probe that could not be compared is skipped. */
export function junitReport(report: ConformanceReport): string {
  const cases = report.results.map((r) => {
    const open = `  <testcase classname="conformance.${esc(r.operation)}" name="${esc(r.probe)}">`;
    if (r.outcome === 'not comparable') return `${open}<skipped message="${esc(r.reason ?? '')}"/></testcase>`;
    if (r.outcome === 'different') {
      const lines = differenceLines(r);
      return `${open}<failure message="${esc(lines[0])}">${esc(`${r.request}\n${lines.join('\n')}`)}</failure></testcase>`;
    }
    return `${open}</testcase>`;
  });
  const s = report.summary;
  return `<?xml version="1.0" encoding="UTF-8"?>\n<testsuite name="project-runtime-mock conformance" tests="${s.probes}" failures="${s.different}" skipped="${s.not_comparable}">\n${cases.join('\n')}\n</testsuite>\n`;
}

const cell = (s: string) => s.replace(/\|/g, '\\|').replace(/\n/g, ' ');

/** The operations a finding showed in, and how many probes met it (the first named). */
const where = (f: DriftFinding) =>
  `${f.operations.map((o) => `\`${o}\``).join(', ')} (${f.probes.length} probe${f.probes.length === 1 ? '' : 's'}, first "${cell(f.probes[0])}")`;

/** Markdown for a CI summary: the summary line, the differences and warnings by cause, the compatible extras, the probes not compared. */
export function markdownReport(report: ConformanceReport): string {
  const drift = report.findings.filter((f) => f.level === 'drift');
  const warnings = report.findings.filter((f) => f.level === 'warning');
  const compatible = report.results.filter((r) => r.compatible.length);
  const skipped = report.results.filter((r) => r.outcome === 'not comparable');
  const out = [`## Conformance: ${report.summary.differences > 0 ? 'differences found' : 'no differences'}`, '', summaryLine(report), ''];
  if (drift.length) {
    out.push('### Differences (one row per cause)', '', '| field | mock | target | where |', '| --- | --- | --- | --- |');
    for (const f of drift) out.push(`| \`${cell(f.field)}\` | ${cell(show(f.mock))} | ${cell(show(f.target))} | ${where(f)} |`);
    out.push('');
  }
  if (warnings.length) {
    out.push('### Warnings (optional fields the target dropped)', '');
    for (const f of warnings) out.push(`- \`${cell(f.field)}\`: ${where(f)}`);
    out.push('');
  }
  if (compatible.length) {
    out.push('### Compatible (extra fields the contract allows)', '');
    for (const r of compatible) for (const d of r.compatible) out.push(`- ${r.probe}: \`${d.field}\` = ${show(d.target)}`);
    out.push('');
  }
  if (skipped.length) {
    out.push('### Not comparable', '');
    for (const r of skipped) out.push(`- ${r.probe}: ${r.reason}`);
    out.push('');
  }
  if (report.writes.length) out.push('### Writes', '', ...report.writes.map((w) => `- ${w}`), '');
  return out.join('\n');
}
