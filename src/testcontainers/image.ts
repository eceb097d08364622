// The name the container image is built under (scripts/container-image.ts) and started from (RuntimeMockContainer).
import { readFileSync } from 'node:fs';

const VERSION = (JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }).version;

/** The image of this package's version, as the build script tags it: `localhost/project-runtime-mock:<version>`. */
export const RUNTIME_MOCK_IMAGE = `localhost/project-runtime-mock:${VERSION}`;
/** The port the server listens on inside the container. */
export const RUNTIME_MOCK_PORT = 4010;
