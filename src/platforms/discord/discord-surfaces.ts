/**
 * Discord's side of the platform port: where a job shows its status and outcome. Every send and
 * edit carries `allowedMentions: none`.
 *
 * - An answer: a mention in a channel starts a thread from the message; the status message is sent
 *   in the thread (or channel, DM) and the answer replaces it, further parts following.
 * - An ingest: the command's deferred reply, edited through the interaction (its token lives 15
 *   minutes); when it can no longer be edited, the result is posted in the channel. An ingest asked
 *   for in a message ("@ragent ingest" with attachments) shows in a status message in its channel.
 * - `reopen` reaches a recorded turn: its status message (else a reply to the question, else the
 *   channel), or a command's ingest reply through the interaction webhook while its token lives.
 */
import {
  type ChatInputCommandInteraction,
  type Client,
  type Message,
  Routes,
  type SendableChannels,
} from 'discord.js';
import type { ChatPlatform, Location, Reply, ReplySurface } from '../../core/chat-platform.ts';
import type { TurnInFlight } from '../../core/coordination-store.ts';
import type { Logger } from '../../logger.ts';
import { messageSequence } from '../../turns/message-sequence.ts';
import { answerBelowText, workingLine } from '../../turns/messages-en.ts';
import { noMentions } from './discord-client.ts';
import { discordThreadLink } from './discord-ids.ts';
import type { MessagePart } from './render-answer.ts';
import { renderReply, renderStatus, renderStreamingText } from './render-reply.ts';

/** Discord's interaction tokens last 15 minutes; a minute is left for clocks and the request. */
const interactionTokenLifetimeMs = 14 * 60 * 1000;

export interface DiscordSurfaces {
  client: Client;
  logger: Logger;
  messageContentIntent: boolean;
}

export function discordPlatform(
  surfaces: DiscordSurfaces,
  options: {
    statusIntervalMs: number;
    textIntervalMs: number;
    /** Reaches a recorded private turn (`/ragent ask`): only through its interaction, never the channel. */
    reopenPrivate: (turn: TurnInFlight) => ReplySurface;
  },
): ChatPlatform {
  return {
    name: 'discord',
    logger: surfaces.logger,
    statusIntervalMs: options.statusIntervalMs,
    textIntervalMs: options.textIntervalMs,
    // Progress edits only (finals never wait); Discord allows a bot about 50 requests a second.
    editBudget: { perMinute: 600, burst: 30 },
    // Discord's global limit is per bot, whatever the server.
    budgetPer: 'bot',
    reopen: async (turn) =>
      turn.location.privateTo ? options.reopenPrivate(turn) : reopenDiscordTurn(surfaces, turn),
    threadLink: (place) => discordThreadLink(place.threadId),
  };
}

/** Sends the status message in `channel`; its answer will replace it. */
export async function openAnswerSurface(
  surfaces: DiscordSurfaces,
  channel: SendableChannels,
): Promise<ReplySurface> {
  const status = await channel.send({
    content: renderStatus({ kind: 'working', line: workingLine }),
    allowedMentions: noMentions,
  });
  return channelSurface(surfaces, channel, { channelId: channel.id, statusMessageId: status.id }, status);
}

/** The command's deferred reply as a surface (the defer came first, before any I/O). */
export function interactionSurface(
  surfaces: DiscordSurfaces,
  interaction: ChatInputCommandInteraction,
): ReplySurface {
  const edit = (content: string) => interaction.editReply({ content, allowedMentions: noMentions });
  return {
    location: {
      applicationId: interaction.applicationId,
      interactionToken: interaction.token,
      channelId: interaction.channelId,
    },
    showStatus: async (status) => {
      await edit(renderStatus(status));
    },
    finish: async (reply) => {
      const [first, ...rest] = render(surfaces, reply);
      if (!first) return;
      try {
        await interaction.editReply({ ...first, allowedMentions: noMentions });
      } catch (error) {
        // The reply can no longer be edited (the token lasts 15 minutes): post the result instead.
        surfaces.logger.warn(
          { status: (error as { status?: number }).status },
          'could not edit the reply; posting',
        );
        const channel = await sendableChannel(surfaces.client, interaction.channelId);
        await channel.send({ ...first, allowedMentions: noMentions });
      }
      for (const part of rest) await interaction.followUp({ ...part, allowedMentions: noMentions });
    },
  };
}

async function reopenDiscordTurn(surfaces: DiscordSurfaces, turn: TurnInFlight): Promise<ReplySurface> {
  const { client, logger } = surfaces;
  const { applicationId, interactionToken, channelId, statusMessageId, replyTo } = turn.location;
  // A command's ingest is reached through its interaction; a message's ("@ragent ingest") through
  // its status message, like an answer.
  if (turn.kind === 'ingest' && !statusMessageId) {
    const webhookAlive =
      applicationId && interactionToken && Date.now() - turn.startedAt < interactionTokenLifetimeMs;
    return {
      location: turn.location,
      showStatus: async () => {},
      finish: async (reply) => {
        const [first] = render(surfaces, reply);
        if (!first) return;
        if (webhookAlive) {
          try {
            await client.rest.patch(Routes.webhookMessage(applicationId, interactionToken), {
              body: { ...first, allowed_mentions: { parse: [], replied_user: false } },
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
        await channel.send({ ...first, allowedMentions: noMentions });
      },
    };
  }
  const channel = await sendableChannel(client, channelId);
  const status = statusMessageId ? { id: statusMessageId } : undefined;
  return channelSurface(surfaces, channel, turn.location, status, replyTo);
}

/**
 * A surface over a status message in `channel`: the runner's message sequence (status, streamed
 * parts, reply) over Discord's send / edit / delete; the recorded location follows the last message.
 */
function channelSurface(
  surfaces: DiscordSurfaces,
  channel: SendableChannels,
  location: Location,
  status: Pick<Message, 'id'> | undefined,
  replyTo?: string,
): ReplySurface {
  const messages = messageSequence<MessagePart | { content: string }>(
    {
      post: async (part, index) =>
        (
          await channel.send({
            ...part,
            allowedMentions: noMentions,
            ...(index === 0 && replyTo
              ? { reply: { messageReference: replyTo, failIfNotExists: false } }
              : {}),
          })
        ).id,
      edit: async (id, part) => {
        await channel.messages.edit(id, { ...part, allowedMentions: noMentions });
      },
      remove: async (id) => {
        await channel.messages.delete(id);
      },
      leftoverNote: { content: `-# ${answerBelowText}` },
      logger: surfaces.logger.child({ channelId: channel.id }),
    },
    status ? [status.id] : [],
  );
  return {
    get location() {
      const last = messages.last();
      return last && last !== location.statusMessageId ? { ...location, statusMessageId: last } : location;
    },
    showStatus: (next) => messages.showStatus({ content: renderStatus(next) }),
    showText: (text) =>
      messages.showParts(
        renderStreamingText(text).map((content) => ({ content })),
        (part) => part.content,
      ),
    finish: (reply: Reply) => messages.finish(render(surfaces, reply)),
  };
}

function render(surfaces: DiscordSurfaces, reply: Reply): MessagePart[] {
  return renderReply(reply, { messageContentIntent: surfaces.messageContentIntent });
}

/** The channel, through REST: its guild may be on a shard another replica holds (so not cached here). */
async function sendableChannel(client: Client, channelId: string | undefined): Promise<SendableChannels> {
  const channel = channelId ? await client.channels.fetch(channelId, { allowUnknownGuild: true }) : null;
  if (!channel?.isSendable()) throw new Error(`channel ${channelId} is gone or not writable`);
  return channel;
}
