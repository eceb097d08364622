// Desired-state normalization, reference errors, plans against a base revision, and release compilation.
import { createHash } from 'node:crypto';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import * as v from 'valibot';
import { ApiError } from '../../../src/errors.js';
import { applyMutation, buildPlan, compileRelease, fingerprint, normalizeDesiredState, type Mutation } from '../../../src/domain/desired-state/index.js';
import { PlanResponseSchema } from '../../../src/schemas/desired-state.js';
import { fingerprintOf } from '../../helpers/jcs.js';
import { BASE, BASE_FINGERPRINT, BUNDLE, SOUL, validationLocs } from '../../helpers/desired-state.js';

// ---- normalization ----

test('normalize: lists sorted by id, edges sorted and deduped, connection name filled', () => {
  const s = normalizeDesiredState({
    agents: [
      {
        id: 'b',
        display_name: 'B',
        skills: ['y', 'x', 'y'],
        memory: [
          { namespace: 'n', access: 'read' },
          { namespace: 'n', access: 'write' },
        ],
      },
      { id: 'a', display_name: 'A' },
    ],
    skills: [
      { id: 'y', display_name: 'Y' },
      { id: 'x', display_name: 'X' },
    ],
    memory_namespaces: [{ id: 'n', display_name: 'N' }],
    connections: [{ id: 'c', kind: 'chatapp', display_name: 'C' }],
  });
  assert.equal(
    s.agents.map((a) => a.id),
    ['a', 'b'],
  );
  assert.equal(s.agents[1].skills, ['x', 'y']);
  assert.equal(s.agents[1].memory, [{ namespace: 'n', access: 'write' }]);
  assert.is(s.connections[0].name, 'c');
  assert.is(fingerprint(normalizeDesiredState(JSON.parse(JSON.stringify(s)))), fingerprint(s));
});

test('normalize: a connection name different from its id is rejected', () => {
  const doc = { connections: [{ id: 'c', name: 'd', kind: 'chatapp', display_name: 'C' }] };
  assert.equal(
    validationLocs(() => normalizeDesiredState(doc)),
    [['body', 'connections', 0, 'name']],
  );
});

// ---- reference errors ----

function apiError(fn: () => unknown): ApiError {
  try {
    fn();
  } catch (err) {
    assert.instance(err, ApiError);
    return err as ApiError;
  }
  assert.unreachable('expected an ApiError');
  throw new Error('unreachable');
}

const REFERENCE_CASES: [string, Mutation, string, string][] = [
  ['grant to a missing agent', { type: 'agent.capability.grant', agent_id: 'ghost', capability_id: 'crm-read' }, 'unknown_reference', 'agent:ghost'],
  ['grant of a missing capability', { type: 'agent.capability.grant', agent_id: 'helper', capability_id: 'ghost' }, 'unknown_reference', 'capability:ghost'],
  ['delegation to a missing agent', { type: 'agent.delegation.add', agent_id: 'helper', target_agent_id: 'ghost' }, 'unknown_reference', 'agent:ghost'],
  [
    'revoke of a capability never granted',
    { type: 'agent.capability.revoke', agent_id: 'helper', capability_id: 'crm-write' },
    'unknown_reference',
    'agent:helper/capability:crm-write',
  ],
  [
    'memory grant of a missing namespace',
    { type: 'agent.memory.grant', agent_id: 'helper', namespace_id: 'ghost', access: 'read' },
    'unknown_reference',
    'memory_namespace:ghost',
  ],
  ['removal of a missing skill', { type: 'skill.remove', skill_id: 'ghost' }, 'unknown_reference', 'skill:ghost'],
  [
    'attach of a missing connection',
    { type: 'agent.connection.attach', agent_id: 'helper', connection_name: 'ghost' },
    'unknown_reference',
    'connection:ghost',
  ],
  ['clone of a missing source', { type: 'agent.clone', source_agent_id: 'ghost', agent_id: 'new' }, 'unknown_reference', 'agent:ghost'],
  ['create of an existing agent', { type: 'agent.create', agent_id: 'helper', display_name: 'Again' }, 'duplicate_reference', 'agent:helper'],
  ['clone onto an existing agent', { type: 'agent.clone', source_agent_id: 'helper', agent_id: 'other' }, 'duplicate_reference', 'agent:other'],
];

