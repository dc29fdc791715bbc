/**
 * The composition root: config → stores → models → graph → conversations → turn runner. Every
 * outside system is reached through one module built here and passed down; entry points (the chat
 * platforms started by `adapters/cli/start-bot.ts`, the CLI commands) get the `Services`.
 */
import type { Config } from './config.ts';
import { deferConversations } from './conversations/deferred-conversations.ts';
import type { Services } from './core/services.ts';
import type { Conversations } from './core/types.ts';
import { createIngestion } from './ingest/ingestion-service.ts';
import { parseFetchAllowList } from './ingest/web/address-guard.ts';
import { createFetcher } from './ingest/web/fetch-url.ts';
import { createWebIngestion } from './ingest/web/web-ingestion.ts';
import type { Logger } from './logger.ts';
import { createEmbedder } from './models/create-embedder.ts';
import { startThreadFilesSweep } from './operators/thread-files-retention.ts';
import { withRetention } from './operators/turn-retention.ts';
import type { ChunkIndex, Embedder, Retriever } from './retrieval/chunk-index.ts';
import { createRetriever } from './retrieval/create-retriever.ts';
import { openChunkIndex } from './retrieval/open-chunk-index.ts';
import { createVerifiedAnswerMatcher } from './retrieval/verified-answer-matcher.ts';
import type { PostgresDatabase } from './stores/postgres/open-database.ts';
import { sharedIndexWarning } from './stores/postgres/replica-notes.ts';
import { singleProcessReplicas } from './stores/single-process-replicas.ts';
import { openSqliteCoordinationStore } from './stores/sqlite-coordination-store.ts';
import { openSqliteTurnHistory } from './stores/sqlite-turn-history.ts';
import { openSqliteVerifiedAnswers } from './stores/sqlite-verified-answers.ts';
import { createTurnRunner } from './turns/turn-runner.ts';

/** The services plus what only the CLI's own commands reach (search, eval): the index and retriever. */
export interface AppServices extends Services {
  index: ChunkIndex;
  embedder: Embedder | undefined;
  retriever: Retriever;
  /** Shared state of the replicas (DATABASE_URL); undefined = one process on SQLite. */
  database: PostgresDatabase | undefined;
}

export interface ServicesOptions {
  /**
   * Build the conversations (LangGraph, the chat model) on their first turn instead of now: for CLI
   * commands, most of which never answer. `ragent start` builds them now, so a failure shows at start.
   */
  conversationsOnFirstUse?: boolean;
}

/** With DATABASE_URL: the PostgreSQL stores' module (imported only then) and the open database. */
interface SharedState {
  postgres: typeof import('./stores/postgres/postgres-stores.ts');
  database: PostgresDatabase;
}

export async function createServices(
  config: Config,
  logger: Logger,
  options: ServicesOptions = {},
): Promise<AppServices> {
  const shared = config.database ? await openSharedState(config.database, config, logger) : undefined;
  try {
    return await composeServices(config, logger, options, shared);
  } catch (error) {
    await shared?.database.close();
    throw error;
  }
}

async function openSharedState(
  connection: NonNullable<Config['database']>,
  config: Config,
  logger: Logger,
): Promise<SharedState> {
  const postgres = await import('./stores/postgres/postgres-stores.ts');
  const database = await postgres.openDatabase({ ...connection, replicaId: config.replicaId, logger });
  return { postgres, database };
}

async function composeServices(
  config: Config,
  logger: Logger,
  options: ServicesOptions,
  shared: SharedState | undefined,
): Promise<AppServices> {
  const database = shared?.database;
  const warning = sharedIndexWarning(config);
  if (warning) logger.warn(warning);
  const embedder = createEmbedder(config);
  const index = await openChunkIndex(
    config,
    logger,
    shared
      ? {
          withNameLock: (scope, name, work) =>
            shared.postgres.withIndexWriteLock(shared.database, scope, name, work),
        }
      : {},
  );
  const retriever = createRetriever({ index, embedder });
  const ingestion = createIngestion({
    config,
    logger,
    index,
    embedder,
    ...(shared
      ? {
          withNameLock: (scope, name, work) =>
            shared.postgres.withIngestLock(shared.database, scope, name, work),
        }
      : {}),
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
  // Checkpoints in Postgres for replicas; otherwise the conversations keep <dataDir>/checkpoints.sqlite.
  const checkpoints = shared?.postgres.openPostgresCheckpointer(shared.database);
  // RAGENT_LLM_CLUSTER_CONCURRENCY: model calls of all replicas together, on top of each one's own limit.
  const slots = config.limits.llmClusterConcurrency;
  const clusterSlots =
    shared && slots
      ? shared.postgres.createPostgresClusterSlots(shared.database, { slots, logger })
      : undefined;
  // Verified answers per scope, served without the model to a question that means the same.
  const verifiedAnswers = shared
    ? shared.postgres.createPostgresVerifiedAnswers(shared.database)
    : openSqliteVerifiedAnswers(config.dataDir);
  const createAnswering = async (): Promise<Conversations> => {
    const { createConversations } = await import('./conversations/create-conversations.ts');
    return createConversations({
      config,
      logger,
      retriever,
      verifiedAnswers: createVerifiedAnswerMatcher({
        answers: verifiedAnswers,
        ...(embedder ? { embedder } : {}),
      }),
      ...(checkpoints ? { checkpoints } : {}),
      ...(clusterSlots ? { clusterSlots } : {}),
    });
  };
  const conversations = options.conversationsOnFirstUse
    ? deferConversations(createAnswering)
    : await createAnswering();
  // Event claims, turns in flight and feedback: shared by the replicas in Postgres, else bot.sqlite.
  const coordination = shared
    ? shared.postgres.createPostgresCoordinationStore(shared.database)
    : openSqliteCoordinationStore(config.dataDir);
  // Every turn with its outcome (`ragent report`), beside the coordination store.
  const turnHistory = withRetention(
    shared
      ? shared.postgres.createPostgresTurnHistory(shared.database)
      : openSqliteTurnHistory(config.dataDir),
    { retentionDays: config.retentionDays, logger },
  );
  // Platform rate budgets are shared out among the live replicas; Discord shards are leased.
  const replicas = shared
    ? await shared.postgres.createPostgresReplicas(shared.database, logger.child({ component: 'replicas' }))
    : singleProcessReplicas();
  // A bot (conversations built at start; not a one-off CLI command) drops thread files past their days.
  const threadFilesSweep = options.conversationsOnFirstUse
    ? undefined
    : startThreadFilesSweep({
        index,
        days: config.threadFilesDays,
        logger: logger.child({ component: 'thread-files' }),
        ...(shared
          ? {
              withNameLock: (scope, name, work) =>
                shared.postgres.withIngestLock(shared.database, scope, name, work),
            }
          : {}),
      });
  const turns = createTurnRunner({
    store: coordination,
    turnHistory,
    conversations,
    ingestion,
    logger: logger.child({ component: 'turns' }),
    answerTimeoutMs: config.limits.answerTimeoutMs,
    followUps: config.followUps,
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
    turnHistory,
    verifiedAnswers,
    database,
    turns,
    replicas,
    close: async () => {
      try {
        // A turn a stop gave up on may still hold the conversations; their checkpoints close once it
        // ends. Do not wait for it longer than a moment.
        await settledWithin(conversations.close(), conversationsCloseWaitMs);
        await threadFilesSweep?.close();
        await index.close();
      } finally {
        // Last: jobs still finishing may end their records until here.
        await replicas.close();
        await turnHistory.close();
        await verifiedAnswers.close();
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
