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
import { type ChatInputCommandInteraction, type Client, Routes, type SendableChannels } from 'discord.js';
import type { ChatPlatform, Location, ReplySurface } from '../../core/chat-platform.ts';
import type { TurnInFlight } from '../../core/coordination-store.ts';
import { RagentError } from '../../errors.ts';
import type { Logger } from '../../logger.ts';
import { openReplySurface } from '../../replies/open-reply-surface.ts';
import { reopenedSurface } from '../../replies/reopened-surface.ts';
import type { ReplyPort, ReplyRendering } from '../../replies/reply-port.ts';
import { replySurface } from '../../replies/reply-surface.ts';
import { answerBelowText } from '../../turns/messages-en.ts';
import { noMentions } from './discord-client.ts';
import { discordErrorMessages } from './discord-error-messages-en.ts';
import { discordThreadLink } from './discord-ids.ts';
import type { MessagePart } from './render-answer.ts';
import { renderReply, renderStatus, renderStreamingText } from './render-reply.ts';

/** Whether an interaction started at `since` can still be answered: its token lasts 15 minutes (a minute is left for clocks and the request). */
export function interactionAlive(location: Location, since: number): boolean {
  return Boolean(location.applicationId && location.interactionToken && Date.now() - since < 14 * 60 * 1000);
}

export interface DiscordSurfaces {
  client: Client;
  logger: Logger;
  messageContentIntent: boolean;
}

/** How often Discord surfaces may change (`startDiscord`'s options). */
export interface DiscordLimits {
  /** Minimum time between two edits of a status message (default 1 s). */
  progressIntervalMs?: number;
  /** Minimum time between two edits of an answer being written (default 1.25 s: with the reply, under Discord's 5 edits per 5 s a channel). */
  textIntervalMs?: number;
}

/** `reopenPrivate` reaches a recorded private turn (`/ragent ask`): only through its interaction, never the channel. */
export function discordPlatform(
  surfaces: DiscordSurfaces,
  reopenPrivate: (turn: TurnInFlight) => ReplySurface,
  limits: DiscordLimits = {},
): ChatPlatform {
  return {
    name: 'discord',
    logger: surfaces.logger,
    statusIntervalMs: limits.progressIntervalMs ?? 1_000,
    textIntervalMs: limits.textIntervalMs ?? 1_250,
    // Progress edits only (finals never wait); Discord allows a bot about 50 requests a second.
    editBudget: { perMinute: 600, burst: 30 },
    // Discord's global limit is per bot, whatever the server.
    budgetPer: 'bot',
    reopen: async (turn) =>
      turn.location.privateTo ? reopenPrivate(turn) : reopenDiscordTurn(surfaces, turn),
    threadLink: (place) => discordThreadLink(place.threadId),
  };
}

/** Sends the status message in `channel`; its answer will replace it. */
export function openAnswerSurface(
  surfaces: DiscordSurfaces,
  channel: SendableChannels,
): Promise<ReplySurface> {
  return openReplySurface(channelPort(surfaces, channel, { channelId: channel.id }));
}

/**
 * The command's deferred reply as a surface (the defer came first, before any I/O): edited through
 * the interaction; where that fails (its token lasts 15 minutes) the reply is posted in the channel.
 */
export function interactionSurface(
  surfaces: DiscordSurfaces,
  interaction: ChatInputCommandInteraction,
): ReplySurface {
  const { applicationId, token, channelId } = interaction;
  return replySurface(
    discordPort(surfaces, {
      location: () => ({ applicationId, interactionToken: token, channelId }),
      post: async (part, index) =>
        index === 0
          ? (await sendableChannel(surfaces.client, channelId)).send(part)
          : interaction.followUp(part),
      edit: (part) => interaction.editReply(part),
      delete: () => interaction.deleteReply(),
    }),
    [original],
  );
}

async function reopenDiscordTurn(surfaces: DiscordSurfaces, turn: TurnInFlight): Promise<ReplySurface> {
  const { client } = surfaces;
  const { channelId, statusMessageId, replyTo } = turn.location;
  // A command's ingest is reached through its interaction while its token lives, else in the
  // channel; a message's ("@ragent ingest") through its status message, like an answer.
  if (turn.kind === 'ingest' && !statusMessageId) {
    const webhookAlive = interactionAlive(turn.location, turn.startedAt);
    return reopenedSurface(
      discordPort(surfaces, {
        location: () => turn.location,
        post: async (part) => (await sendableChannel(client, channelId)).send(part),
        edit: (part) => webhookEdit(client, turn.location, turn.startedAt, original, part),
        delete: async () => {},
      }),
      webhookAlive ? original : undefined,
    );
  }
  const channel = await sendableChannel(client, channelId);
  return reopenedSurface(channelPort(surfaces, channel, turn.location, replyTo), statusMessageId);
}

