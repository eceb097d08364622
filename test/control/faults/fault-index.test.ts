// The fault index: a request gets only the faults that could match it, and never loses one that does (against a glob scan).
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import fc from 'fast-check';
import { FaultIndex, type Indexed } from '../../../src/control/faults/lookup.js';
import { compileGlob } from '../../../src/glob.js';
import { propertyRuns } from '../../runner/config.mjs';

const RUN_PATH = '/api/v3/projects/p1/runs/r1';
const make = (faults: Omit<Indexed, 'seq'>[]) => {
  const all = faults.map((f, seq) => ({ ...f, seq }));
  const index = new FaultIndex<Indexed>();
  index.rebuild(all);
  return { all, index };
};

test('fixed-width globs of the same width but other literal segments are not candidates', () => {
  const { index } = make([
    { method: 'GET', path: '/api/v3/projects/*/x/x/jobs2' },
    { method: 'GET', path: '/api/v3/projects/*/runs/*' },
    { method: 'GET', path: '/api/v3/projects/*/users/*' },
    { method: '*', path: '/api/v3/*/*/runs/r1' },
  ]);
  assert.equal(
    index.candidates('GET', RUN_PATH).map((f) => f.seq),
    [1, 3],
  );
  assert.equal(index.candidates('GET', '/api/v3/projects/p1/jobs/j1'), []);
  assert.equal(
    index.candidates('POST', RUN_PATH).map((f) => f.seq),
    [3],
  );
});

test('a literal segment is compared exactly (case and all), as the glob matches it', () => {
  const { index } = make([{ method: 'GET', path: '/api/v3/projects/*/Runs/*' }]);
  assert.equal(index.candidates('GET', RUN_PATH), []);
  assert.equal(index.candidates('GET', '/api/v3/projects/p1/Runs/r1').length, 1);
});

const SEGMENTS = ['api', 'v3', 'projects', 'runs', 'p1', 'r1', 'x', ''];
const globSegment = fc.oneof(fc.constantFrom(...SEGMENTS), fc.constant('*'), fc.constant('r*'), fc.constant('**'));
const glob = fc.array(globSegment, { minLength: 1, maxLength: 6 }).map((s) => `/${s.join('/')}`);
const path = fc.array(fc.constantFrom(...SEGMENTS), { minLength: 1, maxLength: 6 }).map((s) => `/${s.join('/')}`);

test('property: every fault whose method and glob match a request is among its candidates, in the order added', () => {
  fc.assert(
    fc.property(
      fc.array(fc.record({ method: fc.constantFrom('GET', 'POST', '*'), path: glob }), { maxLength: 12 }),
      path,
      fc.constantFrom('GET', 'POST'),
      (faults, p, m) => {
        const { all, index } = make(faults);
        const candidates = index.candidates(m, p).map((f) => f.seq);
        const matching = all.filter((f) => (f.method === '*' || f.method === m) && compileGlob(f.path).test(p)).map((f) => f.seq);
        for (const seq of matching) assert.ok(candidates.includes(seq), `fault ${seq} (${all[seq].path}) matches ${m} ${p} but is no candidate`);
        assert.equal(
          [...candidates].sort((a, b) => a - b),
          candidates,
          'in the order added',
        );
      },
    ),
    { numRuns: propertyRuns() * 5 },
  );
});

test.run();
