/**
 * Several real `ragent start` processes (replicas) against one PostgreSQL database, one fake Slack and
 * one zero-latency fake model. Slack reaches them in Socket Mode (each envelope goes to ONE connection,
 * as Slack does) or, with `mode: 'http'`, over HTTP: each replica listens on its own port behind one
 * fake load balancer, and Slack retries a failed delivery (see fake-load-balancer.ts).
 * Each replica uses its own labelled Slack API URL, so the fake knows which replica made every call
 * and owns every connection. The model answers "Answer to: <question>" — or waits while the question
 * carries a held marker (`hold`), which is how a test keeps a replica busy answering.
 * Used by the multi-process Slack tests and by `npm run bench:replicas`.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { restartedText } from '../../src/turns/messages-en.ts';
import {
  type BalancedDelivery,
  createFakeLoadBalancer,
  type FakeLoadBalancer,
} from '../fakes/fake-load-balancer.ts';
import {
  type ChatScript,
  type FakeChatRequest,
  type FakeOllama,
  lastUserMessage,
  startFakeOllama,
} from '../fakes/fake-ollama.ts';
import { type FakeSlackApi, type FakeSlackMessage, startFakeSlackApi } from '../fakes/fake-slack-api.ts';
import { eventEnvelope, type MessageEventFields, messageTs } from '../fakes/fake-slack-events.ts';
import { freePort } from '../support/free-port.ts';
import { roleOf } from '../support/model-roles.ts';
import { type RagentProcess, startRagentProcess } from '../support/ragent-process.ts';
import { isPlaceholder } from './slack-harness.ts';
import { userMessageOf } from './slack-model.ts';

export const replicaChannel = 'C0REPLICAS';
export const replicaUser = 'UALICE';
/** The signing secret of the Slack app in HTTP mode. */
export const replicaSigningSecret = 'replicas-signing-secret';
/** The model's answer to `question`. */
export const answerTo = (question: string) => `Answer to: ${question}`;

export interface Replica {
  name: string;
  process: RagentProcess;
  /** Socket Mode: its connection (an id of the fake Slack). */
  connection?: string;
  /** HTTP mode: the URL of its Events API endpoint (behind the load balancer). */
  endpoint?: string;
}

/** Where a delivery went. */
export interface ReplicaDelivery {
  /** The replica that acknowledged it. */
  replica: string | undefined;
  /** HTTP mode: each request Slack made through the load balancer, the first one first. */
  attempts?: readonly BalancedDelivery[];
}

export interface DeliveryTarget {
  /** Deliver to this replica (HTTP mode: also a dead one, whose endpoint the load balancer still has). */
  to?: string;
  /** Deliver to any replica but this one. */
  avoid?: string;
  /** Deliver as Slack's retry number `retryAttempt` (1–3). */
  retryAttempt?: number;
  /** HTTP mode: called each time one of its requests is written to a replica's connection (not yet read). */
  onForwarded?: (replica: string) => void;
}

export interface ReplicaClusterOptions {
  databaseUrl: string;
  /** Extra environment of every replica. */
  environment?: Record<string, string>;
  /** How long an envelope may wait for its acknowledgement (default 20 s: the machine may be loaded). */
  ackTimeoutMs?: number;
  /** How Slack reaches the replicas (default: Socket Mode). */
  mode?: 'socket' | 'http';
}

export interface MentionOptions extends Partial<MessageEventFields> {
  /** Deliver to this replica's connection (default: one at random, as Slack does). */
  to?: string;
  /** Deliver to any replica but this one. */
  avoid?: string;
}

export interface ReplicaCluster {
  slack: FakeSlackApi;
  /** HTTP mode: the load balancer in front of the replicas. */
  balancer: FakeLoadBalancer | undefined;
  ollama: FakeOllama;
  databaseUrl: string;
  readonly replicas: ReadonlyMap<string, Replica>;
  /**
   * Starts `ragent start` as replica `name` and waits until it is running with its connection open
   * (HTTP mode: listening on a free port, its endpoint set in the load balancer).
   */
  start(name: string): Promise<Replica>;
  /** SIGKILL: the replica dies mid-whatever, its connections with it. */
  kill(name: string): Promise<void>;
  /** SIGSTOP: the replica freezes (reads and answers nothing, its connections stay open) until killed. */
  pause(name: string): void;
  /** SIGTERM: a graceful stop; resolves with the exit code. */
  stop(name: string): Promise<number | null>;
  /** The envelope of a mention of the bot, not sent. */
  mentionEnvelope(
    text: string,
    fields?: Partial<MessageEventFields>,
  ): { ts: string; envelope: Record<string, unknown> };
  /**
   * Delivers an Events API envelope (to `to`, or any replica but `avoid`, else one at random); one that
   * was not acknowledged (a connection closed first; HTTP: an error or no response) is sent again
   * elsewhere, up to 3 retries, as Slack does. Rejects when no attempt was acknowledged.
   */
  deliver(envelope: Record<string, unknown>, options?: DeliveryTarget): Promise<ReplicaDelivery>;
  /** Mentions the bot; resolves with the message ts and where it went. */
  mention(text: string, options?: MentionOptions): Promise<{ ts: string; delivery: ReplicaDelivery }>;
  /** While held, a question containing `marker` gets no answer from the model; call the result to answer. */
  hold(marker: string): () => void;
  /** Resolves once the model was asked about a question containing `marker`. */
  waitForModel(marker: string, timeoutMs?: number): Promise<void>;
  /** The bot's messages in a thread (the root left out), oldest first. */
  botMessages(threadTs: string, channel?: string): FakeSlackMessage[];
  /** Finished replies in a thread (no status, no answer still being written). */
  replies(threadTs: string, channel?: string): FakeSlackMessage[];
  /** "Please ask again" notices in a thread. */
  notices(threadTs: string, channel?: string): FakeSlackMessage[];
  /** Waits until a thread has `count` finished replies. */
  waitForReplies(threadTs: string, count?: number, timeoutMs?: number): Promise<FakeSlackMessage[]>;
  /** How many times the model was asked to understand a question containing `text` (once per run of its turn). */
  turnsRun(text: string): number;
  /** When the model was first asked about a question containing `text` (ms, this process's clock). */
  firstAskedAt(text: string): number | undefined;
  /** When `message` was last written (ms, this process's clock). */
  finishedAt(message: FakeSlackMessage): number;
  /** A thread's answer to `question` (a finished reply saying "Answer to: <question>"), if any. */
  answerIn(threadTs: string, question: string): FakeSlackMessage | undefined;
  /** The turn key of a message of the replica channel (its event claim and turn row). */
  turnKey(ts: string): string;
  /** Waits until the turns of these messages are queued (acknowledged, waiting for their thread). */
  waitForQueued(messageTs: string[], timeoutMs?: number): Promise<void>;
  /**
   * Waits until no turn is left in flight (a barrier's own turn ends just after its answer shows);
   * resolves with what is left after `timeoutMs` — empty when everything ended.
   */
  turnsLeft(timeoutMs?: number): Promise<Array<{ key: string; state: string }>>;
  /** Runs a query on the shared database. */
  query<Row extends pg.QueryResultRow>(sql: string, values?: unknown[]): Promise<Row[]>;
  /** Kills every replica still running, closes the fakes, removes the data directories. */
  close(): Promise<void>;
}

