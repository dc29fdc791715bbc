/**
 * Turns an answer into Discord messages: the Markdown split under 2,000 characters (never inside a
 * code block), the sources in an embed and the 👍/👎 buttons under the last message.
 */
import type { APIActionRowComponent, APIButtonComponent, APIEmbed } from 'discord.js';
import type { Answer, Source } from '../../core/types.ts';
import { answerParts } from '../../replies/lay-out-answer.ts';
import { sourceList } from '../../replies/source-entries.ts';
import { splitMessage } from '../../replies/split-message.ts';
import { answerRows } from './answer-action-rows.ts';
import { isDiscordMessageLink } from './discord-ids.ts';
import { literalText } from './discord-text.ts';

export const messageLimit = 2_000;
const embedDescriptionLimit = 4_096;

export interface MessagePart {
  content: string;
  embeds: APIEmbed[];
  components: APIActionRowComponent<APIButtonComponent>[];
}

export function renderAnswer(answer: Answer): MessagePart[] {
  const parts = answerParts(answer, messageLimit).map(messagePart);
  const last = parts[parts.length - 1]!;
  if (answer.sources.length > 0) {
    last.embeds = [sourcesEmbed(answer.sources, { numbered: answer.citesByNumber === true })];
  }
  last.components = answerRows(answer.id);
  return parts;
}

function messagePart(content: string): MessagePart {
  return { content, embeds: [], components: [] };
}

/** Plain text split into parts (clarifications, errors). */
export function renderText(text: string): MessagePart[] {
  return splitMessage(text, messageLimit).map(messagePart);
}

/**
 * One line per source, in order. When the answer cites by number (`numbered`), each line starts with
 * its number — `[2] 📄 **bash.pdf** — p. 3` — so each [n] of the text finds its source.
 */
export function sourcesEmbed(sources: readonly Source[], options: { numbered?: boolean } = {}): APIEmbed {
  const description = sourceList(sources, {
    numbered: options.numbered === true,
    grouped: false,
    ownPage: isDiscordMessageLink,
    // Parentheses encoded, so that nothing breaks out of the Markdown link.
    linkTarget: (link) => new URL(link).href.replace(/[()]/g, encodeURIComponent),
    write: (entry) => {
      const name = literalText(entry.name);
      const linked = entry.link ? `[${name}](${entry.link})` : name;
      const place = literalText(entry.place.replace(/^› /, ''));
      // Escaped, so that a number followed by a linked name never reads as Markdown link text.
      const number = entry.number ? `\\[${entry.number}\\] ` : '';
      return place ? `${number}📄 **${linked}** — ${place}` : `${number}📄 **${linked}**`;
    },
    separator: '\n',
    budget: embedDescriptionLimit,
    countMore: true,
  });
  return { title: 'Sources', description, color: 0x5865f2 };
}
