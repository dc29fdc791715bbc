/**
 * Shows in a thread that the bot is working, within a second of the message, and follows the
 * graph's progress. Slack's assistant thread status (`assistant.threads.setStatus`) is used where
 * the workspace allows it; otherwise a placeholder message is posted and edited, and the answer
 * replaces it. Whether a channel allows the assistant status is learnt once per channel (turns
 * starting together wait for that one probe rather than each paying a refused call).
 */
import type { webApi } from '@slack/bolt';
import type { Logger } from '../../logger.ts';
import type { EditBudget } from './edit-budget.ts';
import { createLiveMessage, type LiveMessage } from './live-message.ts';
import { postMessage, type SlackMessage, slackErrorCode } from './slack-message.ts';
import { safeMrkdwn } from './slack-text.ts';

type WebClient = webApi.WebClient;

export interface ThreadStatus {
  /** Shows the status; resolves with the placeholder message's ts when one was posted. */
  start(): Promise<string | undefined>;
  update(line: string): void;
  /** Posts the result (replacing the placeholder, if any) and clears the status. */
  finish(messages: SlackMessage[]): Promise<void>;
}

export interface ThreadStatusOptions {
  client: WebClient;
  channel: string;
  threadTs: string;
  throttleMs: number;
  logger: Logger;
  /** Shared by all turns: progress edits are skipped when it is spent. */
  editBudget: EditBudget;
  /** Per channel: whether `assistant.threads.setStatus` works there (learnt once, shared by all turns). */
  assistantStatusSupport: Map<string, Promise<boolean>>;
}

const initialLine = 'Working on it…';

export function placeholderMessage(line: string): SlackMessage {
  const text = `:hourglass_flowing_sand: _${safeMrkdwn(line)}_`;
  return { text, blocks: [{ type: 'context', elements: [{ type: 'mrkdwn', text }] }] };
}

export function createThreadStatus(options: ThreadStatusOptions): ThreadStatus {
  const { client, channel, threadTs, throttleMs, logger, assistantStatusSupport, editBudget } = options;
  let placeholder: LiveMessage | undefined;
  let assistant = false;
  let lastSentAt = 0;
  let pendingLine: string | undefined;
  let timer: NodeJS.Timeout | undefined;
  let chain: Promise<unknown> = Promise.resolve();

  const setStatus = (status: string) =>
    client.assistant.threads.setStatus({ channel_id: channel, thread_ts: threadTs, status });

  const sendAssistantStatus = (line: string) => {
    if (!editBudget.tryTake()) return;
    lastSentAt = Date.now();
    chain = chain
      .then(() => setStatus(line.slice(0, 250)))
      .catch((error: unknown) => logger.debug({ err: error }, 'assistant status update failed'));
  };

  return {
    start: async () => {
      const known = assistantStatusSupport.get(channel);
      if (known === undefined || (await known)) {
        const probe = setStatus(initialLine.toLowerCase()).then(
          () => true,
          (error: unknown) => {
            logger.debug(
              { code: slackErrorCode(error), channel },
              'assistant status unavailable; using a placeholder',
            );
            return false;
          },
        );
        if (known === undefined) assistantStatusSupport.set(channel, probe);
        if (await probe) {
          assistant = true;
          lastSentAt = Date.now();
          return undefined;
        }
      }
      placeholder = createLiveMessage({
        client,
        destination: { channel, threadTs },
        throttleMs,
        logger,
        editBudget,
      });
      return placeholder.start(placeholderMessage(initialLine));
    },
    update: (line) => {
      if (placeholder) {
        placeholder.update(placeholderMessage(line));
        return;
      }
      if (!assistant) return;
      const wait = lastSentAt + throttleMs - Date.now();
      if (wait <= 0 && !timer) {
        sendAssistantStatus(line);
        return;
      }
      pendingLine = line;
      timer ??= setTimeout(
        () => {
          timer = undefined;
          if (pendingLine) sendAssistantStatus(pendingLine);
          pendingLine = undefined;
        },
        Math.max(0, wait),
      );
    },
    finish: async (messages) => {
      if (timer) clearTimeout(timer);
      timer = undefined;
      pendingLine = undefined;
      if (placeholder) {
        await placeholder.finish(messages);
        return;
      }
      await chain;
      for (const message of messages) await postMessage(client, { channel, threadTs }, message);
      if (assistant) {
        assistant = false;
        await setStatus('').catch((error: unknown) =>
          logger.debug({ err: error }, 'could not clear the status'),
        );
      }
    },
  };
}
