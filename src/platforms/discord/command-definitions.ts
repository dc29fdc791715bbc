/**
 * The command table (src/commands/command-table.ts) in the JSON Discord expects. `ragent discord
 * register` sends this to Discord, the adapter answers it, and the tests check both against it.
 */
import {
  type APIApplicationCommandBasicOption,
  ApplicationCommandOptionType,
  ApplicationCommandType,
  ApplicationIntegrationType,
  ChannelType,
  InteractionContextType,
  PermissionFlagsBits,
  type RESTPostAPIChatInputApplicationCommandsJSONBody,
  type RESTPostAPIContextMenuApplicationCommandsJSONBody,
} from 'discord.js';
import {
  type ArgumentKind,
  type ArgumentSpec,
  type ChannelKind,
  commandTable,
  rootCommandName,
} from '../../commands/command-table.ts';
import { commandDescriptions } from '../../turns/messages-en.ts';
import { discordTerms } from './discord-text.ts';

export const commandName = rootCommandName;
export const discordCommands = commandTable(discordTerms);
const [subcommandSpecs, ownCommandSpecs] = [
  discordCommands.filter((command) => !command.gatedByPlatform),
  discordCommands.filter((command) => command.gatedByPlatform),
];
// The options other handlers read by name (ingest, ask: their own slices' code).
export const ingestFileOption = 'file';
export const ingestUrlOption = 'url';
export const ingestTargetOption = 'for';
export const askQuestionOption = 'question';

const optionTypes: Record<ArgumentKind, ApplicationCommandOptionType> = {
  text: ApplicationCommandOptionType.String,
  choice: ApplicationCommandOptionType.String,
  channel: ApplicationCommandOptionType.Channel,
  mentionable: ApplicationCommandOptionType.Mentionable,
  integer: ApplicationCommandOptionType.Integer,
  file: ApplicationCommandOptionType.Attachment,
};
const channelTypes: Record<ChannelKind, ChannelType> = {
  text: ChannelType.GuildText,
  announcement: ChannelType.GuildAnnouncement,
  forum: ChannelType.GuildForum,
};

function option(spec: ArgumentSpec): APIApplicationCommandBasicOption {
  return {
    type: optionTypes[spec.kind],
    name: spec.name,
    description: spec.description,
    required: spec.required,
    ...(spec.choices && { choices: spec.choices.map(({ label, value }) => ({ name: label, value })) }),
    ...(spec.maxLength && { max_length: spec.maxLength }),
    ...(spec.min !== undefined && { min_value: spec.min }),
    ...(spec.max !== undefined && { max_value: spec.max }),
    ...(spec.channelKinds && { channel_types: spec.channelKinds.map((kind) => channelTypes[kind]) }),
  } as APIApplicationCommandBasicOption;
}

// Documents belong to a server: the commands are offered in servers only, never in DMs.
const inServers = {
  contexts: [InteractionContextType.Guild],
  integration_types: [ApplicationIntegrationType.GuildInstall],
};

export const ragentCommand: RESTPostAPIChatInputApplicationCommandsJSONBody = {
  type: ApplicationCommandType.ChatInput,
  name: commandName,
  description: commandDescriptions(discordTerms).ragent,
  ...inServers,
  options: subcommandSpecs.map((command) => ({
    type: ApplicationCommandOptionType.Subcommand,
    name: command.name,
    description: command.description,
    ...(command.arguments.length > 0 && { options: command.arguments.map(option) }),
  })),
};

/**
 * A gated command is one of its own (`/ragent-report`): Discord sets default permissions per top-level
 * command only, and `/ragent` is for everyone, while these are for Manage Server by default (a server's
 * admins can grant them to others in the server's Integrations settings).
 */
const ownCommands: RESTPostAPIChatInputApplicationCommandsJSONBody[] = ownCommandSpecs.map((command) => ({
  type: ApplicationCommandType.ChatInput,
  name: `${commandName}-${command.name}`,
  description: command.description,
  ...inServers,
  default_member_permissions: String(PermissionFlagsBits.ManageGuild),
  options: command.arguments.map(option),
}));
export const [reportCommand] = ownCommands as [RESTPostAPIChatInputApplicationCommandsJSONBody];

export const askMessageCommandName = 'Ask ragent';

/**
 * "Ask ragent" in a message's Apps menu (a message context-menu command): ragent answers that
 * message in a thread started from it (or in its thread).
 */
export const askMessageCommand: RESTPostAPIContextMenuApplicationCommandsJSONBody = {
  type: ApplicationCommandType.Message,
  name: askMessageCommandName,
  ...inServers,
};

/** Every command the application has. */
export const applicationCommands = [ragentCommand, ...ownCommands, askMessageCommand];
