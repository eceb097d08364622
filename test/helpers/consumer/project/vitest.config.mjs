// The vitest recipe runs in worker threads (vitest's `threads` pool), each test file in its own worker.
import { defineConfig } from 'vitest/config';

export default defineConfig({ test: { pool: 'threads', include: ['vitest.test.ts'] } });
