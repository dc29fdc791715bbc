/** How Slack's mrkdwn writes the core's replies (see turns/chat-markup). */
import type { ChatMarkup } from '../../turns/chat-markup.ts';
import type { PlatformTerms } from '../../turns/messages-en.ts';
import { safeMrkdwn } from './slack-text.ts';

/** How Slack people call its places and commands. */
export const slackTerms: PlatformTerms = {
  place: 'this workspace',
  admin: 'a workspace admin',
  ingestCommand:
    '`/ragent ingest` (a form opens where you attach them; or share files in a message that mentions me with the word _ingest_), or `/ragent ingest <url>` for a web page',
  docsCommand: '`/ragent docs`',
  forgetCommand: '`/ragent forget <name>`',
  useCommand: '`/ragent use #channel` (`unuse` to undo)',
  moveCommand: '`/ragent move <name> to channel|workspace`',
};

export const slackMarkup: ChatMarkup = {
  literal: safeMrkdwn,
  bold: (text) => `*${text}*`,
  code: (text) => `\`${text}\``,
  channel: (id) => `<#${id}>`,
  icons: { warning: ':warning:', removed: ':wastebasket:', moved: ':package:', done: ':white_check_mark:' },
  terms: slackTerms,
  link: (url, text) => `<${url}|${text}>`,
};
