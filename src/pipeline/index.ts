// The face of src/pipeline/: what code outside the folder imports from it (nothing reaches past this file).
export { bodyReader, Reply, endpoint, type ReadBody, type EndpointSpec, type Request, type Call, type EndpointMiddleware } from './endpoint.js';
export { addressed, address, type AddressedMock } from './addressed.js';
export { ProjectPath, RunPath, ApprovalPath, ConnectionPath, ReleasePath, UserPath } from './path-params.js';
export { Router } from './route-list.js';
export { cachedJson, JsonText } from './json-text.js';
export { pathPrefixOf, markPathPrefix } from './path-prefix.js';
