// Desired-state bundles: a manifest and its assets give the same state as the equivalent mutations, and each refusal is located.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import {
  applyMutations,
  diffFingerprint,
  diffStates,
  emptyDesiredState,
  fingerprint,
  stateFromBundle,
  type Mutation,
} from '../../../src/domain/desired-state/index.js';
import { BUNDLE, IDENTITY, sha, SOUL, validationLocs } from '../../helpers/desired-state.js';

// ---- bundles vs mutations ----

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
  const fromMutations = applyMutations(emptyDesiredState(), SAME_BY_MUTATIONS);
  assert.is(fingerprint(fromBundle), fingerprint(fromMutations));
  const a = diffStates(emptyDesiredState(), fromBundle);
  const b = diffStates(emptyDesiredState(), fromMutations);
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

test.run();
