/**
 * A message that shows work in progress: posted once, then edited as the work advances (at most one
 * edit per `throttleMs`, the latest text always wins, identical texts are skipped), and finally
 * replaced by the result. If the first edit target is gone, the result is posted instead.
 */
import type { webApi } from '@slack/bolt';
import type { Logger } from '../../logger.ts';
import type { EditBudget } from './edit-budget.ts';
import {
  postMessage,
  type SlackDestination,
  type SlackMessage,
  slackErrorCode,
  updateMessage,
} from './slack-message.ts';

type WebClient = webApi.WebClient;

export interface LiveMessage {
  /** Posts the first version; resolves with its ts. */
  start(message: SlackMessage): Promise<string>;
  /** Shows a newer version soon (throttled). */
  update(message: SlackMessage): void;
  /** Replaces the message with `messages[0]` and posts the rest in the same place. */
  finish(messages: SlackMessage[]): Promise<void>;
  readonly destination: SlackDestination;
}

export function createLiveMessage(options: {
  client: WebClient;
  destination: SlackDestination;
  throttleMs: number;
  logger: Logger;
  /** Progress edits are skipped when this shared budget is spent (the final version never is). */
  editBudget: EditBudget;
}): LiveMessage {
  const { client, destination, throttleMs, logger, editBudget } = options;
  let ts: string | undefined;
  let lastText: string | undefined;
  let lastSentAt = 0;
  let pending: SlackMessage | undefined;
  let timer: NodeJS.Timeout | undefined;
  let chain: Promise<void> = Promise.resolve();
  let finished = false;

  const send = (message: SlackMessage) => {
    if (!ts || finished || message.text === lastText) return;
    if (!editBudget.tryTake()) return;
    lastText = message.text;
    lastSentAt = Date.now();
    const target = ts;
    chain = chain
      .then(() => updateMessage(client, destination.channel, target, message))
      .catch((error: unknown) =>
        logger.warn({ err: error, channel: destination.channel }, 'status update failed'),
      );
  };

  const flush = () => {
    timer = undefined;
    if (pending) send(pending);
    pending = undefined;
  };

  return {
    destination,
    start: async (message) => {
      ts = await postMessage(client, destination, message);
      lastText = message.text;
      lastSentAt = Date.now();
      return ts;
    },
    update: (message) => {
      if (finished) return;
      const wait = lastSentAt + throttleMs - Date.now();
      if (wait <= 0 && !timer) {
        send(message);
        return;
      }
      pending = message;
      timer ??= setTimeout(flush, Math.max(0, wait));
    },
    finish: async (messages) => {
      finished = true;
      if (timer) clearTimeout(timer);
      timer = undefined;
      pending = undefined;
      await chain;
      const [first, ...rest] = messages;
      if (!first) return;
      let replaced = false;
      if (ts) {
        try {
          await updateMessage(client, destination.channel, ts, first);
          replaced = true;
        } catch (error) {
          logger.warn(
            { err: error, code: slackErrorCode(error) },
            'could not replace the status message; posting',
          );
        }
        ts = undefined;
      }
      if (!replaced) await postMessage(client, destination, first);
      for (const message of rest) await postMessage(client, destination, message);
    },
  };
}
