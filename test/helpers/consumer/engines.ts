// What the installed package needs of Node: every package its dependencies pull in, with the `engines.node` range each
// declares, and whether a version satisfies such a range (the forms npm packages use: >=, >, <, <=, ^, ~, x, ||).
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

interface Manifest {
  name: string;
  version: string;
  engines?: { node?: string };
  dependencies?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
}

/** The installed packages `root` (a package folder) depends on, transitively, found as Node resolves them. */
export function installedTree(root: string, top: string): Manifest[] {
  const seen = new Map<string, Manifest>();
  const stack = [root];
  while (stack.length > 0) {
    const at = stack.pop()!;
    const pkg = JSON.parse(readFileSync(join(at, 'package.json'), 'utf8')) as Manifest;
    for (const name of Object.keys({ ...pkg.dependencies, ...pkg.optionalDependencies })) {
      let dir = at;
      let found: string | undefined;
      for (;;) {
        const candidate = join(dir, 'node_modules', name);
        if (existsSync(join(candidate, 'package.json'))) {
          found = candidate;
          break;
        }
        if (dir === top || dirname(dir) === dir) break;
        dir = dirname(dir);
      }
      if (found && !seen.has(found)) {
        seen.set(found, JSON.parse(readFileSync(join(found, 'package.json'), 'utf8')) as Manifest);
        stack.push(found);
      }
    }
  }
  return [...seen.values()];
}

const parts = (v: string): number[] => v.split('.').map((p) => (/^\d+$/.test(p) ? Number(p) : NaN));
const cmp = (a: number[], b: number[]): number => {
  for (let i = 0; i < 3; i++) if ((a[i] ?? 0) !== (b[i] ?? 0)) return (a[i] ?? 0) - (b[i] ?? 0);
  return 0;
};

/** Whether `version` (x.y.z) is in `range`. */
export function satisfies(version: string, range: string): boolean {
  const v = parts(version);
  return range.split('||').some((alt) =>
    alt
      .replace(/([<>=^~]+)\s+/g, '$1')
      .trim()
      .split(/\s+/)
      .every((c) => {
        const [, op, rest] = /^([<>=^~]*)v?(.*)$/.exec(c)!;
        if (rest === '*' || rest === '' || rest === 'x') return true;
        const r = parts(rest.replace(/\.x/g, ''));
        const fixed = r.filter((n) => !Number.isNaN(n)).length; // 20.x: only the major is fixed
        const lo = r.map((n) => (Number.isNaN(n) ? 0 : n));
        if (op === '>=') return cmp(v, lo) >= 0;
        if (op === '>') return cmp(v, lo) > 0;
        if (op === '<=') return cmp(v, lo) <= 0;
        if (op === '<') return cmp(v, lo) < 0;
        if (op === '^') return cmp(v, lo) >= 0 && (lo[0] > 0 ? v[0] === lo[0] : v[1] === lo[1]);
        if (op === '~') return cmp(v, lo) >= 0 && v[0] === lo[0] && (fixed < 2 || v[1] === lo[1]);
        return v.slice(0, fixed).every((n, i) => n === lo[i]);
      }),
  );
}
