// Properties of the desired-state domain: commuting edits, an empty self-diff and mirrored diffs over random states.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import fc from 'fast-check';
import * as v from 'valibot';
import {
  applyMutation,
  applyMutations,
  diffFingerprint,
  diffStates,
  emptyDesiredState,
  fingerprint,
  type Mutation,
} from '../../../src/domain/desired-state/index.js';
import { SemanticChangeSchema } from '../../../src/schemas/desired-state.js';
import { BASE } from '../../helpers/desired-state.js';

// ---- properties ----

const COMMUTING: Mutation[] = [
  { type: 'agent.capability.grant', agent_id: 'helper', capability_id: 'crm-write' },
  { type: 'agent.capability.grant', agent_id: 'other', capability_id: 'crm-read' },
  { type: 'skill.upsert', skill_id: 's1', display_name: 'S1' },
  { type: 'skill.upsert', skill_id: 's2', display_name: 'S2' },
  { type: 'capability.upsert', capability_id: 'c1', display_name: 'C1' },
  { type: 'agent.skill.attach', agent_id: 'other', skill_id: 'summarize' },
  { type: 'agent.memory.grant', agent_id: 'other', namespace_id: 'archive', access: 'write' },
  { type: 'agent.connection.attach', agent_id: 'helper', connection_name: 'email' },
  { type: 'agent.model.set', agent_id: 'other', model: 'm' },
];

test('property: commuting edits in any order give the same fingerprint and diff fingerprint', () => {
  const orders = fc.subarray(COMMUTING).chain((sub) => fc.tuple(fc.constant(sub), fc.shuffledSubarray(sub, { minLength: sub.length })));
  fc.assert(
    fc.property(orders, ([a, b]) => {
      const sa = applyMutations(BASE, a);
      const sb = applyMutations(BASE, b);
      assert.is(fingerprint(sa), fingerprint(sb));
      assert.is(diffFingerprint(diffStates(BASE, sa)), diffFingerprint(diffStates(BASE, sb)));
    }),
    { numRuns: 100 },
  );
});

const id = fc.constantFrom('a', 'b', 'c');
const name = fc.constantFrom('Alpha', 'Beta');
const mutationArb: fc.Arbitrary<Mutation> = fc.oneof(
  fc.record({ type: fc.constant('agent.create' as const), agent_id: id, display_name: name }),
  fc.record({ type: fc.constant('agent.update' as const), agent_id: id, display_name: name }),
  fc.record({ type: fc.constant('agent.delete' as const), agent_id: id }),
  fc.record({ type: fc.constant('capability.upsert' as const), capability_id: id, display_name: name }),
  fc.record({ type: fc.constant('capability.remove' as const), capability_id: id }),
  fc.record({ type: fc.constant('agent.capability.grant' as const), agent_id: id, capability_id: id }),
  fc.record({ type: fc.constant('memory_namespace.upsert' as const), namespace_id: id, display_name: name }),
  fc.record({ type: fc.constant('agent.memory.grant' as const), agent_id: id, namespace_id: id, access: fc.constantFrom('read' as const, 'write' as const) }),
  fc.record({ type: fc.constant('agent.delegation.add' as const), agent_id: id, target_agent_id: id }),
  fc.record({ type: fc.constant('project.policy.set' as const), policy: fc.dictionary(id, fc.integer({ min: 0, max: 2 })) }),
);

/** Random valid states: random edits from the empty state, skipping the ones that are rejected. */
const stateArb = fc.array(mutationArb, { minLength: 5, maxLength: 30 }).map((ms) =>
  ms.reduce((s, m) => {
    try {
      return applyMutation(s, m);
    } catch {
      return s;
    }
  }, emptyDesiredState()),
);

test('property: diffStates(a, a) is empty', () => {
  fc.assert(
    fc.property(stateArb, (a) => assert.equal(diffStates(a, a), [])),
    { numRuns: 100 },
  );
});

test('property: diff(a, b) and diff(b, a) mirror actions over the same subjects', () => {
  const mirror = { created: 'removed', removed: 'created', modified: 'modified' } as const;
  fc.assert(
    fc.property(stateArb, stateArb, (a, b) => {
      const forward = diffStates(a, b).map((c) => [c.subject_id, mirror[c.action]]);
      const backward = diffStates(b, a).map((c) => [c.subject_id, c.action]);
      assert.equal(forward, backward);
      assert.ok(diffStates(a, b).every((c) => v.is(SemanticChangeSchema, c)));
    }),
    { numRuns: 100 },
  );
});

test.run();
