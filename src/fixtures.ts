// Fixture loading: validate the document, check its references, and build the stored state (releases compiled).
import { readFileSync, statSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { createHash } from 'node:crypto';
import * as v from 'valibot';
import canonicalize from 'canonicalize';
import { FixtureSchema, type Fixture, type FixtureInput } from './schemas/index.js';
import type { RecordOf, StateData } from './schemas/index.js';
import { describeIssues } from './validation.js';
import { JsonStreamError, readJsonStreaming } from './storage/index.js';
import { MAX_JSON_DEPTH, jsonValueTooDeep, textTooDeepAt } from './json-depth.js';
import { uuidFor } from './domain/index.js';
import { jsonSyntaxAt } from './body/index.js';
import { compileRelease, fingerprint, normalizeDesiredState, emptyDesiredState } from './domain/index.js';
import { referenceProblems } from './fixture-references.js';
import { SIMULATION_RECORD_ID } from './schemas/index.js';
import { sharedIdentity } from './shared-identity.js';

/** How many problems a FixtureError's one-line message lists (`problems` holds them all). */
const SHOWN_PROBLEMS = 3;

/** A fixture that fails validation; `problems` are lines like `runs[3].status: Invalid type ...`. */
export class FixtureError extends Error {
  static {
    sharedIdentity(this, 'FixtureError');
  }

  constructor(
    readonly problems: string[],
    source = 'fixture',
  ) {
    // One line (a start-up failure is one line): the first few problems, then how many more.
    const shown = problems.slice(0, SHOWN_PROBLEMS).join('; ');
    const more = problems.length > SHOWN_PROBLEMS ? ` (and ${problems.length - SHOWN_PROBLEMS} more)` : '';
    super(`invalid ${source}: ${shown}${more}`);
    this.name = 'FixtureError';
  }
}

export const DEMO_FIXTURE_PATH = fileURLToPath(new URL('../fixtures/demo.json', import.meta.url));

/** How deeply a fixture file may nest (refused before anything recursive reads it). */
const FIXTURE_MAX_DEPTH = MAX_JSON_DEPTH;

/**
 * Reads a fixture file as a stream, record by record (not yet validated): a file larger than the
 * biggest string V8 can hold still loads. `onProgress` gets the bytes read so far.
 */
export async function loadFixtureFile(path: string, onProgress?: (bytes: number) => void): Promise<unknown> {
  try {
    return await readJsonStreaming(path, { recordDepth: 2, maxDepth: FIXTURE_MAX_DEPTH, onProgress });
  } catch (err) {
    if (err instanceof JsonStreamError) throw new FixtureError([syntaxProblem(path) ?? `not valid JSON: ${err.message}`], path);
    throw new FixtureError([`cannot read: ${(err as Error).message}`], path);
  }
}

/** Files up to this size are read again whole to say where a syntax error is (the stream parses pieces). */
const LOCATE_MAX_BYTES = 64 * 1024 * 1024;

/** Where JSON text breaks, in Python's words: `not valid JSON at line 3, column 11: Expecting ':' delimiter`. */
function syntaxAt(text: string): string | undefined {
  const at = jsonSyntaxAt(text);
  return at && `not valid JSON at line ${at.line}, column ${at.column}: ${at.message}`;
}

/** The syntax problem of a file the stream refused, located in the whole text (undefined: too big, or not syntax). */
function syntaxProblem(path: string): string | undefined {
  let text: string;
  try {
    if (statSync(path).size > LOCATE_MAX_BYTES) return undefined;
    text = readFileSync(path, 'utf8');
  } catch {
    return undefined;
  }
  return textTooDeepAt(text) >= 0 ? undefined : syntaxAt(text);
}

/** Reads and parses a (small) fixture file (not yet validated). */
export function readFixtureFile(path: string): unknown {
  return parseFixtureText(readFixtureText(path), path);
}

function readFixtureText(path: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch (err) {
    throw new FixtureError([`cannot read: ${(err as Error).message}`], path);
  }
}

function parseFixtureText(text: string, path: string): unknown {
  // Nesting is checked on the text first: nothing recursive may ever see a document deeper than the limit.
  const deep = textTooDeepAt(text);
  if (deep >= 0) throw new FixtureError([`JSON nested deeper than ${MAX_JSON_DEPTH} levels (at character ${deep})`], path);
  try {
    return JSON.parse(text);
  } catch (err) {
    throw new FixtureError([syntaxAt(text) ?? `not valid JSON: ${(err as Error).message}`], path);
  }
}

/** The fixture of an instance created without one: an empty state. */
export const EMPTY_FIXTURE: FixtureInput = Object.freeze({});

/** Records are immutable, so one compiled state can seed many instances: a fixture is built once per object. */
const built = new WeakMap<object, StateData>();

/** The demo's compiled state, precomputed by the build (scripts/demo-state.ts) beside the bundled dist/index.js and cli.js. */
export const DEMO_STATE_FILE = 'demo-state.json';
/** The hash of the demo fixture's text: the precomputed state is used only for the very text it was built from. */
export const demoSource = (text: string = readFileSync(DEMO_FIXTURE_PATH, 'utf8')): string => createHash('sha256').update(text).digest('hex');

/** The precomputed demo state when the build left one for this demo.json text (none when run from src/). */
function precomputedDemo(demoText: string): StateData | undefined {
  let text: string;
  try {
    text = readFileSync(new URL(`./${DEMO_STATE_FILE}`, import.meta.url), 'utf8');
  } catch {
    return undefined;
  }
  const pre = JSON.parse(text) as { source: string; state: StateData };
  return pre.source === demoSource(demoText) ? pre.state : undefined;
}

/** Freezes a JSON document and everything in it (a work list, not recursion). */
function deepFreeze<T>(doc: T): T {
  const todo: unknown[] = [doc];
  for (let value = todo.pop(); value !== undefined; value = todo.pop()) {
    if (typeof value !== 'object' || value === null || Object.isFrozen(value)) continue;
    Object.freeze(value);
    for (const child of Object.values(value)) todo.push(child);
  }
  return doc;
}

let demo: unknown;
/**
 * The bundled demo fixture document, read once per process (with its compiled state, when the build precomputed it).
 * It is one object for the whole process, so it is frozen: a change would reach every later mock of the process, and
 * its compiled state would no longer be what it describes. Change a copy: `structuredClone(demoFixture())`.
 */
export function demoFixture(): FixtureInput {
  if (demo === undefined) {
    const text = readFixtureText(DEMO_FIXTURE_PATH);
    const state = precomputedDemo(text);
    // The build read this very text as a fixture file (its nesting checked) to precompute the state: it is only parsed.
    demo = deepFreeze(state ? JSON.parse(text) : parseFixtureText(text, DEMO_FIXTURE_PATH));
    if (state) built.set(demo as object, state);
  }
  return demo as FixtureInput;
}

/** Validates a fixture document and returns the state it describes; throws FixtureError naming each bad field. */
export function stateFromFixture(input: unknown, source?: string): StateData {
  if (typeof input === 'object' && input !== null) {
    const hit = built.get(input);
    if (hit) return hit;
  }
  // valibot's object schema takes an array as an object without keys: `[]` would seed an empty state.
  if (typeof input !== 'object' || input === null || Array.isArray(input)) {
    throw new FixtureError([`(root): a fixture is a JSON object, got ${input === null ? 'null' : Array.isArray(input) ? 'an array' : typeof input}`], source);
  }
  if (jsonValueTooDeep(input)) throw new FixtureError([`(root): JSON nested deeper than ${MAX_JSON_DEPTH} levels`], source);
  const result = v.safeParse(FixtureSchema, input, { abortEarly: false, abortPipeEarly: true });
  if (!result.success) throw new FixtureError(describeIssues(result.issues), source);
  const state = buildState(result.output, source);
  // Shared by every instance seeded from this object: frozen (the state and its collections), so no caller can change it for the next.
  Object.freeze(state);
  for (const value of Object.values(state)) if (Array.isArray(value)) Object.freeze(value);
  built.set(input, state);
  return state;
}

const sha256 = (s: string) => createHash('sha256').update(s).digest('hex');

function buildState(f: Fixture, source?: string): StateData {
  const problems = referenceProblems(f);
  if (problems.length) throw new FixtureError(problems, source);
  const revisions: RecordOf<'revisions'>[] = [];
  const releases: RecordOf<'releases'>[] = [];
  const projects: RecordOf<'projects'>[] = [];
  for (const [i, p] of f.projects.entries()) {
    const own = f.releases.filter((r) => r.project_id === p.id).sort((a, b) => a.generation - b.generation);
    const revision = (document: unknown, created_at: string, path: string) => {
      let state;
      try {
        state = normalizeDesiredState(document);
      } catch (err) {
        throw new FixtureError([`${path}: ${(err as Error).message}`], source);
      }
      const rec = {
        revision_id: uuidFor(`${p.id}:revision:${revisions.filter((r) => r.project_id === p.id).length}`),
        project_id: p.id,
        generation: revisions.filter((r) => r.project_id === p.id).length,
        fingerprint: fingerprint(state),
        created_at,
        document: state as unknown as Record<string, unknown>,
      };
      revisions.push(rec);
      return rec;
    };
    let head = own.length === 0 && !p.desired_state ? revision(emptyDesiredState(), p.created_at, `projects[${i}]`) : undefined;
    for (const r of own) {
      head = revision(r.desired_state, r.created_at, `releases[${f.releases.indexOf(r)}].desired_state`);
      releases.push({
        id: r.id,
        project_id: r.project_id,
        generation: r.generation,
        created_at: r.created_at,
        desired_state_head: { revision_id: head.revision_id, generation: head.generation, fingerprint: head.fingerprint },
        document: compileRelease(normalizeDesiredState(r.desired_state)) as unknown as Record<string, unknown>,
      });
    }
    if (p.desired_state) {
      const fp = fingerprint(normalizeDesiredState(p.desired_state));
      if (!head || head.fingerprint !== fp) head = revision(p.desired_state, p.updated_at, `projects[${i}].desired_state`);
    }
    projects.push({
      id: p.id,
      name: p.name,
      slug: p.slug,
      status: p.status,
      workspace_id: p.workspace_id,
      created_at: p.created_at,
      updated_at: p.updated_at,
      head_revision_id: head!.revision_id,
    });
  }
  const budgets = f.projects.map((p) => ({
    project_id: p.id,
    funding_mode: p.budget?.funding_mode ?? 'free_sandbox',
    credit_balance_usd: p.budget?.credit_balance_usd ?? 0,
    current_daily_spend_usd: p.budget?.current_daily_spend_usd ?? 0,
    current_monthly_spend_usd: p.budget?.current_monthly_spend_usd ?? 0,
    runtime_config_epoch: p.budget?.runtime_config_epoch ?? 0,
    limits: p.budget?.limits ?? { project_daily_usd: null, project_monthly_usd: null, user_daily_usd: null, user_monthly_usd: null },
  })) as RecordOf<'budgets'>[];
  const approvals = f.approvals.map((a) => ({
    ...a,
    binding_fingerprint: a.binding_fingerprint ?? sha256(canonicalize({ tool_id: a.tool_id, tool_arguments: a.tool_arguments ?? null }) ?? ''),
  }));
  const sim = f.simulation;
  const simulation: RecordOf<'simulation'>[] = sim
    ? [
        {
          id: SIMULATION_RECORD_ID,
          ...(sim.mode !== undefined ? { mode: sim.mode } : {}),
          ...(sim.seed !== undefined ? { seed: String(sim.seed) } : {}),
          clock: sim.clock,
          behaviours: sim.behaviours,
          traffic: sim.traffic,
          ...(sim.retention_days !== undefined ? { retention_days: sim.retention_days } : {}),
        },
      ]
    : [];
  return {
    clock: { frozen_at: f.now ?? null, offset_ms: 0, ...(sim?.speed !== undefined ? { rate: sim.speed } : {}) },
    settings: f.settings,
    workspaces: f.workspaces,
    principals: f.principals,
    access_tokens: f.access_tokens,
    refresh_tokens: [],
    authorization_codes: f.authorization_codes,
    projects,
    budgets,
    revisions,
    connections: f.connections,
    releases,
    targets: f.targets,
    runs: f.runs,
    approvals,
    users: f.users,
    jobs: f.jobs,
    memories: f.memories,
    traces: f.traces,
    chat_updates: [],
    broker_events: [],
    simulation,
    simulation_events: [],
    user_spend: [],
    simulated_runs: [],
  };
}
