/**
 * `/ragent ask question:` on Discord: a private answer (turns/private-answers.ts) in the command's
 * deferred ephemeral reply (flags 64), edited with the status and then the answer — its sources, 👍/👎
 * and a Share button; longer answers continue in ephemeral follow-ups. The interaction's token lasts
 * 15 minutes: a reply that comes later cannot reach the asker privately, and is logged as such.
 *
 * Share posts the question and the answer in the channel (or the thread) it was asked in, crediting
 * the asker with a mention that pings nobody (every message carries `allowedMentions: none`), once
 * however often it is pressed and on whichever replica; a later press is told "already shared",
 * privately. The private reply then says it was shared.
 */
import {
  type APIActionRowComponent,
  type APIButtonComponent,
  type ButtonInteraction,
  ButtonStyle,
  type ChatInputCommandInteraction,
  type Client,
  ComponentType,
  MessageFlags,
  Routes,
} from 'discord.js';
import type { Reply, ReplySurface } from '../../core/chat-platform.ts';
import type { TurnInFlight } from '../../core/coordination-store.ts';
import { toRagentError } from '../../errors.ts';
import {
  alreadySharedText,
  askEmptyText,
  askedText,
  privateAnswerFooterText,
  privateClarificationFooterText,
  shareButtonText,
  sharedNoteText,
  shareFailedText,
  shareGoneText,
  shareNotYoursText,
} from '../../turns/messages-en.ts';
import { askPrivately, claimShare, type SharedAnswer } from '../../turns/private-answers.ts';
import { shortenText } from '../shared/shorten-text.ts';
import { askQuestionOption } from './command-definitions.ts';
import { noMentions } from './discord-client.ts';
import type { DiscordContext } from './discord-context.ts';
import { guildChannelScopes, interactionSetChannel } from './discord-scopes.ts';
import type { DiscordSurfaces } from './discord-surfaces.ts';
import { literalText } from './discord-text.ts';
import { type MessagePart, messageLimit, renderAnswer } from './render-answer.ts';
import { renderReply, renderStatus } from './render-reply.ts';

/** Discord's interaction tokens last 15 minutes; a minute is left for clocks and the request. */
const tokenLifetimeMs = 14 * 60 * 1000;
const sharePrefix = 'ragent:share:';
/** The question in the credit line of a shared answer. */
const maxSharedQuestion = 500;

export function isShareButton(customId: string): boolean {
  return customId.startsWith(sharePrefix);
}

/** `/ragent ask question:` (in a server): deferred ephemerally first, then answered by the runner. */
export async function runAskCommand(
  context: DiscordContext,
  interaction: ChatInputCommandInteraction<'cached' | 'raw'>,
): Promise<void> {
  await interaction.deferReply({ flags: MessageFlags.Ephemeral });
  const text = interaction.options.getString(askQuestionOption, true).trim();
  if (!text) {
    await interaction.editReply({ content: askEmptyText, allowedMentions: noMentions });
    return;
  }
  const { guildId, channelId } = interaction;
  const user = interaction.user.id;
  askPrivately(context.turns, {
    asker: { platform: 'discord', workspace: guildId, channel: channelId, user },
    id: interaction.id,
    text,
    reference: `/ragent ask ${interaction.id}`,
    // Snowflakes grow with time: the asker's private turns run in the order they were asked.
    position: interaction.id,
    location: {
      applicationId: interaction.applicationId,
      interactionToken: interaction.token,
      channelId,
      privateTo: user,
    },
    scopes: async () =>
      guildChannelScopes(
        context.services.coordination,
        context.logger,
        guildId,
        await interactionSetChannel(interaction.client, interaction),
      ),
    open: async () => privateSurface(context.surfaces, interaction),
  });
}

/** The deferred ephemeral reply as the answer's surface. */
function privateSurface(surfaces: DiscordSurfaces, interaction: ChatInputCommandInteraction): ReplySurface {
  const started = interaction.createdTimestamp;
  const alive = () => Date.now() - started < tokenLifetimeMs;
  return {
    location: {
      applicationId: interaction.applicationId,
      interactionToken: interaction.token,
      channelId: interaction.channelId,
      privateTo: interaction.user.id,
    },
    showStatus: async (status) => {
      if (alive())
        await interaction.editReply({ content: renderStatus(status), allowedMentions: noMentions });
    },
    finish: async (reply) => {
      if (!alive()) {
        surfaces.logger.warn(
          { interaction: interaction.id, kind: reply.kind },
          'the private reply came after the interaction token expired: the asker cannot be told',
        );
        return;
      }
      const [first, ...rest] = renderPrivateReply(surfaces, reply);
      if (!first) return;
      await interaction.editReply({ ...first, allowedMentions: noMentions });
      for (const part of rest)
        await interaction.followUp({ ...part, flags: MessageFlags.Ephemeral, allowedMentions: noMentions });
    },
  };
}

