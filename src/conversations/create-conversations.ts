/**
 * The one entry point every adapter uses: `handle()` starts a turn or resumes the thread's pending
 * clarification. It owns the queue per thread, the shared fair LLM limit, the answer deadline and the
 * SQLite checkpoints (setup and pruning); the answer graph itself is compiled once, in `answer-graph.ts`.
 */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { BaseCheckpointSaver } from '@langchain/langgraph';
import { SqliteSaver } from '@langchain/langgraph-checkpoint-sqlite';
import type { Config } from '../config.ts';
import type { ClusterSlots } from '../core/replicas.ts';
import type {
  Conversations,
  ProgressEvent,
  ProgressListener,
  TurnOptions,
  TurnRequest,
  TurnResult,
} from '../core/types.ts';
import { errorMessages } from '../error-messages-en.ts';
import { describeError, RagentError } from '../errors.ts';
import {
  type AnswerGraphOptions,
  createAnswerGraph,
  type HistoryWindow,
  type RetryPolicy,
} from '../graph/answer-graph.ts';
import type { Logger } from '../logger.ts';
import type { Retriever } from '../retrieval/chunk-index.ts';
import type { VerifiedAnswerMatcher } from '../retrieval/verified-answer-matcher.ts';
import { createFairLimiter } from './fair-limiter.ts';
import { createCheckpointPruner } from './prune-checkpoints.ts';
import { createThreadReader } from './read-thread-context.ts';
import { createThreadQueue } from './thread-queue.ts';
import { rememberVerified, verifiedReply } from './verified-answer-reply.ts';

export interface ConversationsDependencies {
  config: Config;
  logger: Logger;
  retriever: Retriever;
  /** Retries of failed Ollama calls (default: 3 attempts, 500 ms doubling backoff). */
  retry?: RetryPolicy;
  /** How much chat history stays verbatim before it is folded into the summary. */
  history?: HistoryWindow;
  /** Checkpoint database (default `<dataDir>/checkpoints.sqlite`). */
  checkpointPath?: string;
  /** Checkpoints elsewhere (Postgres for replicas, see src/stores/postgres/postgres-checkpointer.ts) instead of SQLite. */
  checkpoints?: CheckpointStore;
  /** Model-call slots shared by all replicas (RAGENT_LLM_CLUSTER_CONCURRENCY), taken after this replica's own. */
  clusterSlots?: ClusterSlots;
  /** Verified answers, served to a question that means the same without the model; unset: none. */
  verifiedAnswers?: VerifiedAnswerMatcher;
}

/** A checkpoint saver with its pruning (keep a thread's latest checkpoint only) and its closing. */
export interface CheckpointStore {
  saver: BaseCheckpointSaver;
  prune(threadId: string): Promise<void>;
  close(): Promise<void>;
}

/** Longer messages get a reply asking for a shorter one (about 2,000 tokens: room for the search). */
export const maxMessageLength = 8_000;

