// Behaviour of the pure desired-state domain: mutations, the diff engine, fingerprints, bundles and release compilation.
import { createHash } from 'node:crypto';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import fc from 'fast-check';
import * as v from 'valibot';
import { ApiError, ValidationError } from '../src/errors.js';
import {
  applyMutation,
  applyMutations,
  buildPlan,
  compileRelease,
  diffFingerprint,
  diffStates,
  EMPTY_DESIRED_STATE,
  fingerprint,
  normalizeDesiredState,
  stateFromBundle,
  type DesiredState,
  type Mutation,
} from '../src/domain/desired-state/index.js';
import { MUTATION_TYPES, PlanResponseSchema, SemanticChangeSchema } from '../src/schemas/desired-state.js';
import { fingerprintOf } from './helpers/jcs.js';

const IDENTITY = {
  mode: 'app_backend',
  issuer_url: 'https://id.example/',
  jwks_url: 'https://id.example/jwks.json',
  audience: 'demo',
  tenant_id_claim: 'tid',
  user_id_claim: 'sub',
};

const BASE: DesiredState = normalizeDesiredState({
  identity: IDENTITY,
  metadata: { description: 'Demo' },
  policy: { data_retention_days: 30 },
  agents: [
    {
      id: 'helper',
      display_name: 'Helper',
      soul: 'Be brief.',
      model: 'small-1',
      limits: { max_steps: 8 },
      skills: ['triage'],
      capabilities: ['crm-read'],
      memory: [{ namespace: 'notes', access: 'read' }],
      connections: ['support-chat'],
      delegations: [{ to: 'other' }],
    },
    { id: 'other', display_name: 'Other' },
  ],
  skills: [
    { id: 'triage', display_name: 'Triage' },
    { id: 'summarize', display_name: 'Summarize' },
  ],
  capabilities: [
    { id: 'crm-read', display_name: 'CRM read' },
    { id: 'crm-write', display_name: 'CRM write' },
  ],
  credential_requirements: [{ id: 'crm-token', display_name: 'CRM token' }],
  memory_namespaces: [
    { id: 'notes', display_name: 'Notes' },
    { id: 'archive', display_name: 'Archive' },
  ],
  connections: [
    { id: 'support-chat', kind: 'chatapp', display_name: 'Support chat' },
    { id: 'email', name: 'email', kind: 'email', display_name: 'Email' },
  ],
});
const BASE_FINGERPRINT = fingerprint(BASE);

function validationLocs(fn: () => unknown): (string | number)[][] {
  try {
    fn();
  } catch (err) {
    assert.instance(err, ValidationError);
    return (err as ValidationError).items.map((i) => i.loc);
  }
  assert.unreachable('expected a validation error');
  return [];
}

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
  assert.equal(changes, diffStates(EMPTY_DESIRED_STATE, BASE));
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

// ---- bundles vs mutations ----

const SOUL = 'Be brief.';
const sha = (s: string) => createHash('sha256').update(s, 'utf8').digest('hex');
const MANIFEST = `
identity: {mode: app_backend, issuer_url: "https://id.example/", jwks_url: "https://id.example/jwks.json", audience: demo, tenant_id_claim: tid, user_id_claim: sub}
metadata: {description: Demo}
agents:
  - id: helper
    display_name: Helper
    soul_asset: souls/helper.md
    model: small-1
    capabilities: [crm-read]
    memory: [{namespace: notes, access: write}]
    delegations: [{to: other}]
  - {id: other, display_name: Other}
capabilities: [{id: crm-read, display_name: CRM read}]
memory_namespaces: [{id: notes, display_name: Notes}]
`;
const BUNDLE = { manifest: MANIFEST, assets: [{ path: 'souls/helper.md', content: SOUL, content_type: 'text/markdown', kind: 'soul', sha256: sha(SOUL) }] };
const SAME_BY_MUTATIONS: Mutation[] = [
  { type: 'capability.upsert', capability_id: 'crm-read', display_name: 'CRM read' },
  { type: 'agent.create', agent_id: 'other', display_name: 'Other' },
  { type: 'memory_namespace.upsert', namespace_id: 'notes', display_name: 'Notes' },
  { type: 'agent.create', agent_id: 'helper', display_name: 'Helper', model: 'small-1' },
  { type: 'agent.memory.grant', agent_id: 'helper', namespace_id: 'notes', access: 'read' },
  { type: 'agent.delegation.add', agent_id: 'helper', target_agent_id: 'other' },
  { type: 'project.identity.set', identity: IDENTITY },
  { type: 'agent.soul.set', agent_id: 'helper', soul: SOUL },
  { type: 'agent.capability.grant', agent_id: 'helper', capability_id: 'crm-read' },
  { type: 'agent.memory.grant', agent_id: 'helper', namespace_id: 'notes', access: 'write' },
  { type: 'project.metadata.update', metadata: { description: 'Demo' } },
];

