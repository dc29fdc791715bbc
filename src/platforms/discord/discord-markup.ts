/** How Discord's Markdown writes the core's replies (see turns/chat-markup). */
import type { ChatMarkup } from '../../turns/chat-markup.ts';
import { discordTerms, literalText } from './discord-text.ts';

export const discordMarkup: ChatMarkup = {
  literal: literalText,
  bold: (text) => `**${text}**`,
  code: (text) => `\`${text}\``,
  channel: (id) => `<#${id}>`,
  icons: { warning: '⚠️', removed: '🗑️', moved: '📦', done: '✅' },
  terms: discordTerms,
  placeAdmin: 'a member with Manage Server',
};
