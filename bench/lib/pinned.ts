// An older commit of this repository, built once in a worktree of its own under the system's temp folder and kept there
// (later runs reuse it), so a group can measure the current code against it in the same run: drift shows as a ratio.
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { ROOT, start, type Server } from './servers.js';

/** The folder of `commit`'s build (its dist/cli.js), made on first use: git worktree add, npm ci, npm run build. */
export function pinnedBuild(commit: string): string {
  const dir = join(tmpdir(), `prm-${commit}`);
  if (existsSync(join(dir, 'dist', 'cli.js'))) return dir;
  const step = (what: string, cmd: string, args: string[], cwd: string) => {
    process.stderr.write(`  building commit ${commit} once for its A/B rows (into ${dir}): ${what}\n`);
    execFileSync(cmd, args, { cwd, stdio: ['ignore', 'ignore', 'inherit'] });
  };
  if (!existsSync(join(dir, 'package.json'))) step('git worktree add', 'git', ['worktree', 'add', '--detach', '--force', dir, commit], ROOT);
  step('npm ci', 'npm', ['ci', '--ignore-scripts', '--no-audit', '--no-fund'], dir);
  step('npm run build', 'npm', ['run', 'build'], dir);
  return dir;
}

/** `commit`'s CLI listening on a free port with `flags` (its flags: check them in that commit). */
export const pinnedCli = (commit: string, ...flags: string[]): Promise<Server> => start(['dist/cli.js', '--port', '0', ...flags], { cwd: pinnedBuild(commit) });

/** `commit`'s built package (dist/index.js), loaded into this process beside the current one. */
export const pinnedPackage = <T>(commit: string): Promise<T> => import(pathToFileURL(join(pinnedBuild(commit), 'dist', 'index.js')).href) as Promise<T>;
