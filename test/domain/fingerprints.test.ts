// Every fingerprint the mock answers, recomputed independently: SHA-256 (lowercase hex) of RFC 8785 canonical JSON
// (test/helpers/jcs.ts, itself checked against the RFC's vectors), plus the values pinned in docs/desired-state.md.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createHash } from 'node:crypto';
import { freshMock } from '../helpers/app.js';
import { DEMO } from '../helpers/demo.js';
import { AS } from '../helpers/ops.js';
import { fingerprintOf, jcs } from '../helpers/jcs.js';

const P = DEMO.projects.support;
const sha256 = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');

// ---- the test's own canonicalization, against RFC 8785 ----

test('jcs helper: the RFC 8785 section 3.2.3 example and number vectors (appendix B)', () => {
  // 3.2.3: the sample input (as parsed) and its canonical form.
  const input = JSON.parse(
    '{"numbers":[333333333.33333329,1E30,4.50,2e-3,0.000000000000000000000000001],"string":"\\u20ac$\\u000F\\u000aA\'\\u0042\\u0022\\u005c\\\\\\"\\/","literals":[null,true,false]}',
  );
  assert.is(jcs(input), '{"literals":[null,true,false],"numbers":[333333333.3333333,1e+30,4.5,0.002,1e-27],"string":"€$\\u000f\\nA\'B\\"\\\\\\\\\\"/"}');
  const numbers: [number, string][] = [
    [0, '0'],
    [-0, '0'],
    [5e-324, '5e-324'],
    [-5e-324, '-5e-324'],
    [1.7976931348623157e308, '1.7976931348623157e+308'],
    [9007199254740992, '9007199254740992'],
    [-9007199254740992, '-9007199254740992'],
    [295147905179352830000, '295147905179352830000'],
    [9.999999999999997e22, '9.999999999999997e+22'],
    [1e23, '1e+23'],
    [1e21, '1e+21'],
    [999999999999999700000, '999999999999999700000'],
    [0.000001, '0.000001'],
    [1e-7, '1e-7'],
    [4.5, '4.5'],
    [0.002, '0.002'],
  ];
  for (const [n, text] of numbers) assert.is(jcs(n), text, String(n));
  // 3.2.3 sorting: by UTF-16 code units, so U+1F600 (surrogates D83D...) sorts before U+FB33 and after U+00FC.
  assert.is(
    jcs({ '\ufb33': 1, '\ud83d\ude00': 2, '\u00fc': 3, '1': 4, '\r': 5, '\u20ac': 6, '\u0080': 7 }),
    '{"\\r":5,"1":4,"\u0080":7,"\u00fc":3,"\u20ac":6,"\ud83d\ude00":2,"\ufb33":1}',
  );
  assert.throws(() => jcs({ a: NaN }));
  assert.throws(() => jcs('\ud800'));
  assert.is(fingerprintOf({ b: 1, a: [true, null, 'é'] }), sha256('{"a":[true,null,"é"],"b":1}'));
});

// ---- desired-state heads ----

test('fingerprints: a desired-state head is the SHA-256 of the canonical document (demo value pinned by the docs)', async () => {
  const { http } = await freshMock();
  const res = await http.get(`/_mock/projects/${P}/desired-state`);
  assert.is(res.status, 200);
  assert.is(res.body.head.fingerprint, fingerprintOf(res.body.document));
  assert.is(res.body.head.fingerprint, '75f0b37d9980fd24fb6bf263f113d31c081938235edb73449edbafa26e8a5705');
  // A project with no desired state has the empty document's fingerprint.
  const empty = await http.get(`/_mock/projects/${DEMO.projects.sandbox}/desired-state`);
  assert.is(empty.body.head.fingerprint, fingerprintOf(empty.body.document));
  assert.equal(Object.keys(empty.body.document).sort(), [
    'agents',
    'capabilities',
    'connections',
    'credential_requirements',
    'identity',
    'memory_namespaces',
    'metadata',
    'policy',
    'skills',
  ]);
  // Releases carry the head they were compiled from.
  const releases = await http.get(`/api/v3/projects/${P}/releases`).set(AS.owner);
  const head = releases.body.items.find((r: { id: string }) => r.id === DEMO.releases.gen4Candidate).desired_state_head;
  assert.is(head.fingerprint, res.body.head.fingerprint, 'gen 4 was compiled from the current head');
});

test('fingerprints: plan and apply: proposed_fingerprint and the new head are the canonical hash of the new document', async () => {
  const { http } = await freshMock();
  const head = (await http.get(`/_mock/projects/${P}/desired-state`)).body.head;
  const mutation = { type: 'agent.capability.grant', agent_id: 'support-bot', capability_id: 'refund-issue' };
  const plan = await http.post(`/api/v3/projects/${P}/desired-state/plan`).set(AS.operator).send({ base_revision_id: head.revision_id, mutation });
  assert.is(plan.status, 200, JSON.stringify(plan.body));
  assert.is(plan.body.proposed_fingerprint, '0dd2e18401ee538bda7db002f41d5716bc1d2802b66f5b0cacc0e158211fa5a2');
  assert.is(plan.body.semantic_diff_fingerprint, '2d67104805225b29357311643f4f723b673a5bece9c01c6fddd82bc966ade77b');
  assert.is(plan.body.semantic_diff_fingerprint, fingerprintOf(plan.body.changes));
  const applied = await http.post(`/_mock/projects/${P}/desired-state/apply`).send({ base_revision_id: head.revision_id, mutation });
  assert.is(applied.status, 200, JSON.stringify(applied.body));
  assert.is(applied.body.head.fingerprint, fingerprintOf(applied.body.document));
  assert.is(applied.body.head.fingerprint, plan.body.proposed_fingerprint);
  assert.is(applied.body.head.generation, head.generation + 1);
});