for (const [name, mutation, code, resource] of REFERENCE_CASES) {
  test(`${mutation.type}: ${name} is ${code} on ${resource}, state untouched`, () => {
    const err = apiError(() => applyMutation(BASE, mutation));
    assert.is(err.reason_code, code);
    assert.is(err.status, 409);
    assert.is(err.extras.affected_resource, resource);
    assert.is(fingerprint(BASE), BASE_FINGERPRINT);
  });
}

test('agent.delegation.add: an agent delegating to itself is a validation error', () => {
  const locs = validationLocs(() => applyMutation(BASE, { type: 'agent.delegation.add', agent_id: 'helper', target_agent_id: 'helper' }));
  assert.equal(locs, [['body', 'mutation', 'target_agent_id']]);
});

// ---- plans ----

const HEAD = { revision_id: '00000000-0000-4000-8000-000000000001', generation: 3, fingerprint: BASE_FINGERPRINT };

test('buildPlan: a schema-valid plan whose proposed fingerprint is the mutated state', () => {
  const mutation: Mutation = { type: 'agent.capability.grant', agent_id: 'helper', capability_id: 'crm-write' };
  const plan = buildPlan(HEAD, BASE, { base_revision_id: HEAD.revision_id, mutation });
  assert.ok(v.is(PlanResponseSchema, plan));
  // The proposed state written out by hand (BASE with crm-write granted to helper), hashed by the test's own JCS.
  const proposed = structuredClone(BASE);
  proposed.agents.find((a) => a.id === 'helper')!.capabilities = ['crm-read', 'crm-write'];
  assert.is(plan.proposed_fingerprint, fingerprintOf(proposed));
  assert.is.not(plan.proposed_fingerprint, fingerprintOf(BASE));
  assert.is(plan.changes.length, 1);
});

test('buildPlan: a stale base is stale_base_revision; zero or two sources are a 422', () => {
  const mutation: Mutation = { type: 'agent.delete', agent_id: 'other' };
  const stale = apiError(() => buildPlan(HEAD, BASE, { base_revision_id: '00000000-0000-4000-8000-000000000002', mutation }));
  assert.is(stale.reason_code, 'stale_base_revision');
  assert.equal(
    validationLocs(() => buildPlan(HEAD, BASE, { base_revision_id: HEAD.revision_id })),
    [['body']],
  );
  assert.equal(
    validationLocs(() => buildPlan(HEAD, BASE, { base_revision_id: HEAD.revision_id, mutation, bundle: BUNDLE })),
    [['body']],
  );
});

// ---- release compilation ----

test('compileRelease: each execution plan holds only its own agent edges (least privilege)', () => {
  const doc = compileRelease(BASE);
  assert.is(doc.schema_version, 'svc.project-release/v3');
  assert.is(doc.compiler_version, '3.0.0');
  const helper = doc.execution_plans.find((p) => p.agent_id === 'helper')!;
  const other = doc.execution_plans.find((p) => p.agent_id === 'other')!;
  assert.equal(helper.capabilities, [{ id: 'crm-read', display_name: 'CRM read' }]);
  assert.equal(helper.memory_grants, [{ namespace: 'notes', access: 'read' }]);
  assert.equal(
    helper.connections.map((c) => c.name),
    ['support-chat'],
  );
  assert.equal(helper.delegations, [{ to: 'other', mode: 'as_tool' }]);
  // SHA-256 of the soul's canonical JSON: the JSON string literal.
  assert.is(helper.soul_fingerprint, createHash('sha256').update(JSON.stringify(SOUL)).digest('hex'));
  assert.equal([other.skills, other.capabilities, other.connections, other.memory_grants, other.delegations], [[], [], [], [], []]);
  assert.is(other.soul_fingerprint, undefined);
  assert.equal(doc.delegations, [{ from: 'helper', to: 'other', mode: 'as_tool' }]);
  assert.is(doc.resources.length, 9);
  assert.ok(doc.resources.some((r) => r.kind === 'capability' && r.id === 'crm-write'));
});

test('compileRelease: the same state compiles to the same document whatever the input order', () => {
  const reversed = normalizeDesiredState({ ...BASE, agents: [...BASE.agents].reverse(), capabilities: [...BASE.capabilities].reverse() });
  assert.is(fingerprint(compileRelease(reversed)), fingerprint(compileRelease(BASE)));
});

test.run();
