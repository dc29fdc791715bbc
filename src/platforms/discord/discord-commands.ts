/**
 * Discord's side of the chat commands (src/commands/): reads an interaction's options by the command
 * table's kinds into a request, runs it through `runCommandRequest`, which edits the deferred private
 * reply with the text (or a failure's warning). Every decision and every word is the command's.
 */
import { ChannelType, type ChatInputCommandInteraction, MessageFlags } from 'discord.js';
import { commandPlace } from '../../commands/command-place.ts';
import type { ArgumentValues, CommandRequest } from '../../commands/command-request.ts';
import type { CommandSpec } from '../../commands/command-table.ts';
import { helpText } from '../../commands/help-command.ts';
import { runCommand } from '../../commands/run-command.ts';
import { runCommandRequest } from '../../commands/run-command-request.ts';
import { encodeId } from '../../core/ids.ts';
import { discordActor } from './discord-admins.ts';
import { noMentions, replyPrivately } from './discord-client.ts';
import type { DiscordContext } from './discord-context.ts';
import { discordMarkup } from './discord-markup.ts';
import { channelScope, discordPlaces, interactionPlace } from './discord-scopes.ts';
import { messageLimit } from './render-answer.ts';

/** The kinds of channel whose messages or posts can be auto-answered. */
const { GuildText, GuildForum, GuildAnnouncement } = ChannelType;
const answerableTypes = new Set<ChannelType>([GuildText, GuildForum, GuildAnnouncement]);

export async function runDiscordCommand(
  context: DiscordContext,
  interaction: ChatInputCommandInteraction,
  command: CommandSpec,
): Promise<void> {
  // Acknowledged before any I/O (Discord allows 3 seconds); help has its text at once.
  if (command.name === 'help') {
    const readsEveryMessage = context.services.config.discord.messageContentIntent;
    await replyPrivately(interaction, helpText(discordMarkup, readsEveryMessage));
    // In a DM there is no channel whose auto-answer line would follow.
    if (!interaction.inGuild()) return;
  } else await interaction.deferReply({ flags: MessageFlags.Ephemeral });
  const replies = {
    reply: (content: string) => interaction.editReply({ content, allowedMentions: noMentions }),
    markup: discordMarkup,
    logger: context.logger,
    reference: `/${interaction.commandName} ${interaction.id}`,
  };
  const run = async () => {
    const values = readArguments(interaction, command);
    if (!values) return command.usage?.(discordMarkup.terms) ?? '';
    return runCommand(command.name, await commandRequest(context, interaction, values), context.services);
  };
  await runCommandRequest(run, replies);
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
  interaction: ChatInputCommandInteraction,
  values: ArgumentValues,
): Promise<CommandRequest> {
  const { client } = interaction;
  const at = await interactionPlace(interaction);
  const { config } = context.services;
  const place = commandPlace(discordPlaces, at, {
    lookUpChannel: async (id) => {
      const found = await client.channels.fetch(id).catch(() => null);
      const guild = found && 'guildId' in found && found.guildId ? found.guildId : undefined;
      return {
        // A channel of another server (or one the bot cannot see) gets a scope of another place.
        scope: channelScope(guild ?? 'unknown', id),
        inPlace: guild === at.place,
        answerable: found !== null && answerableTypes.has(found.type),
      };
    },
    readsEveryMessage: config.discord.messageContentIntent,
    handOffDefault: config.discord.handOff,
  });
  const actor = discordActor(context, interaction, encodeId('discord', [interaction.user.id]));
  return { actor, place, arguments: values, markup: discordMarkup, maxLength: messageLimit };
}
