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
import { createEmbedder } from './models/create-models.ts';
import type { ChunkIndex, Embedder, Retriever } from './retrieval/chunk-index.ts';
import { createRetriever } from './retrieval/create-retriever.ts';
import { openChunkIndex } from './retrieval/open-chunk-index.ts';

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
  close(): Promise<void>;
}

export async function createServices(config: Config, logger: Logger): Promise<Services> {
  const embedder = createEmbedder(config);
  const index = await openChunkIndex(config, logger);
  const retriever = createRetriever({ index, embedder });
  const ingestion = createIngestion({ config, logger, index, embedder });
  const conversations = await createConversations({ config, logger, retriever });
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
    close: async () => {
      await conversations.close();
      await index.close();
      botState.close();
    },
  };
}
