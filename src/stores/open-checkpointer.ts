/**
 * Where conversation checkpoints live: PostgreSQL when DATABASE_URL is set (shared by the replicas),
 * else undefined — the conversations module then keeps today's `<dataDir>/checkpoints.sqlite`.
 */
import type { PostgresDatabase } from './postgres/open-database.ts';
import { openPostgresCheckpointer, type PostgresCheckpointer } from './postgres/postgres-checkpointer.ts';

export function openCheckpointer(database: PostgresDatabase | undefined): PostgresCheckpointer | undefined {
  return database ? openPostgresCheckpointer(database) : undefined;
}
