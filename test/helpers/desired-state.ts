// The desired-state tests' shared base: a project with every kind of entity and edge, a bundle, and a validation-error reader.
import { createHash } from 'node:crypto';
import * as assert from 'uvu/assert';
import { ValidationError } from '../../src/errors.js';
import { fingerprint, normalizeDesiredState, type DesiredState } from '../../src/domain/desired-state/index.js';

/** The soul text of the base's `helper` agent. */
export const SOUL = 'Be brief.';

export const IDENTITY = {
  mode: 'app_backend',
  issuer_url: 'https://id.example/',
  jwks_url: 'https://id.example/jwks.json',
  audience: 'demo',
  tenant_id_claim: 'tid',
  user_id_claim: 'sub',
};

export const BASE: DesiredState = normalizeDesiredState({
  identity: IDENTITY,
  metadata: { description: 'Demo' },
  policy: { data_retention_days: 30 },
  agents: [
    {
      id: 'helper',
      display_name: 'Helper',
      soul: SOUL,
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
export const BASE_FINGERPRINT = fingerprint(BASE);

export function validationLocs(fn: () => unknown): (string | number)[][] {
  try {
    fn();
  } catch (err) {
    assert.instance(err, ValidationError);
    return (err as ValidationError).items.map((i) => i.loc);
  }
  assert.unreachable('expected a validation error');
  return [];
}

/** A bundle (manifest and soul asset) whose state the bundle tests also build by mutations. */
export const sha = (s: string) => createHash('sha256').update(s, 'utf8').digest('hex');
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
export const BUNDLE = {
  manifest: MANIFEST,
  assets: [{ path: 'souls/helper.md', content: SOUL, content_type: 'text/markdown', kind: 'soul', sha256: sha(SOUL) }],
};
