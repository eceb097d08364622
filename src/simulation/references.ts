// Reference checks of simulation documents (a behaviour's project, a traffic source's chat binding), for fixtures and the control surface.
import type { BehaviourPart, Behaviours, Traffic } from '../schemas/index.js';

export interface Problem {
  path: (string | number)[];
  message: string;
}

/** Rules a schema cannot say: gates only on tool steps, outcome weights that add up to something. */
function checkPart(part: BehaviourPart, path: (string | number)[], problems: Problem[]): void {
  (part.steps ?? []).forEach((s, k) => {
    if (s.approval && s.step_type !== 'tool')
      problems.push({ path: [...path, 'steps', k, 'approval'], message: `approval gates are for tool steps, not ${s.step_type}` });
  });
  const p = part.outcome?.probabilities;
  if (p && p.succeeded + p.failed <= 0)
    problems.push({ path: [...path, 'outcome', 'probabilities'], message: 'the weights of succeeded and failed must add up to more than 0' });
}

/** Each behaviour names a project that exists, once; each agent override appears once per project. */
export function checkBehaviourReferences(b: Behaviours, projectExists: (id: string) => boolean): Problem[] {
  const problems: Problem[] = [];
  checkPart(b.default ?? {}, ['default'], problems);
  const seen = new Set<string>();
  (b.projects ?? []).forEach((p, i) => {
    if (!projectExists(p.project_id)) problems.push({ path: ['projects', i, 'project_id'], message: 'unknown project' });
    if (seen.has(p.project_id)) problems.push({ path: ['projects', i, 'project_id'], message: `duplicate behaviour for project ${p.project_id}` });
    seen.add(p.project_id);
    checkPart(p, ['projects', i], problems);
    const agents = new Set<string>();
    (p.agents ?? []).forEach((a, j) => {
      checkPart(a, ['projects', i, 'agents', j], problems);
      if (agents.has(a.agent_id)) problems.push({ path: ['projects', i, 'agents', j, 'agent_id'], message: `duplicate override for agent ${a.agent_id}` });
      agents.add(a.agent_id);
    });
  });
  return problems;
}

/** Each traffic source names an existing connection binding of kind chatapp. */
export function checkTrafficReferences(traffic: Traffic[], bindingKind: (id: string) => string | undefined): Problem[] {
  const problems: Problem[] = [];
  traffic.forEach((t, i) => {
    const kind = bindingKind(t.binding_id);
    if (kind === undefined) problems.push({ path: [i, 'binding_id'], message: 'unknown connection binding' });
    else if (kind !== 'chatapp') problems.push({ path: [i, 'binding_id'], message: `connection binding of kind ${kind}, not chatapp` });
  });
  return problems;
}
