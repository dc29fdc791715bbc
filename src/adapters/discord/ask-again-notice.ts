/**
 * After a crash, each Discord thread whose answer was cut short is told to ask again: its status
 * message ("⏳ …") becomes the notice; where no status message was sent yet (or it is gone), the
 * notice is posted in the channel, as a reply to the question when that is known.
 */
import type { Client } from 'discord.js';
import type { Logger } from '../../logger.ts';
import type { TellThread } from '../shared/turns-in-flight.ts';
import { noMentions } from './discord-client.ts';
import { restartedText } from './discord-text.ts';

/** Tells a recorded turn's thread (its status message, else its channel) to ask again. */
export function askAgainInDiscordThread(client: Client, logger: Logger): TellThread {
  return async ({ channelId, statusMessageId, replyTo }) => {
    const channel = channelId ? await client.channels.fetch(channelId) : null;
    if (!channel?.isSendable()) throw new Error(`channel ${channelId} is gone or not writable`);
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