/** Sorts changes as the contract fingerprints them: (category, subject_id, action), by UTF-16 code units. */
const contractOrder = <T extends { category: string; subject_id: string; action: string }>(changes: T[]) =>
  [...changes].sort((x, y) =>
    x.category !== y.category
      ? x.category < y.category
        ? -1
        : 1
      : x.subject_id !== y.subject_id
        ? x.subject_id < y.subject_id
          ? -1
          : 1
        : x.action < y.action
          ? -1
          : x.action > y.action
            ? 1
            : 0,
  );

test('fingerprints: a release diff with several changes: semantic_diff_fingerprint hashes them in (category, subject_id, action) order', async () => {
  const { http } = await freshMock();
  for (const [release, baseline] of [
    [DEMO.releases.gen4Candidate, DEMO.releases.gen1],
    [DEMO.releases.gen4Candidate, undefined],
    [DEMO.releases.gen2, DEMO.releases.gen4Candidate],
    [DEMO.releases.gen1, undefined], // against nothing: everything created
  ] as const) {
    const res = await http.get(`/api/v3/projects/${P}/releases/${release}/diff${baseline ? `?baseline_release_id=${baseline}` : ''}`).set(AS.admin);
    assert.is(res.status, 200, JSON.stringify(res.body));
    const changes = res.body.changes as { category: string; subject_id: string; action: string }[];
    assert.ok(changes.length >= 1);
    assert.equal(changes, contractOrder(changes), 'answered in the fingerprint order');
    assert.is(res.body.semantic_diff_fingerprint, fingerprintOf(contractOrder(changes)));
    assert.match(res.body.semantic_diff_fingerprint, /^[0-9a-f]{64}$/);
  }
  // No change at all: the hash of the empty list.
  const same = await http.get(`/api/v3/projects/${P}/releases/${DEMO.releases.gen3Live}/diff?baseline_release_id=${DEMO.releases.gen3Live}`).set(AS.admin);
  assert.equal(same.body.changes, []);
  assert.is(same.body.semantic_diff_fingerprint, sha256('[]'));
});

// ---- approvals ----

test('fingerprints: an approval binding_fingerprint is the canonical hash of {tool_id, tool_arguments}; deny checks it', async () => {
  const { http } = await freshMock();
  const tool_arguments = { z: [1e21, 0.5, -0], a: { é: 'x', b: null }, amount: 12 };
  const run = await http.post(`/_mock/projects/${P}/runs`).send({ status: 'waiting_approval', approval: { tool_id: 'crm.refund', tool_arguments } });
  assert.is(run.status, 200, JSON.stringify(run.body));
  const expected = sha256('{"tool_arguments":{"a":{"b":null,"é":"x"},"amount":12,"z":[1e+21,0.5,0]},"tool_id":"crm.refund"}');
  assert.is(expected, fingerprintOf({ tool_id: 'crm.refund', tool_arguments }));
  assert.is(run.body.approval.binding_fingerprint, expected);
  const deny = (binding_fingerprint: string) =>
    http.post(`/api/v3/projects/${P}/approvals/${run.body.approval.approval_id}/deny`).set(AS.operator).send({ binding_fingerprint });
  const wrong = await deny(fingerprintOf({ tool_id: 'crm.refund', tool_arguments: { ...tool_arguments, amount: 13 } }));
  assert.is(wrong.status, 409);
  assert.is(wrong.body.detail.reason_code, 'approval_binding_mismatch');
  const ok = await deny(expected);
  assert.is(ok.status, 200, JSON.stringify(ok.body));
  assert.is(ok.body.approval.status, 'denied');
  // Without tool arguments the canonical object holds tool_arguments: null.
  const bare = await http.post(`/_mock/projects/${P}/runs`).send({ status: 'waiting_approval', approval: { tool_id: 'kb.search' } });
  assert.is(bare.body.approval.binding_fingerprint, sha256('{"tool_arguments":null,"tool_id":"kb.search"}'));
});

test('fingerprints: a compiled agent plan pins its soul as the canonical hash of the soul string', async () => {
  const { http } = await freshMock();
  const doc = (await http.get(`/_mock/projects/${P}/desired-state`)).body.document as { agents: { id: string; soul: string }[] };
  const release = (await http.get(`/api/v3/projects/${P}/releases?limit=1`).set(AS.owner)).body.items[0];
  const souled = doc.agents.filter((a) => a.soul !== '');
  assert.ok(souled.length >= 2, 'the demo has agents with souls');
  for (const agent of souled) {
    const plan = release.document.execution_plans.find((p: { agent_id: string }) => p.agent_id === agent.id);
    assert.is(plan.soul_fingerprint, sha256(JSON.stringify(agent.soul)), agent.id);
  }
});

test.run();
