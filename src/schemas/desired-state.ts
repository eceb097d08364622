// Valibot schemas of the desired-state domain: the document, its 31 mutations, bundles, plans, releases and changes.
//
// Unknown keys on entities (and everywhere else) are DROPPED, not kept: docs/api.md (Conventions) says unknown
// body fields are ignored, neither echoed nor stored, and a dropped key cannot change a fingerprint.
// No transforms and no `check` actions are used, so @valibot/to-json-schema can render every schema;
// rules that need code (connection name = id, references, duplicates, exactly one plan source) live in
// src/domain/desired-state/.
import * as v from 'valibot';
import { FreeObject, Int, Uuid, model } from './common.js';

/** Entity ids: short and free of `:` and `/`, so a subject id such as `agent:a/capability:c` stays unambiguous and <= 200 chars. */
const IdSchema = v.pipe(
  v.string(),
  v.minLength(1),
  v.maxLength(64),
  v.regex(/^[A-Za-z0-9][A-Za-z0-9_.-]*$/, 'Ids are letters, digits, "_", "." and "-", starting with a letter or digit'),
);
const DisplayNameSchema = v.pipe(v.string(), v.minLength(1), v.maxLength(200));
/** A free-form JSON object (limits, config, metadata, policy). */
const JsonObjectSchema = FreeObject;
const AccessSchema = v.picklist(['read', 'write']);
const DelegationModeSchema = v.picklist(['as_tool']);
const KindSchema = v.pipe(v.string(), v.minLength(1), v.maxLength(64));
const Hex64Schema = v.pipe(v.string(), v.regex(/^[0-9a-f]{64}$/, 'Expected 64 lowercase hexadecimal characters'));

/** How app identities are verified (interface: the six fields of project.identity.set). */
const IdentitySchema = model({
  audience: v.string(),
  issuer_url: v.string(),
  jwks_url: v.string(),
  mode: v.string(),
  tenant_id_claim: v.string(),
  user_id_claim: v.string(),
});

const MemoryGrantSchema = model({ namespace: IdSchema, access: AccessSchema });
const DelegationSchema = model({ to: IdSchema, mode: v.optional(DelegationModeSchema, 'as_tool') });

// Function defaults: every parse gets fresh arrays/objects, never one shared mutable default.
const AgentSchema = model({
  id: IdSchema,
  display_name: DisplayNameSchema,
  soul: v.optional(v.string(), ''),
  model: v.optional(v.string(), ''),
  limits: v.optional(JsonObjectSchema, () => ({})),
  config: v.optional(JsonObjectSchema, () => ({})),
  skills: v.optional(v.array(IdSchema), () => []),
  capabilities: v.optional(v.array(IdSchema), () => []),
  connections: v.optional(v.array(IdSchema), () => []),
  memory: v.optional(v.array(MemoryGrantSchema), () => []),
  delegations: v.optional(v.array(DelegationSchema), () => []),
});
const CatalogEntitySchema = model({ id: IdSchema, display_name: DisplayNameSchema });
/** `name` may be omitted (it is filled with `id`); a different `name` is rejected by the normalizer. */
const ConnectionSchema = model({
  id: IdSchema,
  name: v.optional(IdSchema),
  kind: KindSchema,
  display_name: DisplayNameSchema,
});

/** The input form of a desired state: every part optional, defaults filled on parse. */
export const DesiredStateSchema = model({
  identity: v.optional(v.partial(IdentitySchema), () => ({})),
  metadata: v.optional(JsonObjectSchema, () => ({})),
  policy: v.optional(JsonObjectSchema, () => ({})),
  agents: v.optional(v.array(AgentSchema), () => []),
  skills: v.optional(v.array(CatalogEntitySchema), () => []),
  capabilities: v.optional(v.array(CatalogEntitySchema), () => []),
  credential_requirements: v.optional(v.array(CatalogEntitySchema), () => []),
  memory_namespaces: v.optional(v.array(CatalogEntitySchema), () => []),
  connections: v.optional(v.array(ConnectionSchema), () => []),
});

