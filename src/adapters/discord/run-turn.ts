/**
 * One conversational turn in a Discord channel or thread: a status message at once, edited with the
 * graph's progress, then replaced by the answer (split, with sources and feedback buttons), the
 * clarifying question, or a clear error. Never silent.
 */
import type { Message, SendableChannels } from 'discord.js';
import type { TurnRequest, TurnResult } from '../../core/types.ts';
import { describeProgress } from '../shared/progress-text.ts';
import type { TurnRecord } from '../shared/turns-in-flight.ts';
import { noMentions } from './discord-client.ts';
import type { DiscordContext } from './discord-context.ts';
import {
  clarificationText,
  errorText,
  shuttingDownText,
  statusText,
  stoppedText,
  thinkingText,
} from './discord-text.ts';
import { type MessagePart, renderAnswer, renderText } from './render-answer.ts';
import { throttledEdits } from './throttled-edits.ts';

/** How long a turn may wait for other people's acknowledgements to go out first. */
const acknowledgementWaitMs = 2_000;

/**
 * Starts a turn in the background. `acknowledged` is called once the status message is out (or
 * could not be sent); the caller opened it with `context.acknowledgements.begin()`. `record` is the
 * turn's entry in `bot.sqlite`: it ends once the outcome is posted, or once a stop that gives up on
 * the turn has told the thread; otherwise the next start tells it (see turns-in-flight).
 */
export function startTurn(
  context: DiscordContext,
  channel: SendableChannels,
  request: TurnRequest,
  { acknowledged, record }: { acknowledged: () => void; record: TurnRecord },
): void {
  const state = { status: undefined as Message | undefined, abandoned: false };
  const work = runTurn(context, channel, request, state, { acknowledged, record })
    .catch((error: unknown) => {
      acknowledged();
      context.logger.error({ err: error, threadId: request.threadId }, 'discord turn failed');
    })
    .finally(() => {
      if (!state.abandoned) record.end();
    });
  context.inFlight.track(work, async () => {
    state.abandoned = true;
    await state.status
      ?.edit({ content: shuttingDownText, embeds: [], components: [], allowedMentions: noMentions })
      .then(record.end, () => {});
  });
}

async function runTurn(
  context: DiscordContext,
  channel: SendableChannels,
  request: TurnRequest,
  state: { status: Message | undefined; abandoned: boolean },
  { acknowledged, record }: { acknowledged: () => void; record: TurnRecord },
): Promise<void> {
  const { logger } = context;
  const status = await channel.send({ content: thinkingText, allowedMentions: noMentions });
  state.status = status;
  record.moved({ channelId: channel.id, statusMessageId: status.id });
  acknowledged();
  await context.acknowledgements.clear(acknowledgementWaitMs);
  const edits = throttledEdits(
    (text) => status.edit({ content: text, allowedMentions: noMentions }),
    context.progressIntervalMs,
    (error) => logger.warn({ err: error, threadId: request.threadId }, 'could not update the status message'),
  );
  let parts: MessagePart[];
  try {
    const result = await context.services.conversations.handle(request, (event) => {
      // Progress is optional: while others still wait for their acknowledgement, it yields to them.
      const description = describeProgress(event);
      if (description && !context.acknowledgements.busy()) edits.update(statusText(description));
    });
    parts = renderResult(result, context.services.config.discord.messageContentIntent);
    logger.info({ threadId: request.threadId, kind: result.kind }, 'discord turn answered');
  } catch (error) {
    logger.warn({ err: error, threadId: request.threadId }, 'discord turn failed');
    parts = renderText(errorText(error));
  }
  await edits.close();
  if (state.abandoned) return;
  await deliver(channel, status, parts);
}

function renderResult(result: TurnResult, messageContentIntent: boolean): MessagePart[] {
  switch (result.kind) {
    case 'answer':
      return renderAnswer(result.answer);
    case 'clarification':
      return renderText(clarificationText(result.question, messageContentIntent));
    case 'stopped':
      return renderText(stoppedText(result.message));
  }
}

/** The first part replaces the status message; the rest follow as new messages, in order. */
async function deliver(channel: SendableChannels, status: Message, parts: MessagePart[]): Promise<void> {
  const [first, ...rest] = parts;
  if (!first) return;
  try {
    await status.edit({ ...first, allowedMentions: noMentions });
  } catch {
    // The status message is gone (deleted by someone): post the answer instead.
    await channel.send({ ...first, allowedMentions: noMentions });
  }
  for (const part of rest) await channel.send({ ...part, allowedMentions: noMentions });
}
