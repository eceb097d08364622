// Module hook of the test worker: a suite's `import { test, suite } from 'uvu'` gets the counting shim
// (uvu-shim.mjs) instead, so the runner sees every registered test, times each one and notices a missing run().
const shim = new URL('./uvu-shim.mjs', import.meta.url).href;

export async function resolve(specifier, context, next) {
  if (specifier === 'uvu' && context.parentURL !== shim) return { url: shim, shortCircuit: true };
  return next(specifier, context);
}
