/**
 * After a crash, each Discord thread left hanging is told what happened. An answer cut short: its
 * status message ("⏳ …") becomes "please ask again"; where no status message was sent yet (or it is
 * gone), the notice is posted in the channel, as a reply to the question when that is known. An
 * ingest cut short: its deferred reply becomes "nothing was added — run /ragent ingest again", edited
 * through the interaction's webhook while its token lives (15 minutes), else posted in the channel.
 */
import { type Client, Routes } from 'discord.js';
import type { Logger } from '../../logger.ts';
import type { TurnInFlight } from '../shared/bot-state-store.ts';
import type { TellThread } from '../shared/turns-in-flight.ts';
import { noMentions } from './discord-client.ts';
import { interruptedIngestText, restartedText } from './discord-text.ts';

/** Discord's interaction tokens last 15 minutes; a minute is left for clocks and the request. */
const interactionTokenLifetimeMs = 14 * 60 * 1000;

/** Tells a recorded turn's thread (its status message or reply, else its channel) what happened. */
export function askAgainInDiscordThread(client: Client, logger: Logger): TellThread {
  return async (turn) => {
    if (turn.kind === 'ingest') return tellInterruptedIngest(client, logger, turn);
    const { channelId, statusMessageId, replyTo } = turn.location;
    const channel = await sendableChannel(client, channelId);
    if (statusMessageId) {
      try {
        await channel.messages.edit(statusMessageId, {
          content: restartedText,
          embeds: [],
          components: [],
          allowedMentions: noMentions,
        });
        return;
      } catch (error) {
        logger.debug({ err: error, channelId }, 'could not edit the status message; posting');
      }
    }
    await channel.send({
      content: restartedText,
      allowedMentions: noMentions,
      ...(replyTo ? { reply: { messageReference: replyTo, failIfNotExists: false } } : {}),
    });
  };
}

async function tellInterruptedIngest(client: Client, logger: Logger, turn: TurnInFlight): Promise<void> {
  const { applicationId, interactionToken, channelId, file } = turn.location;
  const content = interruptedIngestText(file || 'your file');
  if (applicationId && interactionToken && Date.now() - turn.startedAt < interactionTokenLifetimeMs) {
    try {
      await client.rest.patch(Routes.webhookMessage(applicationId, interactionToken), {
        body: { content, embeds: [], components: [], allowed_mentions: { parse: [], replied_user: false } },
        auth: false,
      });
      return;
    } catch (error) {
      // Not `err`: the failed request's URL holds the interaction token.
      const { status, code } = error as { status?: number; code?: number | string };
      logger.debug({ status, code, channelId }, 'could not edit the ingest reply; posting');
    }
  }
  const channel = await sendableChannel(client, channelId);
  await channel.send({ content, allowedMentions: noMentions });
}

async function sendableChannel(client: Client, channelId: string | undefined) {
  const channel = channelId ? await client.channels.fetch(channelId) : null;
  if (!channel?.isSendable()) throw new Error(`channel ${channelId} is gone or not writable`);
  return channel;
}