export async function startReplicaCluster(options: ReplicaClusterOptions): Promise<ReplicaCluster> {
  const mode = options.mode ?? 'socket';
  const ackTimeoutMs = options.ackTimeoutMs ?? 20_000;
  const holds = new Map<string, Promise<void>>();
  const slack = await startFakeSlackApi({ ackTimeoutMs });
  const balancer =
    mode === 'http'
      ? createFakeLoadBalancer(replicaSigningSecret, {
          responseTimeoutMs: ackTimeoutMs,
          // Slack's first retry comes at once; the tests do not wait its 1 and 5 minutes for the others.
          retryDelaysMs: [0, 0, 0],
        })
      : undefined;
  const ollama = await startFakeOllama({ chat: replicaModel(holds) });
  const workDir = mkdtempSync(path.join(tmpdir(), 'ragent-replicas-'));
  const replicas = new Map<string, Replica>();
  const database = new pg.Pool({ connectionString: options.databaseUrl, max: 2 });

  const environment = (name: string, port: number | undefined): Record<string, string> => ({
    DATABASE_URL: options.databaseUrl,
    RAGENT_REPLICA_ID: name,
    RAGENT_DATA_DIR: path.join(workDir, name),
    SLACK_BOT_TOKEN: slack.botToken,
    ...(port === undefined
      ? { SLACK_APP_TOKEN: slack.appToken }
      : { SLACK_SIGNING_SECRET: replicaSigningSecret, SLACK_PORT: String(port) }),
    SLACK_API_URL: slack.apiUrlFor(name),
    OLLAMA_BASE_URL: ollama.url,
    RAGENT_EMBEDDINGS: 'none',
    // Nothing times out on its own: only the test ends a held answer.
    RAGENT_ANSWER_TIMEOUT_S: '600',
    RAGENT_NODE_TIMEOUT_S: '600',
    OLLAMA_TIMEOUT_S: '600',
    LOG_LEVEL: process.env.RAGENT_TEST_LOG ?? 'warn',
    ...options.environment,
  });

  const inThread = (threadTs: string, channel: string) =>
    slack.messages(channel, threadTs).filter((message) => message.ts !== threadTs);
  const isNotice = (message: FakeSlackMessage) => message.text.includes(restartedText);

  const running = (name: string) => {
    const replica = replicas.get(name);
    if (!replica) throw new Error(`replica ${name} is not running`);
    return replica;
  };

  /** Socket Mode: to one connection; one closed before acknowledging is sent again elsewhere. */
  const deliverOverSocket = async (envelope: Record<string, unknown>, target: DeliveryTarget) => {
    const connectionOf = (name: string | undefined) =>
      name === undefined ? undefined : running(name).connection;
    const to = connectionOf(target.to);
    let avoid = connectionOf(target.avoid);
    let retryAttempt = target.retryAttempt ?? 0;
    for (;;) {
      try {
        return await slack.deliverEnvelope(envelope, {
          type: 'events_api',
          ...(retryAttempt ? { retryAttempt } : {}),
          ...(to && retryAttempt === (target.retryAttempt ?? 0) ? { connection: to } : {}),
          ...(avoid ? { avoid } : {}),
        });
      } catch (error) {
        // Like Slack: an envelope a connection never acknowledged is sent again, up to 3 retries.
        const closed = /closed before acknowledging/.exec(String(error));
        if (!closed || retryAttempt >= 3) throw error;
        avoid = /(connection-\d+)/.exec(String(error))?.[1];
        retryAttempt++;
      }
    }
  };

  /** HTTP mode: Slack posts through the load balancer and retries a failed delivery. */
  const deliverOverHttp = async (
    http: FakeLoadBalancer,
    envelope: Record<string, unknown>,
    { to, avoid, retryAttempt, onForwarded }: DeliveryTarget,
  ) => {
    const delivery = await http.deliver(envelope, {
      ...(to ? { target: to } : {}),
      ...(avoid ? { avoid } : {}),
      ...(retryAttempt ? { retryNum: retryAttempt } : {}),
      ...(onForwarded ? { onForwarded } : {}),
    });
    if (!delivery.acknowledged) {
      throw new Error(`no replica acknowledged the event: ${JSON.stringify(delivery.attempts)}`);
    }
    return delivery;
  };

  const cluster: ReplicaCluster = {
    slack,
    balancer,
    ollama,
    databaseUrl: options.databaseUrl,
    replicas,
    start: async (name) => {
      if (replicas.has(name)) throw new Error(`replica ${name} is already running`);
      const port = balancer ? await freePort() : undefined;
      const child = await startRagentProcess(environment(name, port), { cwd: workDir, timeoutMs: 120_000 });
      if (balancer) {
        // `ragent is running` is printed once its receiver listens.
        const endpoint = `http://127.0.0.1:${port}/slack/events`;
        balancer.setEndpoint(name, endpoint);
        const replica = { name, process: child, endpoint };
        replicas.set(name, replica);
        return replica;
      }
      try {
        const connection = await slack.waitForConnection(name, 60_000);
        const replica = { name, process: child, connection: connection.id };
        replicas.set(name, replica);
        return replica;
      } catch (error) {
        await child.crash();
        throw error;
      }
    },
    kill: async (name) => {
      const replica = running(name);
      replicas.delete(name);
      await replica.process.crash();
    },
    pause: (name) => running(name).process.pause(),
    stop: async (name) => {
      const replica = running(name);
      replicas.delete(name);
      return replica.process.stop();
    },
    mentionEnvelope: (text, fields = {}) => {
      const ts = fields.ts ?? messageTs();
      const envelope = eventEnvelope(
        'app_mention',
        {
          team: slack.teamId,
          channel: replicaChannel,
          user: replicaUser,
          ...fields,
          text: `<@${slack.botUserId}> ${text}`,
          ts,
        },
        slack.botUserId,
      );
      return { ts, envelope };
    },
    deliver: (envelope, target = {}) =>
      balancer ? deliverOverHttp(balancer, envelope, target) : deliverOverSocket(envelope, target),
    mention: async (text, { to, avoid, ...fields } = {}) => {
      const { ts, envelope } = cluster.mentionEnvelope(text, fields);
      const delivery = await cluster.deliver(envelope, {
        ...(to ? { to } : {}),
        ...(avoid ? { avoid } : {}),
      });
      return { ts, delivery };
    },
    hold: (marker) => {
      let release = () => {};
      holds.set(
        marker,
        new Promise<void>((resolve) => {
          release = resolve;
        }),
      );
      return () => {
        holds.delete(marker);
        release();
      };
    },
    waitForModel: async (marker, timeoutMs = 60_000) => {
      const deadline = Date.now() + timeoutMs;
      while (!ollama.chatRequests().some((request) => userMessageOf(request).includes(marker))) {
        if (Date.now() > deadline) throw new Error(`the model was not asked about "${marker}"`);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    },
    botMessages: (threadTs, channel = replicaChannel) => inThread(threadTs, channel),
    replies: (threadTs, channel = replicaChannel) =>
      inThread(threadTs, channel).filter((message) => !isPlaceholder(message)),
    notices: (threadTs, channel = replicaChannel) => inThread(threadTs, channel).filter(isNotice),
    waitForReplies: (threadTs, count = 1, timeoutMs = 60_000) =>
      slack.waitFor(
        () => {
          const replies = cluster.replies(threadTs);
          return replies.length >= count ? replies : undefined;
        },
        timeoutMs,
        `${count} finished repl${count === 1 ? 'y' : 'ies'} in thread ${threadTs}`,
      ),
    turnsRun: (text) =>
      ollama.requests.filter(
        (request) =>
          request.path === '/api/chat' &&
          roleOf(request.body as FakeChatRequest) === 'rewrite' &&
          userMessageOf(request.body as FakeChatRequest).includes(text),
      ).length,
    firstAskedAt: (text) =>
      ollama.requests.find(
        (request) =>
          request.path === '/api/chat' && userMessageOf(request.body as FakeChatRequest).includes(text),
      )?.at,
    finishedAt: (message) => message.changedAt,
    answerIn: (threadTs, question) =>
      cluster.replies(threadTs).find((message) => message.text.includes(answerTo(question))),
    turnKey: (ts) => `slack:${slack.teamId}:${replicaChannel}:${ts}`,
    waitForQueued: async (messageTs, timeoutMs = 60_000) => {
      const keys = messageTs.map(cluster.turnKey).sort();
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const rows = await cluster.query<{ key: string; state: string }>(
          'SELECT key, state FROM ragent_turns_in_flight WHERE key = ANY($1) ORDER BY key',
          [keys],
        );
        if (rows.length === keys.length && rows.every((row) => row.state === 'queued')) return;
        if (Date.now() > deadline) throw new Error(`turns not queued: ${JSON.stringify(rows)} of ${keys}`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    },
    turnsLeft: async (timeoutMs = 30_000) => {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const left = await cluster.query<{ key: string; state: string }>(
          'SELECT key, state FROM ragent_turns_in_flight ORDER BY key',
        );
        if (left.length === 0 || Date.now() > deadline) return left;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    },
    query: async (sql, values = []) => (await database.query(sql, values)).rows,
    close: async () => {
      for (const release of [...holds.keys()]) holds.delete(release);
      await Promise.allSettled([...replicas.values()].map((replica) => replica.process.crash()));
      replicas.clear();
      await database.end();
      await slack.close();
      await ollama.close();
      rmSync(workDir, { recursive: true, force: true });
    },
  };
  return cluster;
}

/**
 * The fake model for replicas: clear questions, one search, then "Answer to: <question>" — unless the
 * question carries a held marker, then nothing until it is released.
 */
function replicaModel(holds: Map<string, Promise<void>>): ChatScript {
  return async (request) => {
    // The rewrite step sees the thread's history and the new message; the others the question alone.
    const question = roleOf(request) === 'rewrite' ? userMessageOf(request) : lastUserMessage(request);
    for (const [marker, held] of holds) if (question.includes(marker)) await held;
    switch (roleOf(request)) {
      case 'rewrite':
        return { content: JSON.stringify({ isClear: true, questions: [question], clarificationNeeded: '' }) };
      case 'orchestrator': {
        if (!request.messages.some((message) => message.role === 'tool')) {
          return {
            toolCalls: [
              { name: 'search_child_chunks', arguments: { query: question.slice(0, 200), limit: 3 } },
            ],
          };
        }
        return { content: answerTo(question) };
      }
      default:
        return { content: answerTo(question) };
    }
  };
}
