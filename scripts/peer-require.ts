// esbuild plugin for the CommonJS build: an optional peer dependency (testcontainers) stays outside the bundle, and a
// require of the entry that needs it, with the peer not installed, fails naming the package and how to add it.
import type { Plugin } from 'esbuild';

/** A module that requires the peer `name` and, when it is missing, throws an error that says which and why. */
export function peerSource(name: string, entry: string): string {
  const message = `${entry} needs the ${name} package, an optional peer dependency of project-runtime-mock: install it beside it (npm install --save-dev ${name})`;
  return `try {
  module.exports = require(${JSON.stringify(name)});
} catch (err) {
  if (err && err.code === 'MODULE_NOT_FOUND' && String(err.message).includes(${JSON.stringify(`'${name}'`)}))
    throw Object.assign(new Error(${JSON.stringify(message)}, { cause: err }), { code: 'MODULE_NOT_FOUND' });
  throw err;
}
`;
}

/** Resolves each of `peers` (bare names) to a module made by peerSource; the require inside it stays external. */
export function peerRequire(peers: string[], entry: string): Plugin {
  const filter = new RegExp(`^(${peers.map((p) => p.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')).join('|')})$`);
  return {
    name: 'peer-require',
    setup(b) {
      if (peers.length === 0) return;
      b.onResolve({ filter }, (args) => (args.namespace === 'peer' ? { path: args.path, external: true } : { path: args.path, namespace: 'peer' }));
      b.onLoad({ filter: /.*/, namespace: 'peer' }, (args) => ({ contents: peerSource(args.path, entry), loader: 'js' }));
    },
  };
}
