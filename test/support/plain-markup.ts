/**
 * A plain chat markup for core tests: names escaped with backslashes, one-character icons, and terms of
 * a made-up platform ("this team"), so that what the core writes is checked apart from any platform's.
 */
import type { ChatMarkup } from '../../src/turns/chat-markup.ts';

export const plainMarkup: ChatMarkup = {
  literal: (text) => text.replace(/[*`<>#]/g, '\\$&'),
  bold: (text) => `*${text}*`,
  code: (text) => `\`${text}\``,
  channel: (id) => `#${id}`,
  icons: { warning: '!', removed: '-', moved: '>', done: '+' },
  terms: {
    place: 'this team',
    admin: 'a team admin',
    ingestCommand: '`/ragent ingest`',
    docsCommand: '`/ragent docs`',
    forgetCommand: '`/ragent forget <name>`',
    useCommand: '`/ragent use ~channel`',
    moveCommand: '`/ragent move <name> to channel|team`',
    channelAdmin: 'a channel admin',
    cannotReadUnmentionedText: 'But I cannot read unmentioned messages.',
  },
  mention: (target) => (target.startsWith('@') ? target : undefined),
};
