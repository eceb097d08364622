// The packages the package bundles (ESM and CommonJS) load from node_modules rather than carry: pg and swagger-ui-dist
// are found there at run time (the driver on first use, the UI's files served from its folder), and @mswjs/interceptors
// patches fetch and node:http once per process, so every copy of the mock must share the library's one instance; prom-client
// is loaded at a server's first scrape of /_mock/metrics, so a mock that is never scraped never reads it.
export const BUNDLE_EXTERNALS = ['pg', 'swagger-ui-dist', '@mswjs/interceptors', 'prom-client'];

/** The packages the host CLI (dist/cli.js) loads from node_modules: those above, koa's helpers aside (bundled, so the
 * MIME table inside them loads on first use), and the libraries it shares with the package's other files. */
export const CLI_EXTERNALS = ['valibot', 'nanoid', 'yaml', 'canonicalize', 'swagger-ui-dist', 'pg', 'prom-client'];
