// Builds one semantic change, keeping every field inside the interface's length limits.
import type { AuthorityEffect, ChangeAction, ChangeCategory, DesiredState, SemanticChange } from '../../schemas/index.js';

/** Cuts text to at most `max` UTF-16 units without splitting a surrogate pair, marking the cut with "…". */
function truncate(text: string, max: number): string {
  if (text.length <= max) return text;
  let out = '';
  for (const ch of text) {
    if (out.length + ch.length > max - 1) break;
    out += ch;
  }
  return `${out}…`;
}

export interface ChangeSpec {
  category: ChangeCategory;
  subject_id: string;
  action: ChangeAction;
  authority_effect: AuthorityEffect;
  reason_code: string;
  text: string;
  changed_fields?: string[];
}

export function makeChange(spec: ChangeSpec): SemanticChange {
  const change: SemanticChange = {
    action: spec.action,
    authority_effect: spec.authority_effect,
    category: spec.category,
    display_name: truncate(spec.text, 200) || spec.subject_id,
    reason_code: truncate(spec.reason_code, 100),
    subject_id: truncate(spec.subject_id, 200),
  };
  // changed_fields only ever appears on `modified` changes.
  if (spec.action === 'modified' && spec.changed_fields) change.changed_fields = [...spec.changed_fields].sort();
  return change;
}

/** The display name of an agent or catalog entity in `state`, falling back to its id. */
export function nameIn(
  state: DesiredState,
  key: 'agents' | 'skills' | 'capabilities' | 'memory_namespaces' | 'connections' | 'credential_requirements',
  id: string,
): string {
  const list: { id: string; display_name: string }[] = state[key];
  return list.find((e) => e.id === id)?.display_name ?? id;
}
