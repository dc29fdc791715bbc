/**
 * Everything a Slack test needs, over the wire: the fake Slack Web API, the fake Ollama as the model,
 * the REAL services in a temp data dir, and the REAL Bolt app started by `startSlack` — in HTTP mode
 * (events signed with the signing secret) or Socket Mode (through the fake's WebSocket).
 */

import { createLogger } from '../../src/logger.ts';
import { writingMark } from '../../src/platforms/slack/render-reply.ts';
import {
  type SlackAdapter,
  type SlackAdapterOptions,
  startSlack,
} from '../../src/platforms/slack/start-slack.ts';
import { type ChatScript, type FakeOllama, startFakeOllama } from '../fakes/fake-ollama.ts';
import {
  type FakeSlackApi,
  type FakeSlackMessage,
  type SlackApiCall,
  startFakeSlackApi,
} from '../fakes/fake-slack-api.ts';
import {
  createSlackEventSender,
  eventEnvelope,
  type MessageEventFields,
  messageTs,
  type SlackEventSender,
} from '../fakes/fake-slack-events.ts';
import { type BotLifecycle, botLifecycle, type RunningBot } from '../support/bot-lifecycle.ts';
import { freePort } from '../support/free-port.ts';
import { createTestServices } from '../support/test-services.ts';
import { slackModel } from './slack-model.ts';

export { freePort } from '../support/free-port.ts';

export const signingSecret = 'test-signing-secret-0123456789';

export interface SlackHarness extends RunningBot<SlackAdapter>, BotLifecycle {
  slack: FakeSlackApi;
  ollama: FakeOllama;
  /** Signs and delivers events to the running bot's HTTP endpoint. */
  readonly sender: SlackEventSender;
  readonly port: number;
  /** Mentions the bot in `channel` (a new top-level message unless `threadTs`). Returns the message ts. */
  mention(text: string, fields?: Partial<MessageEventFields>): Promise<string>;
  /** A plain message event (a thread reply, a DM …). */
  message(text: string, fields?: Partial<MessageEventFields>): Promise<string>;
  /** The envelope of an event from `defaultUser` in `defaultChannel` (unless `fields` say otherwise), not sent. */
  envelope(
    type: 'app_mention' | 'message',
    text: string,
    fields?: Partial<MessageEventFields>,
  ): { ts: string; envelope: Record<string, unknown> };
  /** The envelope of a mention of the bot (`@ragent text`), not sent. */
  mentionEnvelope(
    text: string,
    fields?: Partial<MessageEventFields>,
  ): { ts: string; envelope: Record<string, unknown> };
  /**
   * A barrier for negative assertions: mentions the bot in a new thread and waits for the answer, so
   * every event sent before has been handled. Resolves with a test for the barrier's own API calls.
   */
  barrier(): Promise<(call: SlackApiCall) => boolean>;
  /** Waits until the thread has a bot message that is no longer a placeholder; returns the bot's messages. */
  waitForReply(channel: string, threadTs: string, count?: number): Promise<FakeSlackMessage[]>;
  /** Delivers any Events API envelope as the harness's mode does (signed HTTP, or a Socket Mode envelope). */
  deliverEvent(envelope: Record<string, unknown>): Promise<void>;
}

export interface SlackHarnessOptions {
  mode?: 'http' | 'socket';
  environment?: Record<string, string>;
  /** Collect the adapter's log lines (at debug level, through the real scrubbing logger) here. */
  logLines?: string[];
  /** How long `stop()` waits for turns in flight (default 10 s). */
  stopTimeoutMs?: number;
  /** The fake model's replies (default: the Slack tests' model). */
  model?: ChatScript;
  /** Adapter options over the fast test defaults (the bench uses production intervals and budget). */
  adapter?: Partial<SlackAdapterOptions>;
}

export const defaultChannel = 'C0GENERAL';
export const defaultUser = 'UALICE';

