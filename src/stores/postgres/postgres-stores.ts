/**
 * Everything the composition root builds on PostgreSQL (DATABASE_URL), in one module that `main.ts`
 * imports only when a database is configured: `pg` and the Postgres checkpointer are heavy to load,
 * and a single process on SQLite never needs them.
 */
export { openDatabase } from './open-database.ts';
export { openPostgresCheckpointer } from './postgres-checkpointer.ts';
export { createPostgresClusterSlots } from './postgres-cluster-slots.ts';
export { createPostgresCoordinationStore } from './postgres-coordination-store.ts';
export { createPostgresReplicas } from './postgres-replicas.ts';
export { createPostgresTurnHistory } from './postgres-turn-history.ts';
export { createPostgresVerifiedAnswers } from './postgres-verified-answers.ts';
export { withIndexWriteLock, withIngestLock } from './session-locks.ts';
