/**
 * Discord's terms and the Discord formatting of shared words; everything else comes from the
 * messages module.
 */
import { escapeMarkdown } from 'discord.js';
import { toRagentError } from '../../errors.ts';
import type { PlatformTerms } from '../../turns/messages-en.ts';

/** How Discord people call its places, permissions and commands. */
export const discordTerms: PlatformTerms = {
  place: 'this server',
  admin: 'a member with Manage Server (or Manage Channels, for a channel’s documents)',
  ingestCommand: '`/ragent ingest file: for:` (or `url:` for a web page)',
  docsCommand: '`/ragent docs`',
  forgetCommand: '`/ragent forget name:`',
  useCommand: '`/ragent use channel:` (`unuse` to undo)',
  moveCommand: '`/ragent move name: to:`',
  placeName: 'server',
  placeAdmin: 'a member with Manage Server',
  channelAdmin: 'a member with Manage Channels',
  placeRole: 'Manage Server',
  channelRole: 'Manage Channels',
  groupName: 'role',
  autoAnswerCommand: '`/ragent autoanswer state:`',
  // Discord withholds the text of messages that do not mention the bot without this intent.
  cannotReadUnmentionedText:
    '⚠️ But I cannot read messages that do not mention me: the bot owner must tick “Message Content Intent” in the developer portal (Bot page) and set DISCORD_MESSAGE_CONTENT=true.',
};

/** A failure as a person should read it: what went wrong and what to do. */
export function errorText(error: unknown): string {
  return `⚠️ ${toRagentError(error).message}`;
}

/**
 * Text shown exactly as it is (a file name, an uploader): discord.js escapes emphasis, code and
 * spoilers, but not masked links or angle brackets, so a file named `[Verify](https://evil.example)
 * notice.pdf` would otherwise become a live link in a message or an embed.
 */
export function literalText(text: string): string {
  return escapeMarkdown(text).replace(/[[\]()<>]/g, '\\$&');
}
