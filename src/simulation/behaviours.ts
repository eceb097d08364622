// What a simulated run does: the built-in default, and the project and agent overrides merged over it.
import type { Behaviour, BehaviourPart, Behaviours, SimStep } from '../schemas/index.js';

/** A run of a fixture without `simulation`: a short queue, memory, a model call, a tool, an answer; it succeeds. */
const DEFAULT_BEHAVIOUR: Behaviour = Object.freeze({
  queue_wait_ms: 800,
  steps: [
    { name: 'recall context', step_type: 'memory', duration_ms: 120, cost_usd: 0, input_tokens: 0, output_tokens: 0 },
    { name: 'plan', step_type: 'model', duration_ms: 1400, cost_usd: 0.0021, input_tokens: 1200, output_tokens: 180 },
    { name: 'lookup', step_type: 'tool', duration_ms: 600, cost_usd: 0, input_tokens: 0, output_tokens: 0 },
    { name: 'answer', step_type: 'model', duration_ms: 1800, cost_usd: 0.0034, input_tokens: 1900, output_tokens: 260 },
  ],
  outcome: { status: 'succeeded', error: 'simulated_failure' },
}) as Behaviour;

/** Field by field: what the part gives wins; a step list is replaced whole. */
function merge(base: Behaviour, part: BehaviourPart | undefined): Behaviour {
  if (!part) return base;
  return {
    queue_wait_ms: part.queue_wait_ms ?? base.queue_wait_ms,
    steps: part.steps ?? base.steps,
    outcome: part.outcome ?? base.outcome,
  };
}

/** An approval gate's tool is the step's own name unless it names another. */
function normalizeSteps(steps: SimStep[]): SimStep[] {
  return steps.map((s) => (s.approval && s.approval.tool_id === undefined ? { ...s, approval: { ...s.approval, tool_id: s.name } } : s));
}

interface Index {
  base: Behaviour;
  projects: Map<string, { own: Behaviour; agents: Map<string, Behaviour> }>;
}

/** Behaviour documents are immutable records: each is indexed once. */
const indexes = new WeakMap<Behaviours, Index>();

function indexOf(doc: Behaviours): Index {
  let idx = indexes.get(doc);
  if (idx) return idx;
  const base = merge(DEFAULT_BEHAVIOUR, doc.default);
  const projects = new Map<string, { own: Behaviour; agents: Map<string, Behaviour> }>();
  for (const p of doc.projects ?? []) {
    const own = merge(base, p);
    const agents = new Map<string, Behaviour>();
    for (const a of p.agents ?? []) agents.set(a.agent_id, merge(own, a));
    projects.set(p.project_id, { own, agents });
  }
  idx = { base, projects };
  indexes.set(doc, idx);
  return idx;
}

/** The behaviour a run of this project and agent follows (the agent's override, the project's, or the default). */
export function behaviourFor(doc: Behaviours | undefined, projectId: string, agentId: string | undefined): Behaviour {
  if (!doc) return { ...DEFAULT_BEHAVIOUR, steps: normalizeSteps(DEFAULT_BEHAVIOUR.steps) };
  const idx = indexOf(doc);
  const p = idx.projects.get(projectId);
  const b = (p && agentId !== undefined ? p.agents.get(agentId) : undefined) ?? p?.own ?? idx.base;
  return { ...b, steps: normalizeSteps(b.steps) };
}
