// The mock in memory mode, started with the state of a data file (the CLI's --memory takes only fixtures): prints "listening on URL".
// Usage: node bench/servers/memory-on-data.mjs <data-file>
import { createServer } from 'node:http';
import { createApp } from '../../dist/app.js';
import { JsonFileAdapter, MemoryAdapter } from '../../dist/storage/adapters.js';

const storage = new MemoryAdapter();
await storage.write(await new JsonFileAdapter(process.argv[2], { report: {} }).read());
const mock = await createApp({ storage });
const server = createServer(mock.callback());
server.keepAliveTimeout = 5_000;
server.listen(0, '127.0.0.1', () => process.stdout.write(`listening on http://127.0.0.1:${server.address().port}\n`));
