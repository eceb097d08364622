// Runs an exported test file as its user would: in a directory whose node_modules holds the package (and vitest).
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROOT } from './cli.js';

/** The seal key the suites' exporting mocks are given, and that the exported files are run with (PRM_SEAL_KEY). */
export const SEAL_KEY = 'test-seal-key: long and random in real use';

export interface ReplayRun {
  code: number | null;
  out: string;
}

export interface ReplayStep {
  id: number;
  name: string;
  status: number;
  assert: boolean;
  at?: string;
  body: unknown;
  shows?: unknown;
  headers: Record<string, unknown>;
  response: unknown;
}

/** The steps an exported file holds (one JSON object per line). */
export const stepsOf = (text: string): ReplayStep[] => [...text.matchAll(/^ {2}(\{"id":.*\}),$/gm)].map((m) => JSON.parse(m[1]) as ReplayStep);

/** A constant the file declares on one line (`SHAPE_ONLY`, `OPTIONS`, `BUNDLE`). */
export const constOf = (text: string, name: string): unknown => JSON.parse(new RegExp(`^const ${name} = (.*);$`, 'm').exec(text)![1]);

/** The names of the failing tests in node:test's TAP output. */
export const failing = (out: string): string[] => [...out.matchAll(/^\s*not ok \d+ - (request .*)$/gm)].map((m) => m[1]);

/** A scratch directory that imports the built package by its name; `remove` when the suite is done. */
export function replayDir(): {
  run(name: string, text: string, runner?: 'node-test' | 'vitest', env?: Record<string, string | undefined>): ReplayRun;
  remove(): void;
} {
  const dir = mkdtempSync(join(tmpdir(), 'export-test-'));
  mkdirSync(join(dir, 'node_modules'));
  symlinkSync(ROOT, join(dir, 'node_modules', 'project-runtime-mock'), 'dir');
  symlinkSync(join(ROOT, 'node_modules', 'vitest'), join(dir, 'node_modules', 'vitest'), 'dir');
  return {
    run(name, text, runner = 'node-test', env: Record<string, string | undefined> = { PRM_SEAL_KEY: SEAL_KEY }) {
      writeFileSync(join(dir, name), text);
      const args =
        runner === 'node-test'
          ? ['--test', '--test-reporter=tap', join(dir, name)]
          : [join(ROOT, 'node_modules', 'vitest', 'vitest.mjs'), 'run', '--root', dir, name];
      const r = spawnSync(process.execPath, args, {
        cwd: dir,
        encoding: 'utf8',
        timeout: 180_000,
        env: { ...process.env, NO_COLOR: '1', FORCE_COLOR: '0', ...env },
      });
      return { code: r.status, out: `${r.stdout}\n${r.stderr}` };
    },
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
}
