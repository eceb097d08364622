// Ids and credentials of the bundled demo fixture, named for what they are.
export const DEMO = {
  workspaces: {
    acmeSupport: 'f9157be9-d9bf-406e-8a0f-ca9b45f98ec6',
    acmeLabs: 'aecce347-f8e9-4c70-ba06-b8d321998c62',
    globex: '9638b5a8-0d27-48fe-a571-3f5369fc9208',
  },
  principals: {
    owner: 'e0aa8a15-a6c9-481a-839d-7ec4ece39df4',
    operator: '6fbb1e37-7a82-47fb-aeef-6ddd7d4a3eb1',
    viewer: '19110327-cf0e-4fe5-a59d-a336560f4bac',
    globex: '87187207-d8ad-4c34-acd4-98d07a7ea753',
  },
  projects: {
    support: 'fe1868ee-d60e-4ce6-8db0-f4a764225229',
    sales: '2c74a63e-c054-4dc3-bbea-76c42e6c58b4',
    sandbox: 'f4b4c1c0-3c34-4e25-9f71-30f0446fc0b3',
    legacy: '7f7cdbfb-617d-4362-8b16-ad4d35ccf76e',
    globex: '9a50d602-3b5e-4254-97d4-e1fae3e3abe9',
  },
  releases: {
    gen1: '66635303-021d-4e7e-b247-48ce39d8cb62',
    gen2: 'e90705c2-0483-4f9d-8970-a5c4bf3dccb6',
    gen3Live: '199dcda0-417c-4f35-b28a-258fb5fbe61c',
    gen4Candidate: '5ad1f21b-b7b4-4df2-a278-5ced302b2be6',
    sales: 'ec97d89a-d881-414b-883c-f40e5cf21a14',
  },
  runs: {
    waitingApproval: '391206e3-21b8-4eae-b109-2fe71e9c7b14',
    failedBackground: '59cfeed3-439a-4dab-a2ba-fa30f52df113',
    failedBackground2: '45357b54-8b34-4d77-a004-52301642c077',
    failedApi: 'a7072153-3dfa-470d-aaf0-be9f68012cd1',
  },
  approvals: {
    pendingWaiting: 'apr_r3fund49',
    pendingOther: 'apr_inv0c0py',
    pendingPastExpiry: 'apr_st4le0ld',
    approvedTest: 'apr_t3stok42',
    denied: 'apr_d3n1edrf',
    expired: 'apr_exp1r3d0',
    cancelled: 'apr_c4nc3l3d',
  },
  connections: {
    chatBinding: 'e96b28d7-1310-499b-952e-bd5c21e77d85',
    crm: 'c32b2522-1fb5-4c08-8a63-db4227b43658',
    billing: '09604b72-24d7-43f3-b6e6-16ed0133dfeb',
  },
  tokens: {
    owner: 'demo-owner-token',
    operator: 'demo-operator-token',
    viewer: 'demo-viewer-token',
    readonlyOwner: 'demo-readonly-owner-token',
    globex: 'demo-globex-token',
    expired: 'demo-expired-token',
  },
  adminKey: 'demo-admin-key',
  brokerSecret: 'demo-broker-secret',
  chatSecret: 'demo-chat-webhook-secret',
  authorizationCode: 'demo-install-code',
  pkceVerifier: 'demo-verifier-0123456789-abcdefghijklmnopqrstuvwxyz',
  now: '2026-11-20T12:00:00.000Z',
} as const;

export const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });
