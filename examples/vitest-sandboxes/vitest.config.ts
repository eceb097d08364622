// Recipe (vitest threads against one CLI server): global-setup.ts starts the server once for the run; setup.ts gives
// each test file, in whichever worker thread runs it, a sandbox of its own. test/sandboxes/sandbox-vitest-recipe.test.ts runs it.
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    pool: 'threads',
    maxWorkers: 4,
    globalSetup: ['./global-setup.ts'],
    setupFiles: ['./setup.ts'],
    include: ['*.test.ts'],
  },
});
