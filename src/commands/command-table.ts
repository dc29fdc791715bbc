/**
 * Every chat command and its arguments, described once. A platform with a command picker (Discord)
 * maps this to its own JSON; a platform with text slash commands (Slack, Mattermost) parses what was
 * typed against it (parse-command-text.ts). The words come from the messages catalogue, in the
 * platform's terms (`this server`, `Manage Channels`).
 */
import { maxChatReportDays } from '../operators/place-report.ts';
import {
  autoAnswerUsageText,
  commandDescriptions,
  forgetUsageText,
  handOffUsageText,
  moveUsageText,
  type PlatformTerms,
  useUsageText,
} from '../turns/messages-en.ts';

export type ArgumentKind = 'text' | 'channel' | 'choice' | 'mentionable' | 'integer' | 'file';
/** The kinds of channel an argument accepts. */
export type ChannelKind = 'text' | 'announcement' | 'forum';

export interface ArgumentSpec {
  name: string;
  description: string;
  kind: ArgumentKind;
  required: boolean;
  /** `label` is shown in a picker; `words` are what a text command accepts for it (default: the value). */
  choices?: ReadonlyArray<{ value: string; label: string; words?: readonly string[] }>;
  maxLength?: number;
  min?: number;
  max?: number;
  channelKinds?: readonly ChannelKind[];
  /** In a text command, the word that comes before it (`move <name> to channel`). */
  keyword?: string;
  /** A mentionable's word for "nobody" in a text command (`handoff off`); a picker leaves it out instead. */
  clearWord?: string;
}

export interface CommandSpec {
  name: string;
  description: string;
  /** Other words a text command accepts for it (`documents`, `remove`). */
  aliases?: readonly string[];
  arguments: readonly ArgumentSpec[];
  /**
   * A command of its own rather than a subcommand, restricted by the platform's own permission setting
   * (Discord: Manage Server by default, which server admins can grant others). Text commands have no such
   * setting, so they do not offer it.
   */
  gatedByPlatform?: boolean;
  /** What to type, when an argument is missing or not understood. */
  usage?(terms: PlatformTerms): string;
}

export const rootCommandName = 'ragent';

export function commandTable(terms: PlatformTerms): readonly CommandSpec[] {
  const words = commandDescriptions(terms);
  const placeName = terms.placeName ?? terms.place.replace(/^this\s+/, '');
  const sets = [
    { value: 'channel', label: words.thisChannel },
    { value: placeName, label: words.wholePlace },
  ];
  const documentName: ArgumentSpec = {
    name: 'name',
    description: words.documentName,
    kind: 'text',
    required: true,
    maxLength: 200,
  };
  const linked: ArgumentSpec = {
    name: 'channel',
    description: words.linkChannel,
    kind: 'channel',
    required: true,
    channelKinds: ['text', 'announcement', 'forum'],
  };
  return [
    {
      name: 'ingest',
      description: words.ingest,
      arguments: [
        { name: 'file', description: words.ingestFile, kind: 'file', required: false },
        { name: 'url', description: words.ingestUrl, kind: 'text', required: false, maxLength: 2000 },
        { name: 'for', description: words.ingestFor, kind: 'choice', required: false, choices: sets },
      ],
    },
    { name: 'docs', description: words.docs, aliases: ['documents', 'list'], arguments: [] },
    {
      name: 'forget',
      description: words.forget,
      aliases: ['remove'],
      arguments: [documentName],
      usage: forgetUsageText,
    },
    {
      name: 'move',
      description: words.move,
      arguments: [
        documentName,
        {
          name: 'to',
          description: words.moveTo,
          kind: 'choice',
          required: true,
          choices: sets,
          keyword: 'to',
        },
      ],
      usage: moveUsageText,
    },
    { name: 'use', description: words.use, arguments: [linked], usage: useUsageText },
    { name: 'unuse', description: words.unuse, arguments: [linked], usage: useUsageText },
    { name: 'help', description: words.help, arguments: [] },
    {
      name: 'autoanswer',
      description: words.autoanswer,
      arguments: [
        {
          name: 'state',
          description: words.autoanswerState,
          kind: 'choice',
          required: true,
          choices: [
            { value: 'on', label: 'on', words: ['on', 'yes', 'true', 'enable', 'enabled'] },
            { value: 'off', label: 'off', words: ['off', 'no', 'false', 'disable', 'disabled'] },
          ],
        },
        {
          name: 'channel',
          description: words.autoanswerChannel,
          kind: 'channel',
          required: false,
          channelKinds: ['text', 'forum', 'announcement'],
        },
      ],
      usage: (given) => autoAnswerUsageText(given.autoAnswerUsage ?? '`/ragent autoanswer on|off`'),
    },
    {
      name: 'ask',
      description: words.ask,
      arguments: [
        { name: 'question', description: words.askQuestion, kind: 'text', required: true, maxLength: 2000 },
      ],
    },
    {
      name: 'handoff',
      description: words.handoff,
      arguments: [
        {
          name: 'target',
          description: words.handoffTarget,
          kind: 'mentionable',
          required: false,
          clearWord: 'off',
        },
      ],
      usage: () => handOffUsageText,
    },
    {
      name: 'report',
      description: words.report,
      gatedByPlatform: true,
      arguments: [
        {
          name: 'days',
          description: words.reportDays,
          kind: 'integer',
          required: false,
          min: 1,
          max: maxChatReportDays,
        },
      ],
    },
  ];
}

/** The command a name (or alias) stands for. */
export function findCommand(table: readonly CommandSpec[], word: string): CommandSpec | undefined {
  const name = word.toLowerCase();
  return table.find((command) => command.name === name || command.aliases?.includes(name));
}