/** A recorded private turn (a crash, a stop): told through the interaction while its token lives. */
export function reopenPrivateTurn(surfaces: DiscordSurfaces, turn: TurnInFlight): ReplySurface {
  const { applicationId, interactionToken } = turn.location;
  return {
    location: turn.location,
    showStatus: async () => {},
    finish: async (reply) => {
      const [first, ...rest] = renderPrivateReply(surfaces, reply);
      if (!first) return;
      if (!applicationId || !interactionToken || Date.now() - turn.startedAt >= tokenLifetimeMs) {
        // Nowhere private to say it: the channel must not see it.
        throw new Error('the interaction token expired: the asker cannot be told privately');
      }
      const allowed_mentions = { parse: [], replied_user: false };
      await surfaces.client.rest.patch(Routes.webhookMessage(applicationId, interactionToken), {
        body: { ...first, allowed_mentions },
        auth: false,
      });
      for (const part of rest)
        await surfaces.client.rest.post(Routes.webhook(applicationId, interactionToken), {
          body: { ...part, flags: MessageFlags.Ephemeral, allowed_mentions },
          auth: false,
        });
    },
  };
}

/** A reply as the asker sees it: an answer with Share, a note that only they see it. */
function renderPrivateReply(surfaces: DiscordSurfaces, reply: Reply): MessagePart[] {
  const parts = renderReply(reply, { messageContentIntent: surfaces.messageContentIntent });
  const last = parts.at(-1);
  if (!last) return parts;
  const footer =
    reply.kind === 'answer'
      ? privateAnswerFooterText
      : reply.kind === 'clarification'
        ? privateClarificationFooterText
        : undefined;
  if (footer) {
    const note = `\n-# ${footer}`;
    if (last.content.length + note.length <= messageLimit) last.content += note;
  }
  if (reply.kind === 'answer') last.components = [...last.components, shareRow(reply.answer.id)];
  return parts;
}

function shareRow(answerId: string): APIActionRowComponent<APIButtonComponent> {
  return {
    type: ComponentType.ActionRow,
    components: [
      {
        type: ComponentType.Button,
        style: ButtonStyle.Primary,
        custom_id: `${sharePrefix}${answerId}`.slice(0, 100),
        label: shareButtonText,
      },
    ],
  };
}

/** Share: acknowledged at once (the private message is then edited, or the presser told privately). */
export async function handleShareButton(
  context: DiscordContext,
  interaction: ButtonInteraction,
): Promise<void> {
  await interaction.deferUpdate();
  const tell = (content: string) =>
    interaction.followUp({ content, flags: MessageFlags.Ephemeral, allowedMentions: noMentions });
  const answerId = interaction.customId.slice(sharePrefix.length);
  const outcome = await claimShare(context.services.coordination, {
    platform: 'discord',
    workspace: interaction.guildId ?? 'dm',
    user: interaction.user.id,
    answerId,
  });
  switch (outcome.kind) {
    case 'already-shared':
      await tell(alreadySharedText);
      return;
    case 'not-yours':
      await tell(shareNotYoursText);
      return;
    case 'gone':
      await tell(shareGoneText);
      return;
    case 'share':
      break;
  }
  try {
    await postShared(context.surfaces.client, outcome.shared);
  } catch (error) {
    const { status, code } = error as { status?: number; code?: number | string };
    context.logger.error({ status, code, answerId }, 'could not share the answer');
    // The share is claimed: a second press would say "already shared". Say what happened instead.
    await tell(shareFailedText(toRagentError(error).message));
    return;
  }
  context.logger.info({ answerId, channelId: outcome.shared.asker.channel }, 'private answer shared');
  // The private message keeps the answer, without the Share button, and says it was shared.
  const message = interaction.message;
  const note = `\n-# ✅ ${sharedNoteText}`;
  const content = message.content.replace(/\n-# [^\n]*$/, '');
  await interaction
    .editReply({
      content: content.length + note.length <= messageLimit ? `${content}${note}` : content,
      components: message.components
        .map((row) => row.toJSON())
        .filter((row) => !JSON.stringify(row).includes(sharePrefix)) as never,
      allowedMentions: noMentions,
    })
    .catch((error: unknown) =>
      context.logger.debug(
        { status: (error as { status?: number }).status },
        'could not mark the answer shared',
      ),
    );
}

/** The credit line and the answer, with its sources and 👍/👎, in the channel or thread it was asked in. */
async function postShared(client: Client, shared: SharedAnswer): Promise<void> {
  const channel = await client.channels.fetch(shared.asker.channel, { allowUnknownGuild: true });
  if (!channel?.isSendable()) throw new Error(`channel ${shared.asker.channel} is gone or not writable`);
  // A mention shows the asker's name; `allowedMentions: none` keeps it from pinging them.
  const credit = askedText(
    `<@${shared.asker.user}>`,
    literalText(shortenText(shared.question, maxSharedQuestion)),
  );
  const parts = renderAnswer(shared.answer);
  const [first] = parts;
  if (first && credit.length + 2 + first.content.length <= messageLimit)
    first.content = `${credit}\n\n${first.content}`;
  else parts.unshift({ content: credit, embeds: [], components: [] });
  for (const part of parts) await channel.send({ ...part, allowedMentions: noMentions });
}
