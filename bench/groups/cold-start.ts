// Group cold: a test file's first mock in a fresh Node process (import the package, createApp with the demo fixture,
// one mock.fetch) against msw's (import, setupServer with one handler answering the same JSON, one fetch), and the same
// first mock through the CommonJS build (require) against the ES module one.
import { spawn } from 'node:child_process';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { fmt, median, report } from '../lib/report.js';

const script = (name: string) => fileURLToPath(new URL(`../cold/${name}${name.endsWith('.cjs') ? '' : '.mjs'}`, import.meta.url));

/**
 * The children's environment: this one without NODE_EXTRA_CA_CERTS. With it set, every Node process parses that CA
 * bundle as it starts, before any script (a 220 KB bundle took Node's start from about 30 to about 80 ms): a setting
 * of the machine, paid alike by both sides, that would add the same constant to each and measure neither package.
 */
function childEnv(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const { NODE_EXTRA_CA_CERTS: _certs, ...rest } = process.env;
  return { ...rest, ...env };
}

/** Spawn to the line the process prints once answered (Node's own start included, as a test worker pays it). */
function once(name: string, env: NodeJS.ProcessEnv = {}): Promise<{ ms: number; line: string }> {
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    const child = spawn(process.execPath, [script(name)], { env: childEnv(env), stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (c: Buffer) => {
      out += c;
      if (out.includes('\n')) resolve({ ms: performance.now() - t0, line: out.trim() });
    });
    child.on('error', reject);
    child.on('close', (code) => (code === 0 ? undefined : reject(new Error(`${name} exited ${code}`))));
  });
}

export async function coldStart() {
  const first = await once('mock'); // warms the file cache too; its answer is the JSON msw's handler sends
  const { body } = JSON.parse(first.line) as { body: string };
  await once('msw', { BODY: body });
  const required = await once('mock-require.cjs');
  if (JSON.parse(required.line).body !== body) throw new Error('the CommonJS build answered another body than the ES module one');
  const mock: number[] = [];
  const msw: number[] = [];
  const cjs: number[] = [];
  for (let i = 0; i < 15; i++) {
    mock.push((await once('mock')).ms);
    msw.push((await once('msw', { BODY: body })).ms);
    cjs.push((await once('mock-require.cjs')).ms);
  }
  const ratio = median(mock) / median(msw);
  report({
    id: 'cold0',
    what: 'msw: fresh process to one answered fetch (setupServer, one handler), median of 15',
    value: `${fmt(median(msw))} ms`,
    baseline: '',
    ratio: '',
    target: 'baseline',
    met: null,
  });
  report({
    id: 'cold',
    what: 'mock: fresh process to one answered mock.fetch (import, createApp + demo), median of 15',
    value: `${fmt(median(mock))} ms`,
    baseline: `${fmt(median(msw))} ms`,
    ratio: `${fmt(ratio, 2)} x cold0`,
    target: '<= 0.5 x cold0',
    met: ratio <= 0.5,
  });
  const cjsRatio = median(cjs) / median(mock);
  report({
    id: 'cold-cjs',
    what: 'mock, CommonJS: fresh process to one answered mock.fetch (require, createApp + demo), median of 15',
    value: `${fmt(median(cjs))} ms`,
    baseline: `${fmt(median(mock))} ms`,
    ratio: `${fmt(cjsRatio, 2)} x cold`,
    target: '<= 1.1 x cold',
    met: cjsRatio <= 1.1,
  });
}
