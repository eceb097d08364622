// The /_mock operations of sandboxes (the default mock only) and named snapshots (every mock): thin calls into MockControl.
import type { Context } from 'koa';
import { sandboxes as S } from '../schemas/index.js';
import { controlSchemas as A } from '../openapi/index.js';
import { named } from '../openapi/index.js';
import { Reply } from '../pipeline/index.js';
import { answer } from './answers.js';
import { declareControl } from './declare.js';

/** The origin the client reached (without a default port): a sandbox's base_url starts with it. */
const originOf = (ctx: Context): string => `${ctx.protocol}://${ctx.host}`.replace(/^(http:\/\/[^/]*):80$|^(https:\/\/[^/]*):443$/, '$1$2');

// prettier-ignore
export const CONTROL_SANDBOX_OPERATIONS = [
  declareControl({
    operationId: 'controlCreateSandbox',
    method: 'post',
    path: '/_mock/sandboxes',
    summary: 'Create a sandbox: an isolated mock on this server',
    description: 'A whole mock of its own (state, clock, ids, simulation, faults, journal, coverage, snapshots), from `fixtures`, a saved `snapshot` (not both), or what the server started with. Address it by the path prefix `/sandboxes/{id}` (`base_url`), the header `X-Mock-Sandbox: {id}` or the host `{id}.localhost`. It goes `ttl_ms` after its last request. 429 `sandbox_limit` when as many are live as the server allows.',
    // A create may carry a whole fixture document.
    body: { schema: named('CreateSandboxRequest', S.CreateSandboxSchema), required: false },
    largeBody: true,
    errors: [404, 413, 422, 429],
    success: [{ status: 201, description: 'The sandbox', body: named('Sandbox', S.SandboxInfoSchema) }],
    client: { name: 'createSandbox', doc: 'Creates a sandbox and resolves with a client bound to it (same v3 and control methods); `sandbox` is what the create answered.', body: 'input', binds: true },
    handler: () => async ({ body, ctx, control }) => new Reply(201, await control.createSandbox(body, originOf(ctx))),
  }),
  declareControl({
    operationId: 'controlListSandboxes',
    method: 'get',
    path: '/_mock/sandboxes',
    summary: 'The live sandboxes, newest first, in pages',
    description: '`limit` 1..200 (default 50); `cursor` is the `next_cursor` of the previous page.',
    query: S.SandboxPageQuerySchema,
    errors: [422],
    success: [answer('SandboxPage', S.SandboxPageSchema, 'A page of sandboxes')],
    client: { name: 'sandboxes', doc: 'Live sandboxes, newest first, in pages.' },
    handler: () => ({ query, ctx, control }) => control.sandboxes(query, originOf(ctx)),
  }),
  declareControl({
    operationId: 'controlGetSandbox',
    method: 'get',
    path: '/_mock/sandboxes/{sandbox_id}',
    summary: 'One live sandbox',
    description: '404 `sandbox_not_found` once it was deleted or expired.',
    pathParams: S.SandboxPath,
    success: [answer('Sandbox', S.SandboxInfoSchema, 'The sandbox')],
    client: { name: 'sandbox' },
    handler: () => ({ path, ctx, control }) => control.sandbox(path.sandbox_id, originOf(ctx)),
  }),
  declareControl({
    operationId: 'controlDeleteSandbox',
    method: 'delete',
    path: '/_mock/sandboxes/{sandbox_id}',
    summary: 'Drop a sandbox and everything it held',
    description: 'Its state, journal, faults, coverage and snapshots go at once.',
    pathParams: S.SandboxPath,
    errors: [404],
    success: [answer('ControlDeletedSandbox', A.DeletedSandboxSchema, 'What was deleted')],
    client: { name: 'deleteSandbox', doc: 'Drops a sandbox and everything it held.' },
    handler: () => async ({ path, control }) => {
      await control.deleteSandbox(path.sandbox_id);
      return { deleted: true as const, id: path.sandbox_id };
    },
  }),
  declareControl({
    operationId: 'controlSaveSnapshot',
    method: 'post',
    path: '/_mock/snapshots',
    summary: 'Save the stored state, the clock and the simulation queue under a name',
    description: 'A save under a held name replaces it. 409 `snapshot_limit` past 32 snapshots or 64 MiB (as JSON) per mock. Restore it with POST /_mock/snapshots/{name}/restore, or start a sandbox from it.',
    body: { schema: named('SaveSnapshotRequest', S.SaveSnapshotSchema), required: true },
    errors: [409, 422],
    success: [{ status: 201, description: 'The snapshot', body: named('Snapshot', S.SnapshotInfoSchema) }],
    client: { name: 'saveSnapshot', doc: 'Saves the stored state, the clock and the simulation queue under `name`.', body: [['name', 'name', 'string']] },
    handler: () => ({ body, control }) => new Reply(201, control.saveSnapshot(body.name)),
  }),
  declareControl({
    operationId: 'controlListSnapshots',
    method: 'get',
    path: '/_mock/snapshots',
    summary: 'The saved snapshots',
    description: 'In the order they were saved.',
    errors: [],
    success: [answer('SnapshotPage', S.SnapshotPageSchema, 'The snapshots')],
    client: { name: 'snapshots', yields: 'items' },
    handler: () => ({ control }) => ({ items: control.snapshots() }),
  }),
  declareControl({
    operationId: 'controlRestoreSnapshot',
    method: 'post',
    path: '/_mock/snapshots/{name}/restore',
    summary: 'Restore a saved snapshot',
    description: 'Puts back its state, clock and simulation queue; the snapshot stays. The journal, faults and coverage are left as they are.',
    pathParams: S.SnapshotPath,
    errors: [404, 422],
    success: [answer('ControlRestoredSnapshot', A.RestoredSnapshotSchema, 'The snapshot restored')],
    client: { name: 'restoreSnapshot' },
    // `now` as the restoring write read it (the snapshot's clock, put back), not read again after it.
    handler: () => async ({ path, control }) => {
      const state = control.namedState(path.name);
      const snapshot = control.snapshots().find((s) => s.name === path.name)!;
      return { restored: true as const, snapshot, now: await control.restore(state) };
    },
  }),
  declareControl({
    operationId: 'controlDeleteSnapshot',
    method: 'delete',
    path: '/_mock/snapshots/{name}',
    summary: 'Remove a saved snapshot',
    description: '404 `snapshot_not_found` for an unknown name.',
    pathParams: S.SnapshotPath,
    errors: [404, 422],
    success: [answer('ControlDeletedSnapshot', A.DeletedSnapshotSchema, 'What was removed')],
    client: { name: 'deleteSnapshot' },
    handler: () => ({ path, control }) => {
      control.deleteSnapshot(path.name);
      return { deleted: true as const, name: path.name };
    },
  }),
];