export async function startSlackHarness(options: SlackHarnessOptions = {}): Promise<SlackHarness> {
  const slack = await startFakeSlackApi();
  const ollama = await startFakeOllama({ chat: options.model ?? slackModel });
  const mode = options.mode ?? 'http';
  let port = await freePort();
  const environment = () => ({
    SLACK_BOT_TOKEN: slack.botToken,
    SLACK_API_URL: slack.apiUrl,
    SLACK_PORT: String(port),
    ...(mode === 'socket' ? { SLACK_APP_TOKEN: slack.appToken } : { SLACK_SIGNING_SECRET: signingSecret }),
    RAGENT_ANSWER_TIMEOUT_S: '20',
    RAGENT_NODE_TIMEOUT_S: '10',
    OLLAMA_TIMEOUT_S: '10',
    RAGENT_EMBEDDINGS: 'none',
    ...options.environment,
  });
  const open = async (dataDir?: string) => {
    const logLines = options.logLines;
    const services = await createTestServices({
      ollamaUrl: ollama.url,
      environment: environment(),
      ...(dataDir ? { dataDir } : {}),
      // The services (the conversations, the turn runner) log into the same lines as the adapter.
      ...(logLines
        ? {
            logger: (config) =>
              createLogger({
                level: 'debug',
                secrets: config.secrets,
                destination: { write: (line: string) => logLines.push(line) },
              }),
          }
        : {}),
    });
    const logger = logLines
      ? createLogger({
          level: 'debug',
          secrets: services.config.secrets,
          destination: { write: (line: string) => logLines.push(line) },
        })
      : createLogger({ level: process.env.RAGENT_TEST_LOG ?? 'silent' });
    const adapter = await startSlack(
      { ...services, logger },
      {
        statusThrottleMs: 20,
        textIntervalMs: 50,
        // The edit budget is tested in test/turns; here every step of a turn may show.
        progressEditsPerMinute: 6_000,
        streamAppendsPerMinute: 6_000,
        stopTimeoutMs: options.stopTimeoutMs ?? 10_000,
        retryConfig: { retries: 3, minTimeout: 10, maxTimeout: 50 },
        ...options.adapter,
      },
    );
    return { services, adapter };
  };

  const endpoint = () => `http://127.0.0.1:${port}/slack/events`;
  let sender = createSlackEventSender(endpoint(), signingSecret);
  const harness: SlackHarness = {
    slack,
    ollama,
    ...(await open()),
    get sender() {
      return sender;
    },
    get port() {
      return port;
    },
    mention: async (text, fields = {}) => {
      const { ts, envelope } = harness.mentionEnvelope(text, fields);
      await deliver(envelope);
      return ts;
    },
    message: async (text, fields = {}) => {
      const { ts, envelope } = harness.envelope('message', text, fields);
      await deliver(envelope);
      return ts;
    },
    envelope: (type, text, fields = {}) => {
      const ts = fields.ts ?? messageTs();
      const envelope = eventEnvelope(
        type,
        { team: slack.teamId, channel: defaultChannel, user: defaultUser, ...fields, text, ts },
        slack.botUserId,
      );
      return { ts, envelope };
    },
    mentionEnvelope: (text, fields = {}) =>
      harness.envelope('app_mention', `<@${slack.botUserId}> ${text}`, fields),
    barrier: async () => {
      const ts = await harness.mention('barrier: how do loops work?');
      await harness.waitForReply(defaultChannel, ts);
      const inThread = new Set(
        [...harness.slack.messages(defaultChannel, ts), ...harness.slack.deletedMessages()]
          .filter((message) => message.ts === ts || message.threadTs === ts)
          .map((message) => message.ts),
      );
      return (call) => call.body.thread_ts === ts || inThread.has(String(call.body.ts));
    },
    waitForReply: (channel, threadTs, count = 1) =>
      slack.waitFor(
        () => {
          const replies = slack
            .messages(channel, threadTs)
            // People's messages (`addMessage`) are not the bot's replies.
            .filter((message) => message.ts !== threadTs && !message.user && !isPlaceholder(message));
          return replies.length >= count ? replies : undefined;
        },
        15_000,
        `${count} bot repl${count === 1 ? 'y' : 'ies'} in ${channel}/${threadTs}`,
      ),
    deliverEvent: (envelope) => deliver(envelope),
    ...botLifecycle(() => harness, {
      ollama,
      // A new port each time: the old one may linger a moment after a crash.
      start: async (dataDir) => {
        port = await freePort();
        sender = createSlackEventSender(endpoint(), signingSecret);
        return open(dataDir);
      },
      environment,
      closeFakes: async () => {
        await slack.close();
        await ollama.close();
      },
    }),
  };

  async function deliver(envelope: Record<string, unknown>) {
    if (mode === 'socket') {
      await slack.sendEnvelope(envelope, { type: 'events_api' });
    } else {
      const delivery = await harness.sender.event(envelope);
      if (delivery.status !== 200)
        throw new Error(`event rejected: HTTP ${delivery.status} ${delivery.body}`);
    }
  }

  return harness;
}

/** A status, or an answer still being written (its last block says so). */
export function isPlaceholder(message: FakeSlackMessage): boolean {
  return message.text.startsWith(':hourglass_flowing_sand:') || isBeingWritten(message);
}

export function isBeingWritten(message: FakeSlackMessage): boolean {
  // A streamed message counts as written once the reply replaced it (chat.update after the stop).
  if (message.streaming || (message.streamed && message.updates === 0)) return true;
  return JSON.stringify(message.blocks.at(-1) ?? {}).includes(writingMark);
}

/** The text of every block of a message, joined (markdown, section and context blocks). */
export function blockText(message: FakeSlackMessage): string {
  const parts: string[] = [];
  const visit = (value: unknown) => {
    if (typeof value === 'string') return;
    if (Array.isArray(value)) {
      for (const item of value) visit(item);
      return;
    }
    if (value && typeof value === 'object') {
      const record = value as Record<string, unknown>;
      if (typeof record.text === 'string') parts.push(record.text);
      for (const [key, item] of Object.entries(record)) if (key !== 'text') visit(item);
      if (record.text && typeof record.text === 'object') visit(record.text);
    }
  };
  visit(message.blocks);
  return parts.join('\n');
}
