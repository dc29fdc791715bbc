/**
 * Discord's side of the chat commands (src/commands/): reads which command an interaction names
 * (`/ragent <subcommand>`, or a command of its own: `/ragent-report`) and its options by the command table's
 * kinds, and gives the core's router (route-command.ts) its replies: help or a private defer at once,
 * then the reply edited in. Every decision and every word is the core's.
 */
import { ChannelType, type ChatInputCommandInteraction, MessageFlags } from 'discord.js';
import type { ArgumentValues } from '../../commands/command-request.ts';
import type { CommandSpec } from '../../commands/command-table.ts';
import { pickedCommand, routeCommand } from '../../commands/route-command.ts';
import { encodeId } from '../../core/ids.ts';
import { commandName, discordCommands } from './command-definitions.ts';
import { discordActor } from './discord-admins.ts';
import { noMentions, replyPrivately } from './discord-client.ts';
import type { DiscordContext } from './discord-context.ts';
import { discordMarkup } from './discord-markup.ts';
import { channelScope, discordPlaces, interactionPlace } from './discord-scopes.ts';
import { runIngestCommand } from './ingest-command.ts';
import { runAskCommand } from './private-ask.ts';
import { messageLimit } from './render-answer.ts';

/** The kinds of channel whose messages or posts can be auto-answered. */
const { GuildText, GuildForum, GuildAnnouncement } = ChannelType;
const answerableTypes = new Set<ChannelType>([GuildText, GuildForum, GuildAnnouncement]);

export async function runDiscordCommand(
  context: DiscordContext,
  interaction: ChatInputCommandInteraction,
): Promise<void> {
  const name =
    interaction.commandName === commandName
      ? interaction.options.getSubcommand()
      : interaction.commandName.replace(`${commandName}-`, '');
  await routeCommand({
    call: pickedCommand(discordCommands, name, 'ragent discord register', (command) =>
      readArguments(interaction, command),
    ),
    inPlace: interaction.inGuild(),
    replies: {
      reply: (content) => interaction.editReply({ content, allowedMentions: noMentions }),
      markup: discordMarkup,
      logger: context.logger,
      reference: `/${interaction.commandName} ${interaction.id}`,
    },
    // Before any I/O (Discord allows 3 seconds): help has its text at once, the rest a private defer.
    acknowledgement: {
      defer: () => interaction.deferReply({ flags: MessageFlags.Ephemeral }),
      answer: (text) => replyPrivately(interaction, text),
    },
    // The router runs these in a server only (documents belong to one).
    handlers: {
      ingest: async () => interaction.inGuild() && runIngestCommand(context, interaction),
      ask: async () => interaction.inGuild() && runAskCommand(context, interaction),
    },
    actor: () => discordActor(context, interaction, encodeId('discord', [interaction.user.id])),
    at: () => interactionPlace(interaction),
    places: discordPlaces,
    known: {
      lookUpChannel: (id) => lookUpChannel(interaction, id),
      readsEveryMessage: context.services.config.discord.messageContentIntent,
      handOffDefault: context.services.config.discord.handOff,
    },
    maxLength: messageLimit,
    services: context.services,
  });
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

/** A channel named in an option; one of another server (or one the bot cannot see) is of another place. */
async function lookUpChannel(interaction: ChatInputCommandInteraction, id: string) {
  const found = await interaction.client.channels.fetch(id).catch(() => null);
  const guild = found && 'guildId' in found && found.guildId ? found.guildId : undefined;
  return {
    scope: channelScope(guild ?? 'unknown', id),
    inPlace: guild === interaction.guildId,
    answerable: found !== null && answerableTypes.has(found.type),
  };
}
