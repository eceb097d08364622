// The fault index compares a glob's literal segment with the whole path segment at its place: a path whose segment only begins with the literal (or holds it with more after it) gets no candidate from that glob, so a request looks only at the faults that could match it.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { FaultIndex, type Indexed } from '../../../src/control/faults/lookup.js';

const make = (faults: Omit<Indexed, 'seq'>[]) => {
  const index = new FaultIndex<Indexed>();
  index.rebuild(faults.map((f, seq) => ({ ...f, seq })));
  return index;
};
const seqs = (index: FaultIndex<Indexed>, method: string, path: string) => index.candidates(method, path).map((f) => f.seq);

test('a literal segment must be the whole segment: "runs" is no candidate for "runsx", nor "projects" for "projectsx"', () => {
  const index = make([
    { method: 'GET', path: '/api/v3/projects/*/runs/*' },
    { method: 'GET', path: '/api/v3/projects/*/runs2/*' },
  ]);
  assert.equal(seqs(index, 'GET', '/api/v3/projects/p1/runs/r1'), [0]);
  assert.equal(seqs(index, 'GET', '/api/v3/projects/p1/runs2/r1'), [1]);
  assert.equal(seqs(index, 'GET', '/api/v3/projects/p1/runsx/r1'), []);
  assert.equal(seqs(index, 'GET', '/api/v3/projectsx/p1/runs/r1'), []);
});

test('a literal segment shorter than the path segment at its place is no candidate, whatever its position', () => {
  const index = make([{ method: '*', path: '/a/*/c' }]);
  assert.equal(seqs(index, 'PUT', '/a/b/c'), [0]);
  for (const path of ['/ab/b/c', '/a/b/cd', '/abc/b/c']) assert.equal(seqs(index, 'PUT', path), [], path);
});

test.run();
