// Sandboxes: isolated mocks one server serves besides its default one, addressed by path prefix, header or *.localhost.
export { createSandboxes, SANDBOX_TTL_MS, MAX_SANDBOXES, type Sandboxes } from './directory.js';
export { SANDBOX_HEADER, addressOf, hostMayName, pathAddresses, type Addressed, type RememberedAddress } from './address.js';
export type { Served } from './request-router.js';
export type { LocalSandboxes } from './kinds.js';
