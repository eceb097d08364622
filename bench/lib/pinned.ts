// An older commit of this repository, built once in a worktree of its own under the system's temp folder and kept there
// (later runs reuse it), so a group can measure the current code against it in the same run: drift shows as a ratio.
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROOT } from './servers.js';

/** The folder of `commit`'s build (its dist/cli.js), made on first use: git worktree add, npm ci, npm run build. */
export function pinnedBuild(commit: string): string {
  const dir = join(tmpdir(), `prm-${commit}`);
  if (existsSync(join(dir, 'dist', 'cli.js'))) return dir;
  const step = (what: string, cmd: string, args: string[], cwd: string) => {
    process.stderr.write(`  building ${commit} for the A/B row: ${what}\n`);
    execFileSync(cmd, args, { cwd, stdio: ['ignore', 'ignore', 'inherit'] });
  };
  if (!existsSync(join(dir, 'package.json'))) step('git worktree add', 'git', ['worktree', 'add', '--detach', '--force', dir, commit], ROOT);
  step('npm ci', 'npm', ['ci', '--ignore-scripts', '--no-audit', '--no-fund'], dir);
  step('npm run build', 'npm', ['run', 'build'], dir);
  return dir;
}
