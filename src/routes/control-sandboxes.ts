// Control routes of sandboxes (the default mock only) and named snapshots (every mock): thin calls into MockControl.
import type { Context } from 'koa';
import { CreateSandboxSchema, SandboxPageQuerySchema, SandboxPath, SaveSnapshotSchema, SnapshotPath } from '../schemas/sandboxes.js';
import { bodyReader, endpoint, Reply, type ReadBody } from './endpoint.js';
import { Router } from './route-list.js';

/** The origin the client reached (without a default port): a sandbox's base_url starts with it. */
const originOf = (ctx: Context): string => `${ctx.protocol}://${ctx.host}`.replace(/^(http:\/\/[^/]*):80$|^(https:\/\/[^/]*):443$/, '$1$2');

/** A create may carry a whole fixture document: the control surface's large-body limit applies. */
const CREATE_BODY_LIMIT = 64 * 1024 * 1024;

export function controlSandboxRoutes(readBody: ReadBody, bodyLimit: number): Router {
  const router = new Router();
  const readLargeBody = bodyReader(Math.max(bodyLimit, CREATE_BODY_LIMIT));

  router.post(
    '/_mock/sandboxes',
    endpoint(readLargeBody, { operation: 'controlCreateSandbox', level: 'public', body: CreateSandboxSchema }, async ({ body, ctx, control }) => {
      return new Reply(201, await control.createSandbox(body ?? {}, originOf(ctx)));
    }),
  );
  router.get(
    '/_mock/sandboxes',
    endpoint(readBody, { operation: 'controlListSandboxes', level: 'public', query: SandboxPageQuerySchema }, ({ query, ctx, control }) =>
      control.sandboxes(query, originOf(ctx)),
    ),
  );
  router.get(
    '/_mock/sandboxes/:sandbox_id',
    endpoint(readBody, { operation: 'controlGetSandbox', level: 'public', path: SandboxPath }, ({ path, ctx, control }) =>
      control.sandbox(path.sandbox_id, originOf(ctx)),
    ),
  );
  router.delete(
    '/_mock/sandboxes/:sandbox_id',
    endpoint(readBody, { operation: 'controlDeleteSandbox', level: 'public', path: SandboxPath }, async ({ path, control }) => {
      await control.deleteSandbox(path.sandbox_id);
      return { deleted: true, id: path.sandbox_id };
    }),
  );

  router.post(
    '/_mock/snapshots',
    endpoint(
      readBody,
      { operation: 'controlSaveSnapshot', level: 'public', body: SaveSnapshotSchema, bodyRequired: true },
      ({ body, control }) => new Reply(201, control.saveSnapshot(body.name)),
    ),
  );
  router.get(
    '/_mock/snapshots',
    endpoint(readBody, { operation: 'controlListSnapshots', level: 'public' }, ({ control }) => ({ items: control.snapshots() })),
  );
  router.post(
    '/_mock/snapshots/:name/restore',
    endpoint(readBody, { operation: 'controlRestoreSnapshot', level: 'public', path: SnapshotPath }, async ({ path, control, deps }) => ({
      restored: true,
      snapshot: await control.restoreSnapshot(path.name),
      now: deps.clock.nowIso(),
    })),
  );
  router.delete(
    '/_mock/snapshots/:name',
    endpoint(readBody, { operation: 'controlDeleteSnapshot', level: 'public', path: SnapshotPath }, ({ path, control }) => {
      control.deleteSnapshot(path.name);
      return { deleted: true, name: path.name };
    }),
  );
  return router;
}
