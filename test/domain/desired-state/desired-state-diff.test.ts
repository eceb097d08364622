// The desired-state diff engine: one row per mutation type with its semantic changes and authority effect, changed fields, change texts.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import * as v from 'valibot';
import {
  applyMutation,
  applyMutations,
  diffStates,
  emptyDesiredState,
  fingerprint,
  normalizeDesiredState,
  type Mutation,
} from '../../../src/domain/desired-state/index.js';
import { MUTATION_TYPES, SemanticChangeSchema } from '../../../src/schemas/desired-state.js';
import { BASE, BASE_FINGERPRINT, IDENTITY, validationLocs } from '../../helpers/desired-state.js';

type Expect = [category: string, action: string, subject: string, authority: string];
interface Row {
  name: string;
  mutation: Mutation;
  expect: Expect[];
}

const ROWS: Row[] = [
  {
    name: 'project.identity.set: identity modified, authority changed',
    mutation: { type: 'project.identity.set', identity: { ...IDENTITY, audience: 'demo-2' } },
    expect: [['identity', 'modified', 'project:identity', 'changed']],
  },
  {
    name: 'project.metadata.update: project metadata modified, no authority effect',
    mutation: { type: 'project.metadata.update', metadata: { owner: 'team' } },
    expect: [['project', 'modified', 'project:metadata', 'none']],
  },
  {
    name: 'project.policy.set: policy modified, authority changed',
    mutation: { type: 'project.policy.set', policy: { data_retention_days: 7 } },
    expect: [['policy', 'modified', 'project:policy', 'changed']],
  },
  {
    name: 'agent.create: agent created',
    mutation: { type: 'agent.create', agent_id: 'fresh', display_name: 'Fresh' },
    expect: [['agent', 'created', 'agent:fresh', 'none']],
  },
  {
    name: 'agent.update: agent modified',
    mutation: { type: 'agent.update', agent_id: 'helper', display_name: 'Helper 2' },
    expect: [['agent', 'modified', 'agent:helper', 'none']],
  },
  {
    name: 'agent.configure: agent modified',
    mutation: { type: 'agent.configure', agent_id: 'helper', config: { temperature: 0 } },
    expect: [['agent', 'modified', 'agent:helper', 'none']],
  },
  {
    name: 'agent.clone: agent created with copies of every edge, authority expanded',
    mutation: { type: 'agent.clone', source_agent_id: 'helper', agent_id: 'helper-2' },
    expect: [
      ['agent', 'created', 'agent:helper-2', 'none'],
      ['capability', 'created', 'agent:helper-2/capability:crm-read', 'expanded'],
      ['connection', 'created', 'agent:helper-2/connection:support-chat', 'expanded'],
      ['delegation', 'created', 'agent:helper-2/delegation:other', 'expanded'],
      ['memory_namespace', 'created', 'agent:helper-2/memory:notes', 'expanded'],
      ['skill', 'created', 'agent:helper-2/skill:triage', 'none'],
    ],
  },
  {
    name: 'agent.delete: agent removed and delegations pointing at it removed, authority reduced',
    mutation: { type: 'agent.delete', agent_id: 'other' },
    expect: [
      ['agent', 'removed', 'agent:other', 'none'],
      ['delegation', 'removed', 'agent:helper/delegation:other', 'reduced'],
    ],
  },
  {
    name: 'agent.soul.set: agent modified',
    mutation: { type: 'agent.soul.set', agent_id: 'helper', soul: 'Be kind.' },
    expect: [['agent', 'modified', 'agent:helper', 'none']],
  },
  {
    name: 'skill.upsert: skill created',
    mutation: { type: 'skill.upsert', skill_id: 'search', display_name: 'Search' },
    expect: [['skill', 'created', 'skill:search', 'none']],
  },
  {
    name: 'skill.remove: referenced skill removed (reduced) and detached from agents',
    mutation: { type: 'skill.remove', skill_id: 'triage' },
    expect: [
      ['skill', 'removed', 'agent:helper/skill:triage', 'none'],
      ['skill', 'removed', 'skill:triage', 'reduced'],
    ],
  },
  {
    name: 'agent.skill.attach: skill edge created, no authority effect',
    mutation: { type: 'agent.skill.attach', agent_id: 'helper', skill_id: 'summarize' },
    expect: [['skill', 'created', 'agent:helper/skill:summarize', 'none']],
  },
  {
    name: 'agent.skill.detach: skill edge removed, no authority effect',
    mutation: { type: 'agent.skill.detach', agent_id: 'helper', skill_id: 'triage' },
    expect: [['skill', 'removed', 'agent:helper/skill:triage', 'none']],
  },
  {
    name: 'capability.upsert: existing capability modified',
    mutation: { type: 'capability.upsert', capability_id: 'crm-read', display_name: 'CRM read-only' },
    expect: [['capability', 'modified', 'capability:crm-read', 'none']],
  },
  {
    name: 'capability.remove: granted capability removed and revoked, authority reduced',
    mutation: { type: 'capability.remove', capability_id: 'crm-read' },
    expect: [
      ['capability', 'removed', 'agent:helper/capability:crm-read', 'reduced'],
      ['capability', 'removed', 'capability:crm-read', 'reduced'],
    ],
  },
  {
    name: 'agent.capability.grant: capability edge created, authority expanded',
    mutation: { type: 'agent.capability.grant', agent_id: 'helper', capability_id: 'crm-write' },
    expect: [['capability', 'created', 'agent:helper/capability:crm-write', 'expanded']],
  },
  {
    name: 'agent.capability.revoke: capability edge removed, authority reduced',
    mutation: { type: 'agent.capability.revoke', agent_id: 'helper', capability_id: 'crm-read' },
    expect: [['capability', 'removed', 'agent:helper/capability:crm-read', 'reduced']],
  },
  {
    name: 'credential_requirement.upsert: credential requirement created',
    mutation: { type: 'credential_requirement.upsert', credential_requirement_id: 'crm-key', display_name: 'CRM key' },
    expect: [['credential_requirement', 'created', 'credential_requirement:crm-key', 'none']],
  },
  {
    name: 'credential_requirement.remove: credential requirement removed',
    mutation: { type: 'credential_requirement.remove', credential_requirement_id: 'crm-token' },
    expect: [['credential_requirement', 'removed', 'credential_requirement:crm-token', 'none']],
  },
  {
    name: 'memory_namespace.upsert: namespace created',
    mutation: { type: 'memory_namespace.upsert', namespace_id: 'scratch', display_name: 'Scratch' },
    expect: [['memory_namespace', 'created', 'memory_namespace:scratch', 'none']],
  },
  {
    name: 'memory_namespace.remove: granted namespace removed and its grants revoked, authority reduced',
    mutation: { type: 'memory_namespace.remove', namespace_id: 'notes' },
    expect: [
      ['memory_namespace', 'removed', 'agent:helper/memory:notes', 'reduced'],
      ['memory_namespace', 'removed', 'memory_namespace:notes', 'reduced'],
    ],
  },
  {
    name: 'agent.memory.grant: read -> write is a modified memory edge, authority expanded',
    mutation: { type: 'agent.memory.grant', agent_id: 'helper', namespace_id: 'notes', access: 'write' },
    expect: [['memory_namespace', 'modified', 'agent:helper/memory:notes', 'expanded']],
  },
  {
    name: 'agent.memory.revoke: memory edge removed, authority reduced',
    mutation: { type: 'agent.memory.revoke', agent_id: 'helper', namespace_id: 'notes' },
    expect: [['memory_namespace', 'removed', 'agent:helper/memory:notes', 'reduced']],
  },
  {
    name: 'connection.upsert: connection created',
    mutation: { type: 'connection.upsert', connection_name: 'sms', kind: 'sms', display_name: 'SMS' },
    expect: [['connection', 'created', 'connection:sms', 'none']],
  },
  {
    name: 'connection.remove: attached connection removed and detached, authority reduced',
    mutation: { type: 'connection.remove', connection_name: 'support-chat' },
    expect: [
      ['connection', 'removed', 'agent:helper/connection:support-chat', 'reduced'],
      ['connection', 'removed', 'connection:support-chat', 'reduced'],
    ],
  },
  {
    name: 'agent.connection.attach: connection edge created, authority expanded',
    mutation: { type: 'agent.connection.attach', agent_id: 'helper', connection_name: 'email' },
    expect: [['connection', 'created', 'agent:helper/connection:email', 'expanded']],
  },
  {
    name: 'agent.connection.detach: connection edge removed, authority reduced',
    mutation: { type: 'agent.connection.detach', agent_id: 'helper', connection_name: 'support-chat' },
    expect: [['connection', 'removed', 'agent:helper/connection:support-chat', 'reduced']],
  },
  {
    name: 'agent.model.set: agent modified',
    mutation: { type: 'agent.model.set', agent_id: 'helper', model: 'large-2' },
    expect: [['agent', 'modified', 'agent:helper', 'none']],
  },
  {
    name: 'agent.limits.set: agent modified',
    mutation: { type: 'agent.limits.set', agent_id: 'helper', limits: { max_steps: 2 } },
    expect: [['agent', 'modified', 'agent:helper', 'none']],
  },
  {
    name: 'agent.delegation.add: delegation edge created, authority expanded',
    mutation: { type: 'agent.delegation.add', agent_id: 'other', target_agent_id: 'helper' },
    expect: [['delegation', 'created', 'agent:other/delegation:helper', 'expanded']],
  },
  {
    name: 'agent.delegation.remove: delegation edge removed, authority reduced',
    mutation: { type: 'agent.delegation.remove', agent_id: 'helper', target_agent_id: 'other' },
    expect: [['delegation', 'removed', 'agent:helper/delegation:other', 'reduced']],
  },
];

