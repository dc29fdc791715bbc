/**
 * The composition root: config → stores → models → graph → conversations → turn runner. Every
 * outside system is reached through one module built here and passed down; entry points (the chat
 * platforms started by `adapters/cli/start-bot.ts`, the CLI commands) get the `Services`.
 */
import type { Config } from './config.ts';
import { createConversations } from './conversations/create-conversations.ts';
import type { Services } from './core/services.ts';
import { createIngestion } from './ingest/ingestion-service.ts';
import { parseFetchAllowList } from './ingest/web/address-guard.ts';
import { createFetcher } from './ingest/web/fetch-url.ts';
import { createWebIngestion } from './ingest/web/web-ingestion.ts';
import type { Logger } from './logger.ts';
import { createEmbedder } from './models/create-models.ts';
import type { ChunkIndex, Embedder, Retriever } from './retrieval/chunk-index.ts';
import { createRetriever } from './retrieval/create-retriever.ts';
import { openChunkIndex } from './retrieval/open-chunk-index.ts';
import { openCheckpointer } from './stores/open-checkpointer.ts';
import { openDatabase, type PostgresDatabase } from './stores/postgres/open-database.ts';
import { createPostgresClusterSlots } from './stores/postgres/postgres-cluster-slots.ts';
import { createPostgresCoordinationStore } from './stores/postgres/postgres-coordination-store.ts';
import { createPostgresReplicas } from './stores/postgres/postgres-replicas.ts';
import { sharedIndexWarning } from './stores/postgres/replica-notes.ts';
import { withIndexWriteLock, withIngestLock } from './stores/postgres/session-locks.ts';
import { singleProcessReplicas } from './stores/single-process-replicas.ts';
import { openSqliteCoordinationStore } from './stores/sqlite-coordination-store.ts';
import { createTurnRunner } from './turns/turn-runner.ts';

/** The services plus what only the CLI's own commands reach (search, eval): the index and retriever. */
export interface AppServices extends Services {
  index: ChunkIndex;
  embedder: Embedder | undefined;
  retriever: Retriever;
  /** Shared state of the replicas (DATABASE_URL); undefined = one process on SQLite. */
  database: PostgresDatabase | undefined;
}

export async function createServices(config: Config, logger: Logger): Promise<AppServices> {
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
): Promise<AppServices> {
  const warning = sharedIndexWarning(config);
  if (warning) logger.warn(warning);
  const embedder = createEmbedder(config);
  const index = await openChunkIndex(
    config,
    logger,
    database ? { withNameLock: (scope, name, work) => withIndexWriteLock(database, scope, name, work) } : {},
  );
  const retriever = createRetriever({ index, embedder });
  const ingestion = createIngestion({
    config,
    logger,
    index,
    embedder,
    ...(database ? { withNameLock: (scope, name, work) => withIngestLock(database, scope, name, work) } : {}),
  });
  const web = createWebIngestion({
    ingestion,
    fetch: createFetcher({
      timeoutMs: config.fetch.timeoutMs,
      maxBytes: config.fetch.maxBytes,
      allow: parseFetchAllowList(config.fetch.allow),
    }),
    logger: logger.child({ component: 'web' }),
    crawlConcurrency: config.fetch.crawlConcurrency,
  });
  const checkpoints = openCheckpointer(database);
  // RAGENT_LLM_CLUSTER_CONCURRENCY: model calls of all replicas together, on top of each one's own limit.
  const slots = config.limits.llmClusterConcurrency;
  const clusterSlots =
    database && slots ? createPostgresClusterSlots(database, { slots, logger }) : undefined;
  const conversations = await createConversations({
    config,
    logger,
    retriever,
    ...(checkpoints ? { checkpoints } : {}),
    ...(clusterSlots ? { clusterSlots } : {}),
  });
  // Event claims, turns in flight and feedback: shared by the replicas in Postgres, else bot.sqlite.
  const coordination = database
    ? createPostgresCoordinationStore(database)
    : openSqliteCoordinationStore(config.dataDir);
  // Platform rate budgets are shared out among the live replicas; Discord shards are leased.
  const replicas = database
    ? await createPostgresReplicas(database, logger.child({ component: 'replicas' }))
    : singleProcessReplicas();
  const turns = createTurnRunner({
    store: coordination,
    conversations,
    ingestion,
    logger: logger.child({ component: 'turns' }),
    answerTimeoutMs: config.limits.answerTimeoutMs,
    budgetShare: replicas.budgetShare,
    // Replicas: a crashed replica's threads are told (and its queued turns answered) within a second.
    ...(database ? { sweepIntervalMs: replicaSweepIntervalMs } : {}),
  });
  return {
    config,
    logger,
    index,
    embedder,
    retriever,
    ingestion,
    web,
    conversations,
    coordination,
    database,
    turns,
    replicas,
    close: async () => {
      try {
        // A turn a stop gave up on may still hold the conversations; their checkpoints close once it
        // ends. Do not wait for it longer than a moment.
        await settledWithin(conversations.close(), conversationsCloseWaitMs);
        await index.close();
      } finally {
        // Last: jobs still finishing may end their records until here.
        await replicas.close();
        await coordination.close();
        await database?.close();
      }
    },
  };
}

const conversationsCloseWaitMs = 2_000;
/** How often a replica looks for turns of dead replicas. */
const replicaSweepIntervalMs = 250;

async function settledWithin(work: Promise<unknown>, timeoutMs: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([work, new Promise((resolve) => (timer = setTimeout(resolve, timeoutMs)))]);
  clearTimeout(timer);
}
