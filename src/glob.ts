// Path patterns for faults and journal filters, matched segment by segment in time linear in the path (no regular expression).
//
// A pattern and a path are split at `/`. A segment that is exactly `**` matches any number of whole
// segments (none included); in any other segment `*` matches any run of characters except `/` (several
// `*` in a row act as one); every other character is literal. A backtracking regular expression took
// seconds on `/**a**a**a!` against a long path; here each `**` is placed at its leftmost possible match
// (which is always safe, since what follows can only gain from more room), so nothing is ever retried
// exponentially: the work is at most (path length x pattern length), and patterns are capped.

/** Longest pattern accepted (faults' `path`, the journal's `path` filter); a longer one is a 422. */
export const GLOB_MAX_LENGTH = 256;

export interface GlobMatcher {
  test(path: string): boolean;
}

/** Counts the character comparisons a match makes, so tests can assert the work done without timing it. */
export interface StepCounter {
  steps: number;
}

/** One pattern segment: literal pieces between `*`s (a single piece means no `*`). */
type Segment = string[];

const ANY_SEGMENTS = null;

/** Compiles `/api/v3/projects/*\/runs/**` style patterns into a matcher. */
export function compileGlob(pattern: string, counter?: StepCounter): GlobMatcher {
  // Groups of fixed-width segments, separated by `**`.
  const groups: Segment[][] = [[]];
  for (const seg of pattern.split('/').map((s) => (s === '**' ? ANY_SEGMENTS : s.split(/\*+/)))) {
    if (seg === ANY_SEGMENTS) groups.push([]);
    else groups[groups.length - 1].push(seg);
  }
  const c = counter ?? { steps: 0 };
  return { test: (path) => matchGroups(groups, path.split('/'), c) };
}

export const isGlob = (pattern: string): boolean => pattern.includes('*');

function matchGroups(groups: Segment[][], segs: string[], c: StepCounter): boolean {
  const first = groups[0];
  if (groups.length === 1) return first.length === segs.length && matchRun(first, segs, 0, c);
  const last = groups[groups.length - 1];
  const end = segs.length - last.length;
  if (end < first.length || !matchRun(first, segs, 0, c) || !matchRun(last, segs, end, c)) return false;
  let at = first.length;
  for (let g = 1; g < groups.length - 1; g++) {
    const group = groups[g];
    // Leftmost placement of this group between `at` and `end`.
    let found = -1;
    for (let i = at; i + group.length <= end; i++) {
      c.steps++;
      if (matchRun(group, segs, i, c)) {
        found = i;
        break;
      }
    }
    if (found < 0) return false;
    at = found + group.length;
  }
  return true;
}

/** Does each pattern segment of `run` match the path segment at the same offset from `start`? */
function matchRun(run: Segment[], segs: string[], start: number, c: StepCounter): boolean {
  for (let k = 0; k < run.length; k++) if (!matchSegment(run[k], segs[start + k], c)) return false;
  return true;
}

/** `*`-wildcards within one segment: first piece a prefix, last a suffix, middle pieces leftmost in between. */
function matchSegment(pieces: Segment, s: string, c: StepCounter): boolean {
  if (pieces.length === 1) return s.length === pieces[0].length && equalAt(pieces[0], s, 0, c);
  const head = pieces[0];
  const tail = pieces[pieces.length - 1];
  const end = s.length - tail.length;
  if (end < head.length || !equalAt(head, s, 0, c) || !equalAt(tail, s, end, c)) return false;
  let at = head.length;
  for (let p = 1; p < pieces.length - 1; p++) {
    const piece = pieces[p];
    let found = -1;
    for (let i = at; i + piece.length <= end; i++) {
      if (equalAt(piece, s, i, c)) {
        found = i;
        break;
      }
    }
    if (found < 0) return false;
    at = found + piece.length;
  }
  return true;
}

function equalAt(piece: string, s: string, at: number, c: StepCounter): boolean {
  if (at + piece.length > s.length) return false;
  for (let i = 0; i < piece.length; i++) {
    c.steps++;
    if (piece.charCodeAt(i) !== s.charCodeAt(at + i)) return false;
  }
  return true;
}