export async function createConversations(dependencies: ConversationsDependencies): Promise<Conversations> {
  const { config, logger, retriever } = dependencies;
  const {
    saver: checkpointer,
    prune,
    close: closeCheckpoints,
  } = dependencies.checkpoints ?? openSqliteCheckpoints(dependencies);
  const graphOptions: AnswerGraphOptions = { config, logger, retriever, checkpointer };
  if (dependencies.retry) graphOptions.retry = dependencies.retry;
  if (dependencies.history) graphOptions.history = dependencies.history;
  const graph = createAnswerGraph(graphOptions);
  const limiter = createFairLimiter(config.limits.llmConcurrency);
  const queue = createThreadQueue();
  const readThread = createThreadReader({ ...config.threadContext, logger });
  let closing = false;
  let closed: Promise<void> | undefined;

  const runTurn = async (
    request: TurnRequest,
    emit: (event: ProgressEvent) => void,
    options: TurnOptions,
  ): Promise<TurnResult> => {
    const started = performance.now();
    const { verifiedAnswers } = dependencies;
    const verified = verifiedAnswers
      ? await verifiedReply(
          { matcher: verifiedAnswers, awaitsClarification: (id) => graph.awaitsClarification(id), logger },
          request,
        )
      : undefined;
    if (verified) {
      await rememberVerified(graph, request, verified, logger);
      emit({ type: 'done' });
      return verified;
    }
    // Joining a thread: what was said before the bot was asked (only where it has no conversation yet).
    const thread =
      options.readThread && !(await graph.hasThread(request.threadId))
        ? await readThread(options.readThread, { threadId: request.threadId })
        : undefined;
    const deadline = new AbortController();
    const timer = setTimeout(
      () => deadline.abort(answerTimeout(config.limits.answerTimeoutMs)),
      config.limits.answerTimeoutMs,
    );
    try {
      const { result, usage } = await graph.run({
        threadId: request.threadId,
        scopes: request.scopes,
        text: request.text,
        ...(thread ? { thread } : {}),
        signal: deadline.signal,
        acquire: async (signal) => {
          const onWait = () => emit({ type: 'queued', reason: 'llm-busy' });
          const release = await limiter.acquire(request.threadId, { ...(signal ? { signal } : {}), onWait });
          const { clusterSlots } = dependencies;
          if (!clusterSlots) return release;
          // This replica's turn came (fairly among its threads): now a slot of the whole cluster.
          try {
            const releaseSlot = await clusterSlots.acquire({ ...(signal ? { signal } : {}), onWait });
            return () => {
              releaseSlot();
              release();
            };
          } catch (error) {
            release();
            throw error;
          }
        },
        onProgress: emit,
        ...(options.onModelCall ? { onModelCall: options.onModelCall } : {}),
        ...(options.onText ? { onText: options.onText } : {}),
      });
      emit({ type: 'done' });
      logger.info(
        {
          threadId: request.threadId,
          user: request.user,
          result: result.kind,
          milliseconds: Math.round(performance.now() - started),
          ...usage,
        },
        'turn finished',
      );
      return result;
    } catch (error) {
      const failure = error instanceof RagentError ? error : new RagentError('INTERNAL', String(error));
      const fields = { threadId: request.threadId, code: failure.code, error: describeError(error) };
      // Operational failures (Ollama down, timeouts) are warnings; anything unexpected is an error with its cause.
      if (failure.code === 'INTERNAL')
        logger.error({ ...fields, cause: failure.cause ?? error }, 'turn failed');
      else logger.warn(fields, 'turn failed');
      throw failure;
    } finally {
      clearTimeout(timer);
      try {
        await prune(request.threadId);
      } catch (error) {
        logger.warn(
          { threadId: request.threadId, error: describeError(error) },
          'pruning old checkpoints failed',
        );
      }
    }
  };

  return {
    handle(
      request: TurnRequest,
      onProgress?: ProgressListener,
      options: TurnOptions = {},
    ): Promise<TurnResult> {
      const emit = (event: ProgressEvent) => {
        try {
          onProgress?.(event);
        } catch (error) {
          logger.warn({ error: describeError(error) }, 'progress listener failed');
        }
      };
      if (closing) {
        return Promise.reject(new RagentError('SHUTTING_DOWN', errorMessages.SHUTTING_DOWN()));
      }
      const invalid = validate(request);
      if (invalid) return Promise.reject(invalid);
      const reply = replyWithoutAnswering(request.text);
      if (reply) {
        emit({ type: 'done' });
        return Promise.resolve(reply);
      }
      return queue.run(
        request.threadId,
        () => runTurn(request, emit, options),
        (position) => emit({ type: 'queued', reason: 'thread-busy', position }),
      );
    },
    hasThread: (threadId) => graph.hasThread(threadId),
    forgetThread(threadId) {
      // SqliteSaver.deleteThread fails on a database where nothing was written yet: check first.
      return queue.run(threadId, async () => {
        if (await graph.hasThread(threadId)) await graph.forget(threadId);
      });
    },
    close() {
      closing = true;
      closed ??= queue.idle().then(closeCheckpoints);
      return closed;
    },
  };
}

/** Messages the graph should not see: a short reply says what to send instead (never an error). */
export function replyWithoutAnswering(text: string): TurnResult | undefined {
  if (text.trim() === '') {
    return {
      kind: 'stopped',
      message:
        'Your message has no question in it. Ask me something about your documents, for example "How do I declare an array?"',
    };
  }
  if (text.length > maxMessageLength) {
    return {
      kind: 'stopped',
      message: `Your message is ${text.length.toLocaleString('en-US')} characters long; I can take at most ${maxMessageLength.toLocaleString('en-US')}. Please send just your question, with the part of the text it is about.`,
    };
  }
  return undefined;
}

function validate(request: TurnRequest): RagentError | undefined {
  if (typeof request.threadId !== 'string' || request.threadId.trim() === '') {
    return new RagentError('INVALID_INPUT', errorMessages.INVALID_INPUT.conversationThreadMissing());
  }
  if (!Array.isArray(request.scopes) || request.scopes.length === 0) {
    return new RagentError('INVALID_INPUT', errorMessages.INVALID_INPUT.conversationScopesMissing());
  }
  if (typeof request.text !== 'string') {
    return new RagentError('INVALID_INPUT', errorMessages.INVALID_INPUT.conversationTextMissing());
  }
  return undefined;
}

function answerTimeout(milliseconds: number): RagentError {
  return new RagentError(
    'ANSWER_TIMEOUT',
    errorMessages.ANSWER_TIMEOUT.answer({ seconds: Math.round(milliseconds / 1000) }),
  );
}

function openSqliteCheckpoints(dependencies: ConversationsDependencies): CheckpointStore {
  const file = dependencies.checkpointPath ?? path.join(dependencies.config.dataDir, 'checkpoints.sqlite');
  mkdirSync(path.dirname(file), { recursive: true });
  const sqlite = SqliteSaver.fromConnString(file);
  sqlite.db.pragma('journal_mode = WAL');
  sqlite.db.pragma('synchronous = NORMAL');
  sqlite.db.pragma('busy_timeout = 5000');
  const pruneSqlite = createCheckpointPruner(sqlite);
  return {
    saver: sqlite,
    prune: async (threadId) => pruneSqlite(threadId),
    close: async () => {
      sqlite.db.close();
    },
  };
}
