/**
 * The `/ragent` slash command, in the JSON Discord expects. `ragent discord register` sends this to
 * Discord, the adapter answers it, and the tests check both against this one definition.
 */
import {
  type APIApplicationCommandChannelOption,
  ApplicationCommandOptionType,
  ApplicationCommandType,
  ApplicationIntegrationType,
  ChannelType,
  InteractionContextType,
  PermissionFlagsBits,
  type RESTPostAPIChatInputApplicationCommandsJSONBody,
  type RESTPostAPIContextMenuApplicationCommandsJSONBody,
} from 'discord.js';
import { maxChatReportDays } from '../../operators/place-report.ts';

export const commandName = 'ragent';

export const subcommands = {
  ingest: 'ingest',
  docs: 'docs',
  forget: 'forget',
  move: 'move',
  use: 'use',
  unuse: 'unuse',
  help: 'help',
  autoanswer: 'autoanswer',
  ask: 'ask',
  handoff: 'handoff',
} as const;

export const ingestFileOption = 'file';
/** A web page to add instead of (or with) a file: fetched under the chat's address guard. */
export const ingestUrlOption = 'url';
/** Which set the file goes to: this channel's or the whole server's (default: RAGENT_INGEST_DEFAULT_SET). */
export const ingestTargetOption = 'for';
export const forgetNameOption = 'name';
/** `move`: the document (`name`, as for forget) and the set it goes to. */
export const moveNameOption = 'name';
export const moveTargetOption = 'to';
/** The channel whose documents `use` / `unuse` links or unlinks. */
export const linkChannelOption = 'channel';
/** `autoanswer state:on|off channel:` — the channel (default: this one; in a thread or forum post, its parent). */
export const autoAnswerStateOption = 'state';
export const autoAnswerChannelOption = 'channel';
/** `ask`: the question answered privately. */
export const askQuestionOption = 'question';
/** `handoff`: the role or person who follows up here; without it, the channel's own choice is cleared. */
export const handOffTargetOption = 'target';

const linkChannelDefinition: APIApplicationCommandChannelOption = {
  type: ApplicationCommandOptionType.Channel,
  name: linkChannelOption,
  description: 'A channel of this server',
  required: true,
  channel_types: [ChannelType.GuildText, ChannelType.GuildAnnouncement, ChannelType.GuildForum],
};

