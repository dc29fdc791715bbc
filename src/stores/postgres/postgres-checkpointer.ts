/**
 * LangGraph checkpoints in PostgreSQL (`@langchain/langgraph-checkpoint-postgres`), on the replica's
 * statement pool; its tables are created by `openDatabase` under the migration lock. Any replica can
 * resume any thread, e.g. a clarification asked on another one.
 *
 * Pruning keeps a thread's latest checkpoint, the blobs that checkpoint names in its channel
 * versions and its pending writes — nothing else — in one transaction.
 */
import type { BaseCheckpointSaver } from '@langchain/langgraph';
import { PostgresSaver } from '@langchain/langgraph-checkpoint-postgres';
import { toDatabaseError } from './database-errors.ts';
import { type PostgresDatabase, withDatabase } from './open-database.ts';

/**
 * LangGraph's saver, whose failures say what happened: a checkpoint that cannot be read or written
 * (the pool's connections all busy past their timeout, the server gone) is a database failure naming
 * the server, not an unexpected error.
 */
class ReportingPostgresSaver extends PostgresSaver {
  constructor(private readonly database: Pick<PostgresDatabase, 'pool' | 'url'>) {
    super(database.pool);
  }

  override async getTuple(...args: Parameters<PostgresSaver['getTuple']>) {
    return this.reporting('read a conversation checkpoint', () => super.getTuple(...args));
  }

  override async put(...args: Parameters<PostgresSaver['put']>) {
    return this.reporting('save a conversation checkpoint', () => super.put(...args));
  }

  override async putWrites(...args: Parameters<PostgresSaver['putWrites']>) {
    return this.reporting('save a conversation checkpoint', () => super.putWrites(...args));
  }

  private async reporting<Result>(what: string, work: () => Promise<Result>): Promise<Result> {
    try {
      return await work();
    } catch (error) {
      throw toDatabaseError(error, this.database.url, what);
    }
  }
}

export interface PostgresCheckpointer {
  saver: BaseCheckpointSaver;
  /** Deletes everything of the thread but its latest checkpoint (main namespace, like the SQLite pruner). */
  prune(threadId: string): Promise<void>;
  /** The database belongs to the caller: closing the checkpointer leaves it open. */
  close(): Promise<void>;
}

export function openPostgresCheckpointer(
  database: Pick<PostgresDatabase, 'pool' | 'url'>,
): PostgresCheckpointer {
  const saver = new ReportingPostgresSaver(database);
  const latest = `(SELECT checkpoint_id FROM checkpoints WHERE thread_id = $1 AND checkpoint_ns = $2
    ORDER BY checkpoint_id DESC LIMIT 1)`;
  return {
    saver,
    prune: (threadId) =>
      withDatabase(database, 'prune old checkpoints', async () => {
        const client = await database.pool.connect();
        try {
          await client.query('BEGIN');
          const parameters = [threadId, ''];
          await client.query(
            `DELETE FROM checkpoint_writes WHERE thread_id = $1 AND checkpoint_ns = $2 AND checkpoint_id <> ${latest}`,
            parameters,
          );
          await client.query(
            `DELETE FROM checkpoints WHERE thread_id = $1 AND checkpoint_ns = $2 AND checkpoint_id <> ${latest}`,
            parameters,
          );
          await client.query(
            `DELETE FROM checkpoint_blobs blob WHERE blob.thread_id = $1 AND blob.checkpoint_ns = $2
             AND NOT EXISTS (
               SELECT 1 FROM checkpoints kept, jsonb_each_text(kept.checkpoint -> 'channel_versions') version
               WHERE kept.thread_id = blob.thread_id AND kept.checkpoint_ns = blob.checkpoint_ns
                 AND version.key = blob.channel AND version.value = blob.version)`,
            parameters,
          );
          await client.query('COMMIT');
        } catch (error) {
          await client.query('ROLLBACK').catch(() => {});
          throw error;
        } finally {
          client.release();
        }
      }),
    close: async () => {},
  };
}
