// The baseline: bare Koa + @koa/router + koa-body serving a fixed JSON document on the mock's run routes.
// Plain JavaScript run by plain node (like dist/cli.js), so no TypeScript loader sits in the measured start time.
// Usage: node bench/servers/bare-koa.mjs [json-file]   (prints "listening on http://127.0.0.1:PORT")
import { createServer } from 'node:http';
import { readFileSync } from 'node:fs';
import Koa from 'koa';
import Router from '@koa/router';
import { koaBody } from 'koa-body';

const doc = process.argv[2] ? JSON.parse(readFileSync(process.argv[2], 'utf8')) : { ok: true };
const app = new Koa();
const router = new Router();
router.get('/api/v3/projects/:project_id/runs/:run_id', (ctx) => {
  ctx.body = doc;
});
router.post('/api/v3/projects/:project_id/runs/:run_id/cancel', koaBody({ jsonLimit: 1024 * 1024 }), (ctx) => {
  if (typeof ctx.request.body !== 'object') ctx.throw(422);
  ctx.body = doc;
});
app.use(router.routes());
const server = createServer(app.callback());
server.listen(0, '127.0.0.1', () => process.stdout.write(`listening on http://127.0.0.1:${server.address().port}\n`));
