/**
 * Vitest global setup: one throwaway PostgreSQL for the whole run (each test file makes its own
 * database with `createTestDatabase()`), stopped and removed when the run ends.
 */
import type { TestProject } from 'vitest/node';
import { startPostgresServer } from './postgres-server.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    postgresUrl: string;
  }
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const server = await startPostgresServer();
  project.provide('postgresUrl', server.url);
  return () => server.stop();
}