/** Messages in `channel`, the first of a reply answering `replyTo`; the location follows the last one. */
function channelPort(
  surfaces: DiscordSurfaces,
  channel: SendableChannels,
  location: Location,
  replyTo?: string,
): ReplyPort<Partial<MessagePart>> {
  return discordPort(surfaces, {
    location: (last) => (last ? { ...location, statusMessageId: last } : location),
    post: (part, index) =>
      channel.send({
        ...part,
        ...(index === 0 && replyTo ? { reply: { messageReference: replyTo, failIfNotExists: false } } : {}),
      }),
    edit: (part, id) => channel.messages.edit(id, part),
    delete: (id) => channel.messages.delete(id),
  });
}

/** The interaction's own reply, as a message id of the surface. */
export const original = '@original';

/**
 * Edits a message of an interaction (started at `since`) through its webhook, where the interaction
 * itself is not at hand; throws once its token has expired.
 */
export async function webhookEdit(
  client: Client,
  location: Location,
  since: number,
  id: string,
  part: Partial<MessagePart>,
) {
  const { applicationId = '', interactionToken = '' } = location;
  if (!interactionAlive(location, since)) throw new Error('the interaction token expired');
  const { allowedMentions: _, ...body } = part as Payload;
  await client.rest
    .patch(Routes.webhookMessage(applicationId, interactionToken, id), {
      body: { ...body, allowed_mentions: { parse: [], replied_user: false } },
      auth: false,
    })
    .catch((error: { status?: number; code?: number | string }) => {
      // Not the error itself: its request URL holds the interaction token.
      throw new Error(`could not edit the interaction's reply (${error.status ?? error.code})`);
    });
}

type Payload = Partial<MessagePart> & { allowedMentions: typeof noMentions };

/** Discord's primitives; every send and edit carries `allowedMentions: none`. */
function discordPort(
  surfaces: DiscordSurfaces,
  wire: {
    location: (last: string | undefined) => Location;
    post: (part: Payload, index: number) => Promise<{ id: string }>;
    edit: (part: Payload, id: string) => Promise<unknown>;
    delete: (id: string) => Promise<unknown>;
  },
): ReplyPort<Partial<MessagePart>> {
  return {
    logger: surfaces.logger,
    location: wire.location,
    post: async (part, index) => (await wire.post({ ...part, allowedMentions: noMentions }, index)).id,
    edit: async (id, part) => {
      await wire.edit({ ...part, allowedMentions: noMentions }, id);
    },
    delete: async (id) => {
      await wire.delete(id);
    },
    render: discordRendering(surfaces),
  };
}

/** How Discord shows a status, a streamed text and a reply, in its channels and privately alike. */
export function discordRendering(surfaces: DiscordSurfaces): ReplyRendering<Partial<MessagePart>> {
  const options = { messageContentIntent: surfaces.messageContentIntent };
  return {
    status: (status) => ({ content: renderStatus(status) }),
    streamingText: (text) => renderStreamingText(text).map((content) => ({ content })),
    reply: (reply) => renderReply(reply, options),
    leftoverNote: { content: `-# ${answerBelowText}` },
  };
}

/** Discord's codes for a channel that is gone (Unknown Channel) or that the bot may not see (Missing Access). */
const channelRefusals = new Set<unknown>([10003, 50001]);

/** The channel, through REST: its guild may be on a shard another replica holds (so not cached here). */
export async function sendableChannel(
  client: Client,
  channelId: string | undefined,
): Promise<SendableChannels> {
  const channel = channelId
    ? await client.channels.fetch(channelId, { allowUnknownGuild: true }).catch((error: unknown) => {
        // Gone, or hidden from the bot: said as such, not as Discord's bare error.
        if (channelRefusals.has((error as { code?: unknown }).code)) return null;
        throw error;
      })
    : null;
  if (!channel?.isSendable())
    throw new RagentError(
      'PERMISSION_DENIED',
      discordErrorMessages.PERMISSION_DENIED.channelUnwritable({ channelId }),
    );
  return channel;
}
