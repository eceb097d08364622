// Today's v3 client methods as they were written by hand before being generated from the declarations: the
// signature test (test/client/client-signatures.test.ts) holds the generated ones to exactly these types.
import type { Client } from 'openapi-fetch';
import type { components, operations, paths } from '../../src/client/generated.js';
import { hmacSha256Hex, type BrokerSigning, type CallOptions } from '../../src/client/calls.js';

type S = components['schemas'];
type Query<K extends keyof operations> = NonNullable<operations[K]['parameters']['query']>;

function v3Before(api: Client<paths>) {
  return {
    /** 1. Exchange an authorization code (PKCE S256) or rotate a refresh token. No credential. */
    exchangeToken: (body: S['InstallerTokenRequest'], opts?: CallOptions) => api.POST('/api/v3/auth/token', { body, ...opts }),
    /** 2. One named connection (bearer or admin key). */
    getConnection: (project_id: string, connection_name: string, opts?: CallOptions) =>
      api.GET('/api/v3/projects/{project_id}/connections/{connection_name}', { params: { path: { project_id, connection_name } }, ...opts }),
    /** 3. Semantic diff of a release (bearer or admin key). */
    diffRelease: (project_id: string, release_id: string, query?: Query<'diffRelease'>, opts?: CallOptions) =>
      api.GET('/api/v3/projects/{project_id}/releases/{release_id}/diff', { params: { path: { project_id, release_id }, query }, ...opts }),
    /** 4. Cancel a run. */
    cancelRun: (project_id: string, run_id: string, body?: S['RunCancelRequestV3'], opts?: CallOptions) =>
      api.POST('/api/v3/projects/{project_id}/runs/{run_id}/cancel', { params: { path: { project_id, run_id } }, body, ...opts }),
    /** 5. Show a run. */
    getRun: (project_id: string, run_id: string, query?: Query<'getRun'>, opts?: CallOptions) =>
      api.GET('/api/v3/projects/{project_id}/runs/{run_id}', { params: { path: { project_id, run_id }, query }, ...opts }),
    /** 6. Retry a failed background run (201 and `Location`). */
    retryRun: (project_id: string, run_id: string, body?: S['RunRetryRequestV3'], opts?: CallOptions) =>
      api.POST('/api/v3/projects/{project_id}/runs/{run_id}/retry', { params: { path: { project_id, run_id } }, body, ...opts }),
    /** 7. Set the budget. */
    // The one change: the body is optional, as declared (an absent budget body reads as `{}`); every call compiles as before.
    setBudget: (project_id: string, body?: S['BudgetRequestV3'], opts?: CallOptions) =>
      api.PUT('/api/v3/projects/{project_id}/budget', { params: { path: { project_id } }, body, ...opts }),
    /** 8. One page of app users. */
    listUsers: (project_id: string, query?: Query<'listUsers'>, opts?: CallOptions) =>
      api.GET('/api/v3/projects/{project_id}/users', { params: { path: { project_id }, query }, ...opts }),
    /** 9. Plan a desired state (bundle or mutation) without storing anything. */
    planDesiredState: (project_id: string, body: S['DesiredStatePlanRequestV3'], opts?: CallOptions) =>
      api.POST('/api/v3/projects/{project_id}/desired-state/plan', { params: { path: { project_id } }, body, ...opts }),
    /** 10. One page of releases. */
    listReleases: (project_id: string, query?: Query<'listReleases'>, opts?: CallOptions) =>
      api.GET('/api/v3/projects/{project_id}/releases', { params: { path: { project_id }, query }, ...opts }),
    /** 11. Deny a pending approval. */
    denyApproval: (project_id: string, approval_id: string, body?: S['ApprovalDenyRequestV3'], query?: Query<'denyApproval'>, opts?: CallOptions) =>
      api.POST('/api/v3/projects/{project_id}/approvals/{approval_id}/deny', { params: { path: { project_id, approval_id }, query }, body, ...opts }),
    /** 12. Archive the project (`confirmation` = its slug). */
    deleteProject: (project_id: string, body: S['ProjectDeleteRequestV3'], opts?: CallOptions) =>
      api.DELETE('/api/v3/projects/{project_id}', { params: { path: { project_id } }, body, ...opts }),
    /** 13. Move an empty project to another workspace (bearer or admin key). */
    transferProject: (project_id: string, body: S['ProjectTransferRequestV3'], opts?: CallOptions) =>
      api.POST('/api/v3/projects/{project_id}/transfer', { params: { path: { project_id } }, body, ...opts }),
    /** 14. The scheduled jobs. */
    listJobs: (project_id: string, query?: Query<'listJobs'>, opts?: CallOptions) =>
      api.GET('/api/v3/projects/{project_id}/jobs', { params: { path: { project_id }, query }, ...opts }),
    /** 15. Approvals, redacted. */
    listApprovals: (project_id: string, query?: Query<'listApprovals'>, opts?: CallOptions) =>
      api.GET('/api/v3/projects/{project_id}/approvals', { params: { path: { project_id }, query }, ...opts }),
    /** 16. The messaging-channel webhook, verified by the binding's secret. */
    chatWebhook: (binding_id: string, update: S['ChatUpdate'], secret: string, opts?: CallOptions) =>
      api.POST('/api/v3/connections/{binding_id}/chatapp/webhook', {
        params: { path: { binding_id } },
        body: update,
        ...opts,
        headers: { 'X-Chatapp-Secret-Token': secret, ...opts?.headers },
      }),
    /** 17. One approval, redacted. */
    getApproval: (project_id: string, approval_id: string, query?: Query<'getApproval'>, opts?: CallOptions) =>
      api.GET('/api/v3/projects/{project_id}/approvals/{approval_id}', { params: { path: { project_id, approval_id }, query }, ...opts }),
    /** 18. One app user (bearer or admin key). */
    getUser: (project_id: string, user_id: string, opts?: CallOptions) =>
      api.GET('/api/v3/projects/{project_id}/users/{user_id}', { params: { path: { project_id, user_id } }, ...opts }),
    /**
     * 19. The broker's lifecycle callback. The body is sent as the exact text that was signed: a string is sent as
     * is, an object as its JSON.stringify text.
     */
    brokerWebhook: async (event: S['BrokerEvent'] | string, signing: BrokerSigning, opts?: CallOptions) => {
      const text = typeof event === 'string' ? event : JSON.stringify(event);
      const signature = 'secret' in signing ? await hmacSha256Hex(signing.secret, text) : signing.signature;
      return api.POST('/api/v3/webhooks/broker', {
        body: event as S['BrokerEvent'],
        bodySerializer: () => text,
        ...opts,
        headers: { 'Content-Type': 'application/json', 'X-Broker-Hmac-Sha256': signature, ...opts?.headers },
      });
    },
    /** 20. Delete an app user, their memory and traces (bearer or admin key). */
    deleteUser: (project_id: string, user_id: string, body: S['ApplicationUserDeleteRequestV3'], opts?: CallOptions) =>
      api.DELETE('/api/v3/projects/{project_id}/users/{user_id}', { params: { path: { project_id, user_id } }, body, ...opts }),
  };
}

export type V3Before = ReturnType<typeof v3Before>;
// Never called: the function is kept for the type its body infers, as the hand-written client's did.
void v3Before;