const summary = (changes: ReturnType<typeof diffStates>): Expect[] => changes.map((c) => [c.category, c.action, c.subject_id, c.authority_effect]);

test('the mutation table covers all 31 mutation types exactly once', () => {
  assert.is(MUTATION_TYPES.length, 31);
  assert.equal(ROWS.map((r) => r.mutation.type).sort(), [...MUTATION_TYPES].sort());
});

for (const row of ROWS) {
  test(row.name, () => {
    const after = applyMutation(BASE, row.mutation);
    const changes = diffStates(BASE, after);
    assert.equal(summary(changes), row.expect);
    for (const c of changes) assert.ok(v.is(SemanticChangeSchema, c), `schema-valid change ${c.subject_id}`);
    assert.is(fingerprint(BASE), BASE_FINGERPRINT, 'input state untouched');
  });
}

test('a modified agent lists only its changed non-edge fields', () => {
  const after = applyMutations(BASE, [
    { type: 'agent.model.set', agent_id: 'helper', model: 'large-2' },
    { type: 'agent.soul.set', agent_id: 'helper', soul: 'Be kind.' },
    { type: 'agent.capability.grant', agent_id: 'helper', capability_id: 'crm-write' },
  ]);
  const agent = diffStates(BASE, after).find((c) => c.subject_id === 'agent:helper')!;
  assert.equal(agent.changed_fields, ['model', 'soul']);
  assert.is(agent.reason_code, 'agent_modified');
});