export const ragentCommand: RESTPostAPIChatInputApplicationCommandsJSONBody = {
  type: ApplicationCommandType.ChatInput,
  name: commandName,
  description: "Ask and manage this server's documents",
  // Documents belong to a server: the command is offered in servers only, never in DMs.
  contexts: [InteractionContextType.Guild],
  integration_types: [ApplicationIntegrationType.GuildInstall],
  options: [
    {
      type: ApplicationCommandOptionType.Subcommand,
      name: subcommands.ingest,
      description: "Add a file or web page to this channel's or this server's documents",
      options: [
        {
          type: ApplicationCommandOptionType.Attachment,
          name: ingestFileOption,
          description: 'The file to add (PDF, Office, CSV, HTML, e-mail, image…)',
          required: false,
        },
        {
          type: ApplicationCommandOptionType.String,
          name: ingestUrlOption,
          description: 'A web page to add (an http or https address)',
          required: false,
          max_length: 2000,
        },
        {
          type: ApplicationCommandOptionType.String,
          name: ingestTargetOption,
          description: 'Who can search it: this channel or the whole server (default set by the bot owner)',
          required: false,
          choices: [
            { name: 'this channel', value: 'channel' },
            { name: 'the whole server', value: 'server' },
          ],
        },
      ],
    },
    {
      type: ApplicationCommandOptionType.Subcommand,
      name: subcommands.docs,
      description: 'List the documents this channel can search, by set',
    },
    {
      type: ApplicationCommandOptionType.Subcommand,
      name: subcommands.forget,
      description: "Remove a document from this channel's or this server's documents",
      options: [
        {
          type: ApplicationCommandOptionType.String,
          name: forgetNameOption,
          description: 'The file name (or id) of the document, as /ragent docs lists it',
          required: true,
          max_length: 200,
        },
      ],
    },
    {
      type: ApplicationCommandOptionType.Subcommand,
      name: subcommands.move,
      description: "Move a document between this channel's documents and this server's",
      options: [
        {
          type: ApplicationCommandOptionType.String,
          name: moveNameOption,
          description: 'The file name (or id) of the document, as /ragent docs lists it',
          required: true,
          max_length: 200,
        },
        {
          type: ApplicationCommandOptionType.String,
          name: moveTargetOption,
          description: 'Where it goes: this channel only, or the whole server',
          required: true,
          choices: [
            { name: 'this channel', value: 'channel' },
            { name: 'the whole server', value: 'server' },
          ],
        },
      ],
    },
    {
      type: ApplicationCommandOptionType.Subcommand,
      name: subcommands.use,
      description: "Also search another channel's documents here (Manage Channels or Manage Server)",
      options: [linkChannelDefinition],
    },
    {
      type: ApplicationCommandOptionType.Subcommand,
      name: subcommands.unuse,
      description: "Stop searching another channel's documents here",
      options: [linkChannelDefinition],
    },
    {
      type: ApplicationCommandOptionType.Subcommand,
      name: subcommands.help,
      description: 'How to use ragent',
    },
    {
      type: ApplicationCommandOptionType.Subcommand,
      name: subcommands.autoanswer,
      description: 'Answer questions posted in a channel or forum without a mention (Manage Channels)',
      options: [
        {
          type: ApplicationCommandOptionType.String,
          name: autoAnswerStateOption,
          description: 'on: questions posted there are answered in a thread (a forum: in the post)',
          required: true,
          choices: [
            { name: 'on', value: 'on' },
            { name: 'off', value: 'off' },
          ],
        },
        {
          type: ApplicationCommandOptionType.Channel,
          name: autoAnswerChannelOption,
          description: 'The channel or forum (default: this channel; in a thread or post, its parent)',
          required: false,
          channel_types: [ChannelType.GuildText, ChannelType.GuildForum, ChannelType.GuildAnnouncement],
        },
      ],
    },
    {
      type: ApplicationCommandOptionType.Subcommand,
      name: subcommands.ask,
      description: 'Ask privately: only you see the answer, until you share it',
      options: [
        {
          type: ApplicationCommandOptionType.String,
          name: askQuestionOption,
          description: 'Your question',
          required: true,
          max_length: 2000,
        },
      ],
    },
    {
      type: ApplicationCommandOptionType.Subcommand,
      name: subcommands.handoff,
      description: 'Who follows up on missed answers here (Manage Server); no target: back to the default',
      options: [
        {
          type: ApplicationCommandOptionType.Mentionable,
          name: handOffTargetOption,
          description: 'A role or a person',
          required: false,
        },
      ],
    },
  ],
};

export const reportCommandName = 'ragent-report';
/** `/ragent-report days:` — how many days back (default 7). */
export const reportDaysOption = 'days';

/**
 * The operator's report, a command of its own: Discord sets default permissions per top-level command
 * only, and `/ragent` is for everyone (help, docs), while the report is for Manage Server by default
 * (a server's admins can grant it to others in the server's Integrations settings).
 */
export const reportCommand: RESTPostAPIChatInputApplicationCommandsJSONBody = {
  type: ApplicationCommandType.ChatInput,
  name: reportCommandName,
  description: 'What this server asked ragent, what it missed, and documents no answer cited',
  contexts: [InteractionContextType.Guild],
  integration_types: [ApplicationIntegrationType.GuildInstall],
  default_member_permissions: String(PermissionFlagsBits.ManageGuild),
  options: [
    {
      type: ApplicationCommandOptionType.Integer,
      name: reportDaysOption,
      description: 'How many days back (default 7)',
      required: false,
      min_value: 1,
      max_value: maxChatReportDays,
    },
  ],
};

export const askMessageCommandName = 'Ask ragent';

/**
 * "Ask ragent" in a message's Apps menu (a message context-menu command): ragent answers that
 * message in a thread started from it (or in its thread).
 */
export const askMessageCommand: RESTPostAPIContextMenuApplicationCommandsJSONBody = {
  type: ApplicationCommandType.Message,
  name: askMessageCommandName,
  contexts: [InteractionContextType.Guild],
  integration_types: [ApplicationIntegrationType.GuildInstall],
};

/** Every command the application has. */
export const applicationCommands = [ragentCommand, reportCommand, askMessageCommand];
