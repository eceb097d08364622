// Path patterns for faults and journal filters: `*` is one path segment, `**` any number of them.

/** Compiles `/api/v3/projects/*\/runs/*` style patterns; every other character is literal. */
export function globToRegExp(glob: string): RegExp {
  let re = '';
  for (let i = 0; i < glob.length; i++) {
    const ch = glob[i];
    if (ch === '*') {
      if (glob[i + 1] === '*') {
        re += '.*';
        i++;
      } else re += '[^/]*';
    } else re += ch.replace(/[.+?^${}()|[\]\\]/g, '\\$&');
  }
  return new RegExp(`^${re}$`);
}

export const isGlob = (pattern: string): boolean => pattern.includes('*');