test('a bundle and the equivalent mutations give the same state, changes and fingerprints', () => {
  const fromBundle = stateFromBundle(BUNDLE);
  const fromMutations = applyMutations(EMPTY_DESIRED_STATE, SAME_BY_MUTATIONS);
  assert.is(fingerprint(fromBundle), fingerprint(fromMutations));
  const a = diffStates(EMPTY_DESIRED_STATE, fromBundle);
  const b = diffStates(EMPTY_DESIRED_STATE, fromMutations);
  assert.equal(a, b);
  assert.is(diffFingerprint(a), diffFingerprint(b));
  assert.match(diffFingerprint(a), /^[0-9a-f]{64}$/);
});

test('a JSON manifest is accepted (JSON is YAML)', () => {
  const json = JSON.stringify({ agents: [{ id: 'a', display_name: 'A' }] });
  assert.is(stateFromBundle({ manifest: json, assets: [] }).agents[0].id, 'a');
});

test('soul_asset resolves to the content of the named asset', () => {
  assert.is(stateFromBundle(BUNDLE).agents.find((a) => a.id === 'helper')!.soul, SOUL);
});

test('bundle: an asset whose sha256 does not match its content is rejected at that asset', () => {
  const assets = [BUNDLE.assets[0], { path: 'b.md', content: 'x', sha256: sha('y') }];
  assert.equal(
    validationLocs(() => stateFromBundle({ ...BUNDLE, assets })),
    [['body', 'bundle', 'assets', 1, 'sha256']],
  );
});

test('bundle: duplicate asset paths are rejected at the repeated path', () => {
  const assets = [BUNDLE.assets[0], { ...BUNDLE.assets[0] }];
  assert.equal(
    validationLocs(() => stateFromBundle({ ...BUNDLE, assets })),
    [['body', 'bundle', 'assets', 1, 'path']],
  );
});

test('bundle: soul_asset naming no asset is rejected at soul_asset', () => {
  assert.equal(
    validationLocs(() => stateFromBundle({ ...BUNDLE, assets: [] })),
    [['body', 'bundle', 'manifest', 'agents', 0, 'soul_asset']],
  );
});

test('bundle: a YAML syntax error is rejected at the manifest', () => {
  assert.equal(
    validationLocs(() => stateFromBundle({ manifest: 'agents: [', assets: [] })),
    [['body', 'bundle', 'manifest']],
  );
});

test('bundle: manifest schema errors are located inside the manifest', () => {
  const manifest = 'agents: [{id: a}]\ncapabilities: [{id: c, display_name: C}, {id: c, display_name: D}]';
  assert.equal(
    validationLocs(() => stateFromBundle({ manifest, assets: [] })),
    [['body', 'bundle', 'manifest', 'agents', 0, 'display_name']],
  );
  const dup = 'capabilities: [{id: c, display_name: C}, {id: c, display_name: D}]';
  assert.equal(
    validationLocs(() => stateFromBundle({ manifest: dup, assets: [] })),
    [['body', 'bundle', 'manifest', 'capabilities', 1, 'id']],
  );
  const unknownRef = 'agents: [{id: a, display_name: A, capabilities: [ghost]}]';
  assert.equal(
    validationLocs(() => stateFromBundle({ manifest: unknownRef, assets: [] })),
    [['body', 'bundle', 'manifest', 'agents', 0, 'capabilities', 0]],
  );
  assert.equal(
    validationLocs(() => stateFromBundle({ manifest: 'policy: {x: .inf}', assets: [] })),
    [['body', 'bundle', 'manifest', 'policy', 'x']],
  );
});

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
  }, EMPTY_DESIRED_STATE),
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
