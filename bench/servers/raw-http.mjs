// The limit on this stack: raw node:http answering every request with the same bytes (the run-detail JSON) and headers
// the mock sends, with no framework, routing, auth or state. Plain JavaScript run by plain node.
// Usage: node bench/servers/raw-http.mjs json-file   (prints "listening on http://127.0.0.1:PORT")
import { createServer } from 'node:http';
import { readFileSync } from 'node:fs';

const body = readFileSync(process.argv[2]);
const headers = { 'Content-Type': 'application/json; charset=utf-8', 'Content-Length': String(body.length) };
const server = createServer((req, res) => {
  // Read (and drop) any request body, as a server must before it answers on a kept-alive connection.
  req.resume();
  res.writeHead(200, headers);
  res.end(body);
});
server.listen(0, '127.0.0.1', () => process.stdout.write(`listening on http://127.0.0.1:${server.address().port}\n`));
