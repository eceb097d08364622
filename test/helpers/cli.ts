// Starts the built CLI (dist/cli.js) as a child process and waits for its "listening on" line.
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export const ROOT = fileURLToPath(new URL('../..', import.meta.url));
export const CLI = fileURLToPath(new URL('../../dist/cli.js', import.meta.url));

export interface RunningCli {
  url: string;
  proc: ChildProcess;
  stderr(): string;
  /** Sends a signal and resolves with the exit code. */
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

export function startCli(args: string[], timeoutMs = 10_000, env: NodeJS.ProcessEnv = {}): Promise<RunningCli> {
  const proc = spawn(process.execPath, [CLI, ...args], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, ...env } });
  let out = '';
  let err = '';
  const exited = new Promise<number | null>((resolve) => proc.on('exit', (code) => resolve(code)));
  proc.stderr!.on('data', (c) => (err += c));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      proc.kill('SIGKILL');
      reject(new Error(`CLI did not start in ${timeoutMs} ms: ${err}`));
    }, timeoutMs);
    proc.stdout!.on('data', (c) => {
      out += c;
      const m = /listening on (http:\/\/\S+)\n/.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve({
          url: m[1],
          proc,
          stderr: () => err,
          stop: (signal = 'SIGTERM') => {
            proc.kill(signal);
            return exited;
          },
        });
      }
    });
    exited.then((code) => {
      clearTimeout(timer);
      reject(Object.assign(new Error(`CLI exited with ${code}: ${err}${out ? ` (stdout: ${out.slice(-500)})` : ''}`), { code, stderr: err }));
    });
  });
}

/** Runs the CLI expecting it to exit on its own (a refusal); resolves with its code and output. */
export function runCliToExit(
  args: string[],
  timeoutMs = 10_000,
  env: NodeJS.ProcessEnv = {},
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const proc = spawn(process.execPath, [CLI, ...args], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, ...env } });
  let stdout = '';
  let stderr = '';
  proc.stdout!.on('data', (c) => (stdout += c));
  proc.stderr!.on('data', (c) => (stderr += c));
  return new Promise((resolve) => {
    const timer = setTimeout(() => proc.kill('SIGKILL'), timeoutMs);
    proc.on('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}