/** Parsed but not yet normalized (connection names may be missing, lists unsorted). */
export type ParsedDesiredState = v.InferOutput<typeof DesiredStateSchema>;
export type Agent = v.InferOutput<typeof AgentSchema>;
type Connection = Omit<v.InferOutput<typeof ConnectionSchema>, 'name'> & { name: string };
export type MemoryGrant = v.InferOutput<typeof MemoryGrantSchema>;
/** The normalized document: every list sorted, every edge deduped, every connection named. */
export type DesiredState = Omit<ParsedDesiredState, 'connections'> & { connections: Connection[] };

/** One mutation option: its wire `type` literal plus its fields. */
function op<const T extends string, const E extends v.ObjectEntries>(type: T, entries: E) {
  return model({ type: v.literal(type), ...entries });
}
const agent_id = IdSchema;
const skill_id = IdSchema;
const capability_id = IdSchema;
const credential_requirement_id = IdSchema;
const namespace_id = IdSchema;
const connection_name = IdSchema;
const target_agent_id = IdSchema;
const display_name = DisplayNameSchema;

/** The 31 typed mutations, discriminated by their dotted snake-case `type`. */
export const MutationSchema = v.variant('type', [
  op('project.identity.set', { identity: IdentitySchema }),
  op('project.metadata.update', { metadata: JsonObjectSchema }),
  op('project.policy.set', { policy: JsonObjectSchema }),
  op('agent.create', {
    agent_id,
    display_name,
    soul: v.optional(v.string()),
    model: v.optional(v.string()),
    limits: v.optional(JsonObjectSchema),
    config: v.optional(JsonObjectSchema),
  }),
  op('agent.update', { agent_id, display_name: v.optional(display_name) }),
  op('agent.configure', { agent_id, config: JsonObjectSchema }),
  op('agent.clone', { source_agent_id: IdSchema, agent_id, display_name: v.optional(display_name) }),
  op('agent.delete', { agent_id }),
  op('agent.soul.set', { agent_id, soul: v.string() }),
  op('skill.upsert', { skill_id, display_name }),
  op('skill.remove', { skill_id }),
  op('agent.skill.attach', { agent_id, skill_id }),
  op('agent.skill.detach', { agent_id, skill_id }),
  op('capability.upsert', { capability_id, display_name }),
  op('capability.remove', { capability_id }),
  op('agent.capability.grant', { agent_id, capability_id }),
  op('agent.capability.revoke', { agent_id, capability_id }),
  op('credential_requirement.upsert', { credential_requirement_id, display_name }),
  op('credential_requirement.remove', { credential_requirement_id }),
  op('memory_namespace.upsert', { namespace_id, display_name }),
  op('memory_namespace.remove', { namespace_id }),
  op('agent.memory.grant', { agent_id, namespace_id, access: AccessSchema }),
  op('agent.memory.revoke', { agent_id, namespace_id }),
  op('connection.upsert', { connection_name, kind: KindSchema, display_name }),
  op('connection.remove', { connection_name }),
  op('agent.connection.attach', { agent_id, connection_name }),
  op('agent.connection.detach', { agent_id, connection_name }),
  op('agent.model.set', { agent_id, model: v.string() }),
  op('agent.limits.set', { agent_id, limits: JsonObjectSchema }),
  op('agent.delegation.add', { agent_id, target_agent_id, mode: v.optional(DelegationModeSchema) }),
  op('agent.delegation.remove', { agent_id, target_agent_id }),
]);
export type Mutation = v.InferOutput<typeof MutationSchema>;
export type MutationType = Mutation['type'];
export type MutationOf<T extends MutationType> = Extract<Mutation, { type: T }>;
export const MUTATION_TYPES: readonly MutationType[] = MutationSchema.options.map((o) => o.entries.type.literal);

const BundleAssetSchema = model({
  path: v.pipe(v.string(), v.minLength(1)),
  content: v.string(),
  content_type: v.optional(v.string()),
  kind: v.optional(v.string()),
  sha256: v.string(),
});
export const BundleSchema = model({
  manifest: v.string(),
  assets: v.optional(v.array(BundleAssetSchema), () => []),
});
export type Bundle = v.InferOutput<typeof BundleSchema>;

