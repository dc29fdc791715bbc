import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // dist/ built when a source is newer (the spawned `ragent` processes then skip tsx), then PostgreSQL.
    globalSetup: ['test/support/build-global-setup.ts', 'test/support/postgres-global-setup.ts'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: 'forks',
    maxWorkers: 2,
    // Files of one worker share its loaded modules (LangChain, Bolt, discord.js…): 174 s instead of
    // 301 s for the suite here. Tests therefore restore what they change (timers, environment, ports).
    isolate: false,
  },
});
