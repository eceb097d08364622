// The pg driver, loaded when a PostgreSQL adapter is first made rather than with the package: a suite on memory or a
// JSON file never pays for loading it. pg is CommonJS, so it loads synchronously, inside the adapter's constructor.
import { createRequire } from 'node:module';
import type pg from 'pg';

let driver: typeof pg | undefined;
export const pgDriver = (): typeof pg => (driver ??= createRequire(import.meta.url)('pg') as typeof pg);