test('agent.memory.grant: write -> read is a modified memory edge, authority reduced', () => {
  const write = applyMutation(BASE, { type: 'agent.memory.grant', agent_id: 'helper', namespace_id: 'notes', access: 'write' });
  const read = applyMutation(write, { type: 'agent.memory.grant', agent_id: 'helper', namespace_id: 'notes', access: 'read' });
  const [change] = diffStates(write, read);
  assert.is(change.authority_effect, 'reduced');
  assert.is(change.reason_code, 'memory_access_reduced');
  assert.equal(change.changed_fields, ['access']);
});

test('agent.delete: deleting an agent that had edges reduces authority', () => {
  const changes = diffStates(BASE, applyMutation(BASE, { type: 'agent.delete', agent_id: 'helper' }));
  const agent = changes.find((c) => c.subject_id === 'agent:helper')!;
  assert.is(agent.action, 'removed');
  assert.is(agent.authority_effect, 'reduced');
  assert.is(changes.filter((c) => c.subject_id.startsWith('agent:helper/')).length, 5);
});

test('diffStates(null, state) reports every entity and edge as created', () => {
  const changes = diffStates(null, BASE);
  assert.ok(changes.every((c) => c.action === 'created'));
  assert.equal(changes, diffStates(emptyDesiredState(), BASE));
  assert.is(changes.length, 3 + 2 + 9 + 5); // singletons + agents + catalog + helper's edges
});

test('change texts stay within 200 characters even for long display names', () => {
  const long = 'ü'.repeat(200);
  const after = applyMutations(BASE, [
    { type: 'agent.create', agent_id: 'long', display_name: long },
    { type: 'agent.capability.grant', agent_id: 'long', capability_id: 'crm-read' },
  ]);
  for (const c of diffStates(BASE, after)) {
    assert.ok(c.display_name.length <= 200 && c.display_name.endsWith('…'), c.display_name);
  }
});

test('a mutation carrying a lone surrogate is a validation error, not a fingerprint crash', () => {
  const locs = validationLocs(() => applyMutation(BASE, { type: 'agent.soul.set', agent_id: 'helper', soul: '\ud800' }));
  assert.equal(locs, [['body', 'mutation', 'soul']]);
});

test('the empty desired state is made once, deep-frozen, and is the normalized empty document', () => {
  const empty = emptyDesiredState();
  assert.is(emptyDesiredState(), empty);
  assert.equal(empty, normalizeDesiredState({}));
  const frozen = (x: unknown): boolean => typeof x !== 'object' || x === null || (Object.isFrozen(x) && Object.values(x).every(frozen));
  assert.ok(frozen(empty));
  assert.equal(diffStates(null, empty), []);
});

test.run();
