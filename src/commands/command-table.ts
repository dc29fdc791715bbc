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

type Argument = Omit<ArgumentSpec, 'description' | 'required'> & { required?: boolean };
type Command = Omit<CommandSpec, 'description' | 'arguments'> & { arguments?: Argument[] };

export function commandTable(terms: PlatformTerms): readonly CommandSpec[] {
  const words = commandDescriptions(terms);
  const described: Readonly<Record<string, string | undefined>> = words;
  const placeName = terms.placeName ?? terms.place.replace(/^this\s+/, '');
  const sets = [
    { value: 'channel', label: words.thisChannel },
    { value: placeName, label: words.wholePlace },
  ];
  const name: Argument = { name: 'name', kind: 'text', required: true, maxLength: 200 };
  const linked: Argument = {
    name: 'channel',
    kind: 'channel',
    required: true,
    channelKinds: ['text', 'announcement', 'forum'],
  };
  const onOff = (value: string, ...more: string[]) => ({ value, label: value, words: [value, ...more] });
  const commands: Command[] = [
    {
      name: 'ingest',
      arguments: [
        { name: 'file', kind: 'file' },
        { name: 'url', kind: 'text', maxLength: 2000 },
        { name: 'for', kind: 'choice', choices: sets },
      ],
    },
    { name: 'docs', aliases: ['documents', 'list'] },
    { name: 'forget', aliases: ['remove'], arguments: [name], usage: forgetUsageText },
    {
      name: 'move',
      arguments: [name, { name: 'to', kind: 'choice', required: true, choices: sets, keyword: 'to' }],
      usage: moveUsageText,
    },
    { name: 'use', arguments: [linked], usage: useUsageText },
    { name: 'unuse', arguments: [linked], usage: useUsageText },
    { name: 'help' },
    {
      name: 'autoanswer',
      arguments: [
        {
          name: 'state',
          kind: 'choice',
          required: true,
          choices: [
            onOff('on', 'yes', 'true', 'enable', 'enabled'),
            onOff('off', 'no', 'false', 'disable', 'disabled'),
          ],
        },
        { name: 'channel', kind: 'channel', channelKinds: ['text', 'forum', 'announcement'] },
      ],
      usage: (given) => autoAnswerUsageText(given.autoAnswerUsage ?? '`/ragent autoanswer on|off`'),
    },
    { name: 'ask', arguments: [{ name: 'question', kind: 'text', required: true, maxLength: 2000 }] },
    {
      name: 'handoff',
      arguments: [{ name: 'target', kind: 'mentionable', clearWord: 'off' }],
      usage: () => handOffUsageText,
    },
    {
      name: 'report',
      gatedByPlatform: true,
      arguments: [{ name: 'days', kind: 'integer', min: 1, max: maxChatReportDays }],
    },
  ];
  return commands.map((command) => ({
    ...command,
    description: described[command.name] ?? '',
    arguments: (command.arguments ?? []).map((argument) => ({
      required: false,
      ...argument,
      description: described[`${command.name}.${argument.name}`] ?? '',
    })),
  }));
}

/** The command a name (or alias) stands for. */
export function findCommand(table: readonly CommandSpec[], word: string): CommandSpec | undefined {
  const name = word.toLowerCase();
  return table.find((command) => command.name === name || command.aliases?.includes(name));
}
