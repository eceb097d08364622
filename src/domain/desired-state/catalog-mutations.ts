// Handlers of the catalog mutations (skills, capabilities, credential requirements, namespaces, connections) and their edges.
import type { DesiredState, MutationOf, MutationType } from '../../schemas/index.js';
import { addEdge, detachEverywhere, findAgent, removeEdge, removeEntity, requireEntity, unknownReference, upsertById } from './draft.js';

type Handlers<K extends MutationType> = { [T in K]: (d: DesiredState, m: MutationOf<T>) => void };

const edge = (agent: string, seg: string, target: string) => `agent:${agent}/${seg}:${target}`;

type CatalogTypes =
  | 'skill.upsert'
  | 'skill.remove'
  | 'agent.skill.attach'
  | 'agent.skill.detach'
  | 'capability.upsert'
  | 'capability.remove'
  | 'agent.capability.grant'
  | 'agent.capability.revoke'
  | 'credential_requirement.upsert'
  | 'credential_requirement.remove'
  | 'memory_namespace.upsert'
  | 'memory_namespace.remove'
  | 'agent.memory.grant'
  | 'agent.memory.revoke'
  | 'connection.upsert'
  | 'connection.remove'
  | 'agent.connection.attach'
  | 'agent.connection.detach';

export const CATALOG_HANDLERS: Handlers<CatalogTypes> = {
  'skill.upsert': (d, m) => upsertById(d.skills, { id: m.skill_id, display_name: m.display_name }),
  'skill.remove': (d, m) => {
    removeEntity(d, 'skills', m.skill_id);
    detachEverywhere(d, 'skills', m.skill_id);
  },
  'agent.skill.attach': (d, m) => {
    const agent = findAgent(d, m.agent_id);
    requireEntity(d, 'skills', m.skill_id);
    addEdge(agent.skills, m.skill_id);
  },
  'agent.skill.detach': (d, m) =>
    removeEdge(findAgent(d, m.agent_id).skills, m.skill_id, edge(m.agent_id, 'skill', m.skill_id), `Skill '${m.skill_id}' on agent '${m.agent_id}'`),

  'capability.upsert': (d, m) => upsertById(d.capabilities, { id: m.capability_id, display_name: m.display_name }),
  'capability.remove': (d, m) => {
    removeEntity(d, 'capabilities', m.capability_id);
    detachEverywhere(d, 'capabilities', m.capability_id);
  },
  'agent.capability.grant': (d, m) => {
    const agent = findAgent(d, m.agent_id);
    requireEntity(d, 'capabilities', m.capability_id);
    addEdge(agent.capabilities, m.capability_id);
  },
  'agent.capability.revoke': (d, m) =>
    removeEdge(
      findAgent(d, m.agent_id).capabilities,
      m.capability_id,
      edge(m.agent_id, 'capability', m.capability_id),
      `Capability grant '${m.capability_id}' on agent '${m.agent_id}'`,
    ),

  'credential_requirement.upsert': (d, m) => upsertById(d.credential_requirements, { id: m.credential_requirement_id, display_name: m.display_name }),
  'credential_requirement.remove': (d, m) => removeEntity(d, 'credential_requirements', m.credential_requirement_id),

  'memory_namespace.upsert': (d, m) => upsertById(d.memory_namespaces, { id: m.namespace_id, display_name: m.display_name }),
  'memory_namespace.remove': (d, m) => {
    removeEntity(d, 'memory_namespaces', m.namespace_id);
    for (const a of d.agents) a.memory = a.memory.filter((g) => g.namespace !== m.namespace_id);
  },
  'agent.memory.grant': (d, m) => {
    const agent = findAgent(d, m.agent_id);
    requireEntity(d, 'memory_namespaces', m.namespace_id);
    // A grant replaces the access of an existing grant of the same namespace (read <-> write).
    agent.memory = [...agent.memory.filter((g) => g.namespace !== m.namespace_id), { namespace: m.namespace_id, access: m.access }];
  },
  'agent.memory.revoke': (d, m) => {
    const agent = findAgent(d, m.agent_id);
    if (!agent.memory.some((g) => g.namespace === m.namespace_id)) {
      throw unknownReference(edge(m.agent_id, 'memory', m.namespace_id), `Memory grant '${m.namespace_id}' on agent '${m.agent_id}'`);
    }
    agent.memory = agent.memory.filter((g) => g.namespace !== m.namespace_id);
  },

  'connection.upsert': (d, m) => upsertById(d.connections, { id: m.connection_name, name: m.connection_name, kind: m.kind, display_name: m.display_name }),
  'connection.remove': (d, m) => {
    removeEntity(d, 'connections', m.connection_name);
    detachEverywhere(d, 'connections', m.connection_name);
  },
  'agent.connection.attach': (d, m) => {
    const agent = findAgent(d, m.agent_id);
    requireEntity(d, 'connections', m.connection_name);
    addEdge(agent.connections, m.connection_name);
  },
  'agent.connection.detach': (d, m) =>
    removeEdge(
      findAgent(d, m.agent_id).connections,
      m.connection_name,
      edge(m.agent_id, 'connection', m.connection_name),
      `Connection '${m.connection_name}' on agent '${m.agent_id}'`,
    ),
};
