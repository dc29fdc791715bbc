/**
 * The composition root: config → stores → models → graph → conversations → adapters.
 * Every outside system is reached through one module built here and passed down.
 */
import { type BotStateStore, openBotStateStore } from './adapters/shared/bot-state-store.ts';
import type { Config } from './config.ts';
import { createConversations } from './conversations/create-conversations.ts';
import type { Conversations, Ingestion } from './core/types.ts';
import { createIngestion } from './ingest/ingestion-service.ts';
import type { Logger } from './logger.ts';
import type { ChunkIndex, Embedder, Retriever } from './retrieval/chunk-index.ts';
import { createEmbedder } from './retrieval/create-embedder.ts';
import { createRetriever } from './retrieval/create-retriever.ts';
import { openChunkIndex } from './retrieval/open-chunk-index.ts';
import { openCheckpointer } from './stores/open-checkpointer.ts';
import { openDatabase, type PostgresDatabase } from './stores/postgres/open-database.ts';
import { sharedIndexWarning } from './stores/postgres/replica-notes.ts';
import { withIndexWriteLock } from './stores/postgres/session-locks.ts';

export interface Services {
  config: Config;
  logger: Logger;
  index: ChunkIndex;
  embedder: Embedder | undefined;
  retriever: Retriever;
  ingestion: Ingestion;
  conversations: Conversations;
  /** Feedback and handled-event keys of the chat adapters. */
  botState: BotStateStore;
  /** Shared state of the replicas (DATABASE_URL); undefined = one process on SQLite. */
  database: PostgresDatabase | undefined;
  close(): Promise<void>;
}

export async function createServices(config: Config, logger: Logger): Promise<Services> {
  const database = config.database
    ? await openDatabase({ ...config.database, replicaId: config.replicaId, logger })
    : undefined;
  try {
    return await composeServices(config, logger, database);
  } catch (error) {
    await database?.close();
    throw error;
  }
}

async function composeServices(
  config: Config,
  logger: Logger,
  database: PostgresDatabase | undefined,
): Promise<Services> {
  const warning = sharedIndexWarning(config);
  if (warning) logger.warn(warning);
  const embedder = createEmbedder(config);
  const index = await openChunkIndex(
    config,
    logger,
    database ? { withNameLock: (scope, name, work) => withIndexWriteLock(database, scope, name, work) } : {},
  );
  const retriever = createRetriever({ index, embedder });
  const ingestion = createIngestion({ config, logger, index, embedder });
  const checkpoints = openCheckpointer(database);
  const conversations = await createConversations({
    config,
    logger,
    retriever,
    ...(checkpoints ? { checkpoints } : {}),
  });
  const botState = openBotStateStore(config.dataDir);
  return {
    config,
    logger,
    index,
    embedder,
    retriever,
    ingestion,
    conversations,
    botState,
    database,
    close: async () => {
      await conversations.close();
      await index.close();
      botState.close();
      await database?.close();
    },
  };
}
