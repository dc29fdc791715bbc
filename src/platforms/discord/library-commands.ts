/**
 * `/ragent docs`, `/ragent forget name:`, `/ragent move name: to:`, `/ragent use`/`unuse` and `/ragent help` (the logic is shared: see
 * turns/document-commands). Each replies or defers before any I/O.
 */
import { type ChatInputCommandInteraction, MessageFlags } from 'discord.js';
import { encodeId } from '../../core/ids.ts';
import type { DocumentRecord } from '../../core/types.ts';
import { linkChannel, unlinkChannel, withLinks } from '../../turns/channel-links.ts';
import {
  forgetDocument,
  groupBySet,
  listDocuments,
  moveDocument,
  type PlaceSets,
  scopesOfSets,
  setOfScope,
} from '../../turns/document-commands.ts';
import { parseIngestTarget } from '../../turns/ingest-target.ts';
import { linkDeniedText, linkedText, unlinkedText } from '../../turns/messages-en.ts';
import { withAutoAnswerStatus } from './auto-answer-command.ts';
import {
  forgetNameOption,
  linkChannelOption,
  moveNameOption,
  moveTargetOption,
} from './command-definitions.ts';
import { isChannelAdmin, isServerAdmin } from './discord-admins.ts';
import { noMentions, replyPrivately } from './discord-client.ts';
import type { DiscordContext } from './discord-context.ts';
import { channelScope, guildScope, interactionSetChannel } from './discord-scopes.ts';
import {
  documentListText,
  forgetDeniedText,
  forgottenText,
  helpText,
  movedDocumentText,
} from './discord-text.ts';
import { messageLimit } from './render-answer.ts';

export async function runDocsCommand(
  context: DiscordContext,
  interaction: ChatInputCommandInteraction<'cached' | 'raw'>,
): Promise<void> {
  await interaction.deferReply({ flags: MessageFlags.Ephemeral });
  const sets = await withLinks(context.services.coordination, await placeSets(interaction), context.logger);
  const documents = await listDocuments(context.services.ingestion, scopesOfSets(sets));
  await interaction.editReply({
    content: await withAutoAnswerStatus(
      context,
      interaction,
      documentListText(groupBySet(documents, sets), messageLimit - 200),
    ),
    allowedMentions: noMentions,
  });
}

/**
 * `/ragent move name: to:` — between this channel's set and the server's, with forget's permission
 * rule: the person who added it, Manage Server, or (for a document now in this channel's set) Manage
 * Channels.
 */
export async function runMoveCommand(
  context: DiscordContext,
  interaction: ChatInputCommandInteraction<'cached' | 'raw'>,
): Promise<void> {
  await interaction.deferReply({ flags: MessageFlags.Ephemeral });
  const sets = await placeSets(interaction);
  const outcome = await moveDocument(context.services.ingestion, {
    idOrName: interaction.options.getString(moveNameOption, true),
    sets,
    to: parseIngestTarget(interaction.options.getString(moveTargetOption, true), 'channel'),
    uploader: encodeId('discord', [interaction.user.id]),
    isAdmin: managesDocument(context, interaction, sets),
    logger: context.logger,
  });
  await interaction.editReply({ content: movedDocumentText(outcome), allowedMentions: noMentions });
}

export async function runForgetCommand(
  context: DiscordContext,
  interaction: ChatInputCommandInteraction<'cached' | 'raw'>,
): Promise<void> {
  // First: reading the index may take longer than Discord's 3 seconds.
  await interaction.deferReply({ flags: MessageFlags.Ephemeral });
  const sets = await placeSets(interaction);
  const outcome = await forgetDocument(context.services.ingestion, {
    idOrName: interaction.options.getString(forgetNameOption, true),
    scopes: [sets.channel ?? sets.place, sets.place],
    uploader: encodeId('discord', [interaction.user.id]),
    isAdmin: managesDocument(context, interaction, sets),
    logger: context.logger,
  });
  await interaction.editReply({
    content:
      outcome.kind === 'denied'
        ? forgetDeniedText(outcome.document)
        : forgottenText(outcome.document, setOfScope(outcome.document.scope, sets)),
    allowedMentions: noMentions,
  });
}

/**
 * Who may forget or move a document they did not add: a channel's set takes Manage Channels (in this
 * channel) or Manage Server; the server's set, Manage Server.
 */
function managesDocument(
  context: DiscordContext,
  interaction: ChatInputCommandInteraction<'cached' | 'raw'>,
  sets: PlaceSets,
): (document: DocumentRecord) => Promise<boolean> {
  return async (document) =>
    isServerAdmin(context, interaction) ||
    (document.scope === sets.channel && isChannelAdmin(context, interaction));
}

/** The sets a command in this channel (a thread: its parent channel) works on. */
export async function placeSets(
  interaction: ChatInputCommandInteraction<'cached' | 'raw'>,
): Promise<PlaceSets> {
  const channel = await interactionSetChannel(interaction.client, interaction);
  return {
    channel: channelScope(interaction.guildId, channel),
    place: guildScope(interaction.guildId),
    placeName: 'server',
  };
}

/**
 * `/ragent use channel:` / `unuse channel:` (Manage Channels or Manage Server): this channel (a
 * thread: its parent) also searches that channel's set. Only a channel of this server is accepted.
 */
export async function runUseCommand(
  context: DiscordContext,
  interaction: ChatInputCommandInteraction<'cached' | 'raw'>,
  link: boolean,
): Promise<void> {
  await interaction.deferReply({ flags: MessageFlags.Ephemeral });
  const say = (content: string) => interaction.editReply({ content, allowedMentions: noMentions });
  if (!isChannelAdmin(context, interaction)) {
    await say(`⚠️ ${linkDeniedText('a member with Manage Channels or Manage Server')}`);
    return;
  }
  const sets = await placeSets(interaction);
  const targetId = String(interaction.options.get(linkChannelOption, true).value);
  const target = await interaction.client.channels.fetch(targetId).catch(() => null);
  // A channel of another server (or one the bot cannot see) gets a scope of another place: refused.
  const targetGuild = target && 'guildId' in target && target.guildId ? target.guildId : 'unknown';
  // Unlinking needs no lookup: a deleted channel's link can still be removed.
  const linked = channelScope(link ? targetGuild : interaction.guildId, targetId);
  const channel = sets.channel ?? sets.place;
  const shown = `<#${targetId}>`;
  const { coordination } = context.services;
  await say(
    link
      ? linkedText(
          shown,
          await linkChannel(coordination, { channel, linked, placeName: 'server', logger: context.logger }),
        )
      : unlinkedText(shown, await unlinkChannel(coordination, { channel, linked, logger: context.logger })),
  );
}

export async function runHelpCommand(
  context: DiscordContext,
  interaction: ChatInputCommandInteraction,
): Promise<void> {
  const text = helpText(context.services.config.discord.messageContentIntent);
  await replyPrivately(interaction, text);
  // The channel's auto-answer line follows: it is read from the store, after the acknowledgement.
  if (interaction.inGuild())
    await interaction.editReply({
      content: await withAutoAnswerStatus(context, interaction, text),
      allowedMentions: noMentions,
    });
}
