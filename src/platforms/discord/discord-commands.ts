/**
 * Discord's side of the chat commands (src/commands/): reads an interaction's options by the command
 * table's kinds into a request, runs it, and edits the deferred private reply with the text. Every
 * decision and every word is the command's.
 */
import { ChannelType, type ChatInputCommandInteraction, MessageFlags } from 'discord.js';
import type { ArgumentValues, CommandPlace, CommandRequest } from '../../commands/command-request.ts';
import type { CommandSpec } from '../../commands/command-table.ts';
import { helpText } from '../../commands/help-command.ts';
import { runCommand } from '../../commands/run-command.ts';
import { encodeId } from '../../core/ids.ts';
import { discordActor } from './discord-admins.ts';
import { noMentions, replyPrivately } from './discord-client.ts';
import type { DiscordContext } from './discord-context.ts';
import { discordMarkup } from './discord-markup.ts';
import { channelScope, guildScope, interactionSetChannel } from './discord-scopes.ts';
import { messageLimit } from './render-answer.ts';

/** The kinds of channel whose messages or posts can be auto-answered. */
const { GuildText, GuildForum, GuildAnnouncement } = ChannelType;
const answerableTypes = new Set<ChannelType>([GuildText, GuildForum, GuildAnnouncement]);

export async function runDiscordCommand(
  context: DiscordContext,
  interaction: ChatInputCommandInteraction,
  command: CommandSpec,
): Promise<void> {
  const readsEveryMessage = context.services.config.discord.messageContentIntent;
  // Acknowledged before any I/O (Discord allows 3 seconds); help has its text at once.
  if (command.name === 'help') {
    await replyPrivately(interaction, helpText(discordMarkup, readsEveryMessage));
    // In a DM there is no channel whose auto-answer line would follow.
    if (!interaction.inGuild()) return;
  } else await interaction.deferReply({ flags: MessageFlags.Ephemeral });
  if (!interaction.inGuild()) throw new Error('a server command outside a server');
  const values = readArguments(interaction, command);
  const content = values
    ? await runCommand(command.name, await commandRequest(context, interaction, values), context.services)
    : (command.usage?.(discordMarkup.terms) ?? '');
  await interaction.editReply({ content, allowedMentions: noMentions });
}

/** The options by the table's kinds; undefined when one is not what the command takes. */
function readArguments(
  interaction: ChatInputCommandInteraction,
  command: CommandSpec,
): ArgumentValues | undefined {
  const values: Record<string, string | number | null | undefined> = {};
  for (const argument of command.arguments) {
    const option = interaction.options.get(argument.name);
    if (argument.kind !== 'mentionable') {
      const value = option?.value;
      values[argument.name] = typeof value === 'boolean' ? String(value) : value;
      continue;
    }
    // Stored with its kind (`role:<id>` / `user:<id>`); left out: nobody (back to the default).
    const target = option?.role ? `role:${option.role.id}` : option?.user ? `user:${option.user.id}` : null;
    if (option && !target) return undefined;
    values[argument.name] = target;
  }
  return values;
}

async function commandRequest(
  context: DiscordContext,
  interaction: ChatInputCommandInteraction<'cached' | 'raw'>,
  values: ArgumentValues,
): Promise<CommandRequest> {
  const { guildId, client } = interaction;
  const channelId = await interactionSetChannel(client, interaction);
  const { config } = context.services;
  const place: CommandPlace = {
    sets: { channel: channelScope(guildId, channelId), place: guildScope(guildId), placeName: 'server' },
    channelId,
    inDirectMessage: false,
    channelScope: (id) => channelScope(guildId, id),
    lookUpChannel: async (id) => {
      const found = await client.channels.fetch(id).catch(() => null);
      const guild = found && 'guildId' in found && found.guildId ? found.guildId : undefined;
      return {
        // A channel of another server (or one the bot cannot see) gets a scope of another place.
        scope: channelScope(guild ?? 'unknown', id),
        inPlace: guild === guildId,
        answerable: found !== null && answerableTypes.has(found.type),
      };
    },
    readsEveryMessage: config.discord.messageContentIntent,
    platform: 'discord',
    handOffDefault: config.discord.handOff,
  };
  const actor = discordActor(context, interaction, encodeId('discord', [interaction.user.id]));
  return { actor, place, arguments: values, markup: discordMarkup, maxLength: messageLimit };
}
