// The two sides of a conformance run: the target over HTTP, and an in-process mock seeded from a fixture whose
// credentials and projects stand in for the target's (same id when the fixture has it, else the fixture's own).
import { createApp, type MockApp } from '../app.js';
import { initOf, readAnswer, type Side } from './probe.js';

export interface SideOptions {
  token?: string;
  adminKey?: string;
  project?: string;
  disposableProject?: string;
}

/** The target: every probe request goes to base URL + path (a base with a path prefix keeps it). */
export function targetSide(base: string, o: SideOptions, fetchFn: typeof fetch = fetch): Side {
  const root = base.replace(/\/+$/, '');
  return {
    name: 'target',
    send: async (req) => readAnswer(await fetchFn(root + req.path, { ...initOf(req), redirect: 'manual' })),
    token: o.token,
    adminKey: o.adminKey,
    project: o.project,
    disposable: o.disposableProject,
    found: { releaseIds: [], runIds: [] },
  };
}

interface FixtureDoc {
  now?: string;
  settings?: { admin_key?: string };
  projects?: { id: string; status?: string; workspace_id: string }[];
  principals?: { id: string; memberships?: { workspace_id: string; role: string }[] }[];
  access_tokens?: { token: string; principal_id: string; scopes?: string[]; expires_at?: string }[];
  approvals?: { project_id: string; status?: string }[];
}

/** The fixture's project with this id, else its first active project that `prefer` accepts, else its first project. */
function mapProject(f: FixtureDoc, id: string | undefined, prefer: (p: string) => boolean = () => true): string | undefined {
  if (id === undefined) return undefined;
  const projects = f.projects ?? [];
  if (projects.some((p) => p.id === id)) return id;
  const active = projects.filter((p) => p.status !== 'archived');
  return (active.find((p) => prefer(p.id)) ?? active[0] ?? projects[0])?.id;
}

/** A live token of an owner of the project's workspace with admin scope: the mock side may do all the target's token may. */
function ownerToken(f: FixtureDoc, project: string | undefined): string | undefined {
  const workspace = f.projects?.find((p) => p.id === project)?.workspace_id;
  const now = f.now ?? new Date(0).toISOString();
  const owners = new Set((f.principals ?? []).filter((p) => p.memberships?.some((m) => m.workspace_id === workspace && m.role === 'owner')).map((p) => p.id));
  const live = (f.access_tokens ?? []).filter((t) => !t.expires_at || t.expires_at > now);
  return (live.find((t) => owners.has(t.principal_id) && t.scopes?.includes('project:admin')) ?? live.find((t) => owners.has(t.principal_id)) ?? live[0])
    ?.token;
}

/** The in-process mock over memory storage, with credentials and projects mapped from the target's options. */
export async function mockSide(fixtures: unknown, o: SideOptions): Promise<{ side: Side; app: MockApp }> {
  const app = await createApp({ storage: 'memory', fixtures, control: false });
  const f = (fixtures ?? {}) as FixtureDoc;
  const pending = (p: string) => (f.approvals ?? []).some((a) => a.project_id === p && a.status === 'pending');
  const project = mapProject(f, o.project);
  const disposable = mapProject(f, o.disposableProject, pending);
  const side: Side = {
    name: 'mock',
    send: async (req) => readAnswer(await app.fetch(req.path, initOf(req))),
    // The mock side has credentials exactly when the target side does, so both sides skip the same probes.
    token: o.token === undefined ? undefined : ownerToken(f, project ?? disposable),
    adminKey: o.adminKey === undefined ? undefined : f.settings?.admin_key,
    project,
    disposable,
    found: { releaseIds: [], runIds: [] },
  };
  return { side, app };
}
