// `project-runtime-mock conformance --target URL ...`: runs the probe catalogue against a real service and an
// in-process mock, prints each difference and a summary line, writes JSON/JUnit/Markdown; exit 1 on a difference, 2 on
// bad usage or an unreachable target.
import { readFileSync, writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { DEMO_FIXTURE_PATH } from './fixtures.js';
import { catalogue, runConformance, scrubber, shownUrl, TargetUnreachable, type ConformanceReport } from './conformance/index.js';
import { differenceLines, jsonReport, junitReport, markdownReport, summaryLine } from './conformance/index.js';
import { openApiDocument } from './document/index.js';

export const CONFORMANCE_USAGE = `Usage: project-runtime-mock conformance --target URL [options]
  --target URL               the real service (its base URL; /api/v3/... is appended)
  --token T                  an access token the target accepts (read on --project; operator on --disposable-project)
  --admin-key K              the target's admin key (X-Admin-Key probes)
  --project ID               a project whose records the read probes read
  --disposable-project ID    the only project the writes may change (budget PUT, a deny, a cancel)
  --write                    run the writes (needs --disposable-project)
  --dry-run                  list the probes (and what each write would do) without sending anything
  --fixtures FILE            the in-process mock's fixture (default: the bundled demo); see docs/conformance.md
  --json FILE                write the report as JSON
  --junit FILE               write the report as JUnit XML
  --markdown FILE            write the report as Markdown (for a CI summary)`;

/** The values given to --token and --admin-key (as `--flag value` or `--flag=value`). */
function secretArgs(args: string[]): string[] {
  return args.flatMap((a, i) => {
    const m = /^--(token|admin-key)(=(.*))?$/.exec(a);
    return m ? [m[2] ? m[3] : (args[i + 1] ?? '')] : [];
  });
}

type Stream = Pick<NodeJS.WriteStream, 'write'> & { isTTY?: boolean };

/** Runs the command; resolves with the exit code. */
export async function conformanceCommand(args: string[], out: Stream = process.stdout, err: Stream = process.stderr): Promise<number> {
  let f;
  const usage = (message: string) => {
    err.write(`project-runtime-mock conformance: ${message}\n${CONFORMANCE_USAGE}\n`);
    return 2;
  };
  try {
    f = parseArgs({
      args,
      options: {
        target: { type: 'string' },
        token: { type: 'string' },
        'admin-key': { type: 'string' },
        project: { type: 'string' },
        'disposable-project': { type: 'string' },
        write: { type: 'boolean', default: false },
        'dry-run': { type: 'boolean', default: false },
        fixtures: { type: 'string' },
        json: { type: 'string' },
        junit: { type: 'string' },
        markdown: { type: 'string' },
      },
      strict: true,
      allowPositionals: false,
    }).values;
  } catch (e) {
    // parseArgs quotes the offending argument: a secret given to a mistyped flag must not be echoed.
    return usage(scrubber(secretArgs(args))((e as Error).message));
  }
  if (!f.target) return usage('--target is required');
  if (!/^https?:\/\/[^/]/i.test(f.target)) return usage(`--target must be an http:// or https:// URL, got ${shownUrl(f.target)}`);
  if (f.write && !f['disposable-project']) return usage('--write runs only on --disposable-project: name the project it may change');
  let fixtures: unknown;
  try {
    fixtures = JSON.parse(readFileSync(f.fixtures ?? DEMO_FIXTURE_PATH, 'utf8'));
  } catch (e) {
    return usage(`cannot read --fixtures ${f.fixtures}: ${(e as Error).message}`);
  }
  if (f['dry-run']) {
    const probes = catalogue(openApiDocument(false), { write: f.write });
    for (const p of probes) out.write(`${p.group.padEnd(10)} ${p.name}${p.says ? `\n           will: ${p.says}` : ''}\n`);
    out.write(`conformance: dry run, ${probes.length} probes listed (${probes.filter((p) => p.says).length} writes), nothing sent to ${shownUrl(f.target)}\n`);
    return 0;
  }
  // Each write says what it will do before anything is sent.
  if (f.write) {
    const writes = catalogue(openApiDocument(false), { write: true }).filter((p) => p.says);
    out.write(`writes on the disposable project ${f['disposable-project']}:\n${writes.map((p) => `  will: ${p.says}\n`).join('')}`);
  }
  const tty = err.isTTY === true;
  let report: ConformanceReport;
  try {
    report = await runConformance({
      target: f.target,
      token: f.token,
      adminKey: f['admin-key'],
      project: f.project,
      disposableProject: f['disposable-project'],
      write: f.write,
      fixtures,
      onProgress: tty ? (done, total, name) => err.write(`\r\x1b[K[${done}/${total}] ${name.slice(0, 70)}`) : undefined,
    });
  } catch (e) {
    if (tty) err.write('\r\x1b[K');
    if (e instanceof TargetUnreachable) {
      err.write(`project-runtime-mock conformance: ${e.message}\n`);
      return 2;
    }
    throw e;
  }
  if (tty) err.write('\r\x1b[K');
  for (const r of report.results.filter((x) => x.outcome === 'different')) {
    out.write(
      `different  ${r.probe}  (${r.request})\n${differenceLines(r)
        .map((l) => `           ${l}\n`)
        .join('')}`,
    );
  }
  if (f.json) writeFileSync(f.json, jsonReport(report));
  if (f.junit) writeFileSync(f.junit, junitReport(report));
  if (f.markdown) writeFileSync(f.markdown, markdownReport(report));
  out.write(`${summaryLine(report)}\n`);
  return report.summary.differences > 0 || report.summary.different > 0 ? 1 : 0;
}
