// Recipe: the typed client (`project-runtime-mock/client`) under strict TypeScript. It reads the free-form fields
// (request_metadata, result, configuration, health) and the release document without a single cast, as any client of
// the real service would; `npm test` type-checks it and runs it against the built CLI (test/client/client.test.ts).
import { createClient, type ConnectionBindingResponseV3, type ReleaseResponseV3, type RunDetailResponseV3 } from 'project-runtime-mock/client';

const PROJECT = 'fe1868ee-d60e-4ce6-8db0-f4a764225229';
const FAILED_BACKGROUND_RUN = '59cfeed3-439a-4dab-a2ba-fa30f52df113';

export interface Tour {
  jobName: unknown;
  errorCode: unknown;
  schemaVersion: string;
  compilerVersion: string;
  firstPlanAgent: string | undefined;
  chatLanguage: unknown;
  chatHealth: unknown;
  retryOf: unknown;
  runStatus: RunDetailResponseV3['status'];
}

// Compile-time checks: a free-form key reads as `unknown` (a bare `{type: object}` made it `never`), and the release
// document has its own fields.
type Readable<T> = [T] extends [never] ? 'never' : 'readable';
export const FREE_FORM_KEYS_READABLE: [
  Readable<NonNullable<RunDetailResponseV3['request_metadata']>[string]>,
  Readable<NonNullable<RunDetailResponseV3['result']>[string]>,
  Readable<NonNullable<ConnectionBindingResponseV3['configuration']>[string]>,
  Readable<NonNullable<ConnectionBindingResponseV3['health']>[string]>,
] = ['readable', 'readable', 'readable', 'readable'];
export const RELEASE_SCHEMA_VERSION: ReleaseResponseV3['document']['schema_version'] = 'svc.project-release/v3';

/** Free-form objects arrive as `{ [key: string]: unknown }`: narrow the value, never the type. */
function field(obj: { [key: string]: unknown } | undefined, key: string): unknown {
  return obj?.[key];
}

export async function typedTour(baseUrl: string, token: string, adminKey: string): Promise<Tour> {
  const client = createClient({ baseUrl, token, adminKey });

  const run = await client.getRun(PROJECT, FAILED_BACKGROUND_RUN);
  if (!run.data) throw new Error(`getRun answered ${run.response.status}`);
  const jobName = run.data.request_metadata?.job_name;
  const error = run.data.result?.error;
  const errorCode = typeof error === 'object' && error !== null && 'code' in error ? error.code : undefined;

  const releases = await client.listReleases(PROJECT, { limit: 1 });
  if (!releases.data) throw new Error(`listReleases answered ${releases.response.status}`);
  const document = releases.data.items[0].document;

  // Endpoint 2 takes the admin key: the client sends it there (and the token elsewhere).
  const connection = await client.getConnection(PROJECT, 'support-chat');
  if (!connection.data) throw new Error(`getConnection answered ${connection.response.status}`);

  // A retry's free-form metadata is sendable, and comes back merged into the new run's request_metadata.
  const retry = await client.retryRun(PROJECT, FAILED_BACKGROUND_RUN, { reason: 'typed', metadata: { ticket: 'T-1' } });
  if (!retry.data) throw new Error(`retryRun answered ${retry.response.status}`);

  return {
    jobName,
    errorCode,
    schemaVersion: document.schema_version,
    compilerVersion: document.compiler_version,
    firstPlanAgent: document.execution_plans[0]?.agent_id,
    chatLanguage: field(connection.data.configuration, 'language'),
    chatHealth: connection.data.health?.status,
    retryOf: retry.data.request_metadata?.retry_of,
    runStatus: run.data.status,
  };
}
