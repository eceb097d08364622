// Runs python/'s pytest plugin from the source tree with Debian's /usr/bin/python3 (pytest and pytest-xdist from apt),
// and reads what the isolation tests wrote down: shared by the plugin's suite and the container suite.
import { mkdirSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROOT } from './cli.js';
import { run as runCommand } from './consumer/scratch.js';

export const PYTHON = '/usr/bin/python3';
export const PY = join(ROOT, 'python');

/** A command's exit and output; no bytecode or cache files written into the repository, no colour in reports. */
export const run = (cmd: string, args: string[], env: NodeJS.ProcessEnv = {}, cwd = PY) =>
  runCommand(cmd, args, cwd, { PYTHONDONTWRITEBYTECODE: '1', PY_COLORS: '0', RUNTIME_MOCK_URL: undefined, ...env });

/** pytest from the source tree, the plugin named with -p (the entry point is tested on an installed copy). */
export const pytest = (args: string[], env: NodeJS.ProcessEnv = {}) =>
  run(PYTHON, ['-m', 'pytest', '-p', 'project_runtime_mock.pytest_plugin', '-p', 'no:cacheprovider', ...args], { PYTHONPATH: join(PY, 'src'), ...env });

/** Whether /usr/bin/python3 has pytest and pytest-xdist (and `more` modules). */
export const hasPytest = async (more: string[] = []) => (await run(PYTHON, ['-c', `import ${['pytest', 'xdist', ...more].join(', ')}`])).code === 0;

/** A failed pytest run told by its summary first (the runner shows a failure's first line, and pytest's tail opens with a
 * row of underscores), then its last 40 lines. */
export function pytestFailure(done: { code: number | null; out: string }): string {
  const lines = done.out.trimEnd().split('\n');
  return `pytest exit ${done.code}: ${lines.at(-1) ?? ''}\n${lines.slice(-40).join('\n')}`;
}

export interface IsolationRecord {
  worker: string;
  server: string;
  sandbox: string;
}

/** A fresh folder for RUNTIME_MOCK_RECORD: each isolation test writes one file there. */
export function recordDir(): string {
  const dir = join(mkdtempSync(join(tmpdir(), 'prm-pytest-')), 'records');
  mkdirSync(dir);
  return dir;
}

/** What each isolation test wrote down: its xdist worker, the server it used, its sandbox. */
export function records(dir: string): IsolationRecord[] {
  return readdirSync(dir).map((f) => JSON.parse(readFileSync(join(dir, f), 'utf8')) as IsolationRecord);
}
