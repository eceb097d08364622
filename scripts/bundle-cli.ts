// Build step: the host command line, dist/cli.js, split as the package bundle is (dist/cli-<name>-<hash>.js chunks load
// at first use), with koa and its helpers inside and mime-types deferred (scripts/lazy-mime.ts), so a server's start
// reads neither the MIME table nor prom-client: the table at the first response that needs it, prom-client at the
// first scrape of /_mock/metrics. The libraries the CLI shares with the package stay in node_modules.
import { fileURLToPath } from 'node:url';
import { CLI_EXTERNALS } from './bundle-externals.js';
import { splitEsm } from './bundle-chunks.js';

const root = (p: string) => fileURLToPath(new URL(`../${p}`, import.meta.url));

await splitEsm(root('src/cli.ts'), root('dist'), 'cli', CLI_EXTERNALS);
