// The generated client keeps the hand-written client's exact types: every method's parameters and answer are the same
// type as before (checked by the compiler under strict: `npm run typecheck` fails on any difference, naming the method),
// and no method was added or lost.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { MockClient } from '../../src/client/index.js';
import { createClient } from '../../src/client/index.js';
import type { ControlBefore } from '../helpers/client-control-before.js';
import type { V3Before } from '../helpers/client-v3-before.js';

/** True only when A and B are the same type (not merely assignable either way). */
type Same<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
type V3Now = Omit<MockClient, 'control' | 'api' | 'with'>;
type ControlNow = MockClient['control'];

// Each line fails to compile when its method's type changed; the key lists fail when one was added or lost.
const v3: { [K in keyof V3Before]: true } = {} as { [K in keyof V3Before]: K extends keyof V3Now ? Same<V3Before[K], V3Now[K]> : false };
const control: { [K in keyof ControlBefore<MockClient>]: true } = {} as {
  [K in keyof ControlBefore<MockClient>]: K extends keyof ControlNow ? Same<ControlBefore<MockClient>[K], ControlNow[K]> : false;
};
const v3Keys: Same<keyof V3Before, keyof V3Now> = true;
const controlKeys: Same<keyof ControlBefore<MockClient>, keyof ControlNow> = true;

test('the methods a client has at run time are the ones its types pin', () => {
  const client = createClient({ baseUrl: 'http://127.0.0.1:9' });
  assert.ok(v3 && control && v3Keys && controlKeys);
  const own = (o: object) => Object.keys(o).sort();
  assert.equal(
    own(client).filter((k) => !['control', 'api', 'with'].includes(k)),
    [
      'brokerWebhook',
      'cancelRun',
      'chatWebhook',
      'deleteProject',
      'deleteUser',
      'denyApproval',
      'diffRelease',
      'exchangeToken',
      'getApproval',
      'getConnection',
      'getRun',
      'getUser',
      'listApprovals',
      'listJobs',
      'listReleases',
      'listUsers',
      'planDesiredState',
      'retryRun',
      'setBudget',
      'transferProject',
    ],
  );
  assert.is(own(client.control).length, 53);
});

test.run();
