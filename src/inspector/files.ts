// The inspector page's files (GET /_mock/ui): its HTML shell and the bundle esbuild builds from src/inspector/page/ into
// dist/inspector/ at build time. The bundle is read from disk on the first request for it.
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { INSPECTOR_PATH } from './path.js';

/** The built files the page loads, with their media types. */
export const INSPECTOR_ASSETS: Readonly<Record<string, string>> = {
  'page.js': 'text/javascript; charset=utf-8',
  'page.css': 'text/css; charset=utf-8',
  /** The chart library, loaded by the page only when the Timeline first shows. */
  'uplot.js': 'text/javascript; charset=utf-8',
};

/**
 * Served with the page and its files. The page only talks to its own origin (no CDN, no third party), cannot be framed
 * (its buttons reset state: no clickjacking), and sends no Referer.
 */
export const INSPECTOR_HEADERS: Readonly<Record<string, string>> = {
  'Content-Security-Policy':
    "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self' data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
  'X-Frame-Options': 'DENY',
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
  'Cache-Control': 'no-cache',
};

/** The shell holds no state and no secret: everything it shows comes from the /_mock routes, token and all. */
export const INSPECTOR_HTML = `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8">
    <meta name="viewport" content="width=device-width, initial-scale=1">
    <title>project-runtime-mock inspector</title>
    <link rel="icon" href="data:,">
    <link rel="stylesheet" href="${INSPECTOR_PATH}/page.css">
    <script type="module" src="${INSPECTOR_PATH}/page.js"></script>
  </head>
  <body>
    <div id="app"><noscript>The inspector needs JavaScript.</noscript></div>
  </body>
</html>
`;

/** Where the built files are: next to this module in dist/, beside the bundled CLI (dist/cli.js), or in dist/ when run from src/. */
const CANDIDATES = ['./', './inspector/', '../../dist/inspector/'].map((rel) => fileURLToPath(new URL(rel, import.meta.url)));
let dirCache: string | null | undefined;
const builtDir = () => (dirCache ??= CANDIDATES.find((d) => existsSync(`${d}page.js`)) ?? null);

const cache = new Map<string, Buffer>();

/** A built file of the page, or undefined when the name is not one of them or the page was not built (`npm run build`). */
export async function inspectorAsset(name: string): Promise<Buffer | undefined> {
  if (!Object.hasOwn(INSPECTOR_ASSETS, name)) return undefined;
  let data = cache.get(name);
  if (!data) {
    const dir = builtDir();
    if (!dir) return undefined;
    data = await readFile(`${dir}${name}`);
    cache.set(name, data);
  }
  return data;
}