const CHANGE_CATEGORIES = [
  'project',
  'agent',
  'capability',
  'connection',
  'credential_requirement',
  'memory_namespace',
  'skill',
  'the service',
  'delegation',
  'identity',
  'policy',
] as const;
export const SemanticChangeSchema = model({
  action: v.picklist(['created', 'modified', 'removed']),
  authority_effect: v.picklist(['none', 'reduced', 'expanded', 'changed']),
  category: v.picklist(CHANGE_CATEGORIES),
  changed_fields: v.optional(v.array(v.string())),
  display_name: v.pipe(v.string(), v.minLength(1), v.maxLength(200)),
  reason_code: v.pipe(v.string(), v.minLength(1), v.maxLength(100)),
  subject_id: v.pipe(v.string(), v.minLength(1), v.maxLength(200)),
});
export type SemanticChange = v.InferOutput<typeof SemanticChangeSchema>;
export type ChangeCategory = SemanticChange['category'];
export type ChangeAction = SemanticChange['action'];
export type AuthorityEffect = SemanticChange['authority_effect'];

export const DesiredStateHeadSchema = model({
  revision_id: Uuid,
  generation: v.pipe(Int, v.minValue(0)),
  fingerprint: Hex64Schema,
});
export type DesiredStateHead = v.InferOutput<typeof DesiredStateHeadSchema>;

const NamedRefSchema = model({ id: IdSchema, display_name: DisplayNameSchema });
const ExecutionPlanSchema = model({
  agent_id: IdSchema,
  display_name: DisplayNameSchema,
  model: v.string(),
  soul_fingerprint: v.optional(Hex64Schema),
  limits: JsonObjectSchema,
  config: JsonObjectSchema,
  skills: v.array(NamedRefSchema),
  capabilities: v.array(NamedRefSchema),
  connections: v.array(model({ name: IdSchema, kind: KindSchema, display_name: DisplayNameSchema })),
  memory_grants: v.array(MemoryGrantSchema),
  delegations: v.array(model({ to: IdSchema, mode: DelegationModeSchema })),
});
const ReleaseResourceSchema = model({
  kind: v.picklist(['capability', 'connection', 'credential_requirement', 'memory_namespace', 'skill']),
  id: IdSchema,
  display_name: DisplayNameSchema,
  connection_kind: v.optional(KindSchema),
});
export const ReleaseDocumentSchema = model({
  schema_version: v.literal('svc.project-release/v3'),
  compiler_version: v.string(),
  delegations: v.array(model({ from: IdSchema, to: IdSchema, mode: DelegationModeSchema })),
  execution_plans: v.array(ExecutionPlanSchema),
  resources: v.array(ReleaseResourceSchema),
});
export type ExecutionPlan = v.InferOutput<typeof ExecutionPlanSchema>;
export type ReleaseResource = v.InferOutput<typeof ReleaseResourceSchema>;
export type ReleaseDocument = v.InferOutput<typeof ReleaseDocumentSchema>;

/** Endpoint 9 body. "Exactly one of bundle and mutation" is enforced in code (assertOneSource). */
export const PlanRequestSchema = model({
  base_revision_id: Uuid,
  bundle: v.optional(BundleSchema),
  mutation: v.optional(MutationSchema),
});
export type PlanRequest = v.InferOutput<typeof PlanRequestSchema>;

export const PlanResponseSchema = model({
  api_version: v.literal('svc.desired-state-plan/v3'),
  head: DesiredStateHeadSchema,
  proposed_fingerprint: Hex64Schema,
  semantic_diff_fingerprint: Hex64Schema,
  changes: v.array(SemanticChangeSchema),
});
export type PlanResponse = v.InferOutput<typeof PlanResponseSchema>;

export const ReleaseDiffResponseSchema = model({
  release_id: Uuid,
  baseline_release_id: v.nullable(Uuid),
  semantic_diff_fingerprint: Hex64Schema,
  changes: v.array(SemanticChangeSchema),
});
export type ReleaseDiffResponse = v.InferOutput<typeof ReleaseDiffResponseSchema>;
