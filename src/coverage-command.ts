// `project-runtime-mock coverage --url URL ...`: reads a running mock's coverage report, prints a table, writes JUnit or
// Markdown, and exits 1 when the threshold or a requirement is not met (2 for a usage error).
import { writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import type { CoverageReport } from './control/index.js';
import { gapText, gate, parseRequirement, type GateResult, type Requirement } from './control/index.js';

const COVERAGE_USAGE = `Usage: project-runtime-mock coverage --url URL [options]
  --url URL              the running mock (its /_mock/coverage is read)
  --fail-under PCT       exit 1 when the overall coverage is under PCT (0-100)
  --require OP:STATUS[:REASON]  exit 1 unless OP answered STATUS (with REASON); repeatable
  --junit FILE           write the result as JUnit XML
  --markdown FILE        write the result as Markdown (for a CI summary)
  --control-token T      the mock's control token, when it has one`;

const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
const ratio = (seen: number, total: number) => `${seen}/${total}`;

/** One row per operation: requests, and what of its statuses, reason codes and transitions was exercised. */
function coverageTable(report: CoverageReport): string[][] {
  return report.operations.map((o) => [
    o.operation,
    String(o.requests),
    ratio(o.exercised.statuses.length, o.exercised.statuses.length + o.missing.statuses.length),
    ratio(o.exercised.reason_codes.length, o.exercised.reason_codes.length + o.missing.reason_codes.length),
    ratio(o.exercised.transitions.length, o.exercised.transitions.length + o.missing.transitions.length),
  ]);
}
const HEAD = ['operation', 'requests', 'statuses', 'reason codes', 'transitions'];

function textTable(rows: string[][]): string {
  const widths = HEAD.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const line = (r: string[]) => r.map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join('  ');
  return [line(HEAD), ...rows.map(line)].join('\n');
}

function junitXml(result: GateResult, requirements: Requirement[]): string {
  const cases: string[] = [];
  const failure = (what: string) =>
    result.gaps.filter((g) => g.what === what || (what === 'threshold' && !requirements.some((r) => g.what.startsWith(`${r.operation}:${r.status}`))));
  const add = (name: string, what: string) => {
    const gaps = failure(what);
    cases.push(
      gaps.length
        ? `  <testcase classname="coverage" name="${esc(name)}"><failure message="${esc(gaps[0].message)}">${esc(gapText(gaps))}</failure></testcase>`
        : `  <testcase classname="coverage" name="${esc(name)}"/>`,
    );
  };
  if (result.failUnder !== null) add(`coverage >= ${result.failUnder}% (is ${result.percent}%)`, 'threshold');
  for (const r of requirements)
    add(`${r.operation}:${r.status}${r.reason ? `:${r.reason}` : ''}`, `${r.operation}:${r.status}${r.reason ? `:${r.reason}` : ''}`);
  const failures = cases.filter((c) => c.includes('<failure')).length;
  return `<?xml version="1.0" encoding="UTF-8"?>\n<testsuite name="project-runtime-mock coverage" tests="${cases.length}" failures="${failures}">\n${cases.join('\n')}\n</testsuite>\n`;
}

function markdown(report: CoverageReport, result: GateResult): string {
  const rows = coverageTable(report).map((r) => `| \`${r[0]}\` | ${r.slice(1).join(' | ')} |`);
  const gaps = result.gaps.map(
    (g) => `- **${g.what}**: ${g.message}\n\n  \`\`\`js\n${[...g.calls, `// then: ${g.then}`].map((c) => `  ${c}`).join('\n')}\n  \`\`\``,
  );
  return [
    `## Coverage: ${report.summary.percent}% ${result.ok ? '(passed)' : '(failed)'}`,
    '',
    `| ${HEAD.join(' | ')} |`,
    `| ${HEAD.map(() => '---').join(' | ')} |`,
    ...rows,
    '',
    ...(gaps.length ? ['### Gaps', '', ...gaps, ''] : []),
  ].join('\n');
}

/** Runs the command; resolves with the exit code. */
export async function coverageCommand(args: string[], out = process.stdout, err = process.stderr): Promise<number> {
  let f;
  let requirements: Requirement[];
  let failUnder: number | undefined;
  try {
    f = parseArgs({
      args,
      options: {
        url: { type: 'string' },
        'fail-under': { type: 'string' },
        require: { type: 'string', multiple: true, default: [] },
        junit: { type: 'string' },
        markdown: { type: 'string' },
        'control-token': { type: 'string' },
      },
      strict: true,
      allowPositionals: false,
    }).values;
    if (!f.url) throw new TypeError('--url is required');
    if (f['fail-under'] !== undefined) {
      failUnder = Number(f['fail-under']);
      if (!(failUnder >= 0 && failUnder <= 100)) throw new TypeError(`--fail-under must be a number from 0 to 100, got ${f['fail-under']}`);
    }
    requirements = f.require!.map(parseRequirement);
  } catch (e) {
    err.write(`project-runtime-mock coverage: ${(e as Error).message}\n${COVERAGE_USAGE}\n`);
    return 2;
  }
  let report: CoverageReport;
  try {
    const res = await fetch(new URL('/_mock/coverage', f.url), { headers: f['control-token'] ? { 'X-Mock-Control-Token': f['control-token'] } : {} });
    if (!res.ok) throw new Error(`GET /_mock/coverage answered ${res.status}`);
    report = (await res.json()) as CoverageReport;
  } catch (e) {
    err.write(`project-runtime-mock coverage: cannot read ${f.url}: ${(e as Error).message}\n`);
    return 2;
  }
  const result = gate(report, { failUnder, require: requirements });
  out.write(`${textTable(coverageTable(report))}\n\n`);
  if (result.gaps.length) out.write(`gaps:\n${gapText(result.gaps)}\n\n`);
  if (f.junit) writeFileSync(f.junit, junitXml(result, requirements));
  if (f.markdown) writeFileSync(f.markdown, markdown(report, result));
  const failed = result.gaps.filter((g) => g.what === 'threshold' || requirements.some((r) => g.what.startsWith(`${r.operation}:${r.status}`))).length;
  out.write(
    `coverage: ${report.summary.percent}% over ${report.operations.length} operations, ${requirements.length} requirement(s); ${result.ok ? 'passed' : `failed (${failed} unmet)`}\n`,
  );
  return result.ok ? 0 : 1;
}
