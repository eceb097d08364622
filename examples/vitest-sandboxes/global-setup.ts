// Starts one mock server (the package's CLI, demo fixture, a free port) for the whole run and hands its URL to every
// worker; stops it when the run ends.
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { TestProject } from 'vitest/node';

declare module 'vitest' {
  export interface ProvidedContext {
    mockUrl: string;
  }
}

export default async function setup(project: TestProject) {
  const pkg = createRequire(import.meta.url).resolve('project-runtime-mock/package.json');
  const server = spawn(process.execPath, [join(dirname(pkg), 'dist/cli.js'), '--port', '0', '--memory', '--simulation', 'off'], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const url = await new Promise<string>((resolve, reject) => {
    let out = '';
    server.stdout.on('data', (chunk) => {
      out += chunk;
      const listening = /listening on (http:\/\/\S+)/.exec(out);
      if (listening) resolve(listening[1]);
    });
    server.on('exit', (code) => reject(new Error(`the mock exited (${code}) before listening`)));
  });
  project.provide('mockUrl', url);
  return () => {
    server.kill();
  };
}
