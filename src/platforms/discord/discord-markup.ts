/** How Discord's Markdown writes the core's replies (see turns/chat-markup). */
import type { ChatMarkup } from '../../turns/chat-markup.ts';
import { discordTerms, literalText } from './discord-text.ts';
import { discordHandOffMention } from './hand-off-line.ts';

export const discordMarkup: ChatMarkup = {
  literal: literalText,
  bold: (text) => `**${text}**`,
  code: (text) => `\`${text}\``,
  channel: (id) => `<#${id}>`,
  icons: { warning: '⚠️', removed: '🗑️', moved: '📦', done: '✅' },
  terms: discordTerms,
  // Shows the name; every message the bot sends allows no mentions, so it pings nobody.
  person: (person) => `<@${person.id}>`,
  // In <…>: Discord shows no preview of the link.
  link: (url, text) => `[${text}](<${url}>)`,
  mention: (target) => discordHandOffMention(target)?.content,
  // A member as a mention: every reply is sent with no mentions allowed, so it names without pinging.
  uploader: (recordedId) => {
    const member = /^discord:(\d+)$/.exec(recordedId)?.[1];
    return member ? `<@${member}>` : literalText(recordedId);
  },
};
