/**
 * Turns an answer into Discord messages: the Markdown split under 2,000 characters (never inside a
 * code block), the sources in an embed and the 👍/👎 buttons under the last message.
 */
import {
  type APIActionRowComponent,
  type APIButtonComponent,
  type APIEmbed,
  ButtonStyle,
  ComponentType,
} from 'discord.js';
import { type Answer, isWebPageSource, type Source } from '../../core/types.ts';
import { sourceEntries } from '../../replies/source-entries.ts';
import { splitMessage } from '../../replies/split-message.ts';
import { answerActionsRow } from './answer-action-rows.ts';
import { literalText } from './discord-text.ts';

export const messageLimit = 2_000;
const embedDescriptionLimit = 4_096;
const feedbackPrefix = 'ragent:feedback:';

export interface MessagePart {
  content: string;
  embeds: APIEmbed[];
  components: APIActionRowComponent<APIButtonComponent>[];
}

export function renderAnswer(answer: Answer): MessagePart[] {
  // Sources go into an embed; without any, the Markdown says so itself.
  const body = answer.sources.length > 0 ? answer.body : answer.markdown;
  const texts = splitMessage(body, messageLimit);
  if (texts.length === 0) texts.push('(empty answer)');
  const parts: MessagePart[] = texts.map((content) => ({ content, embeds: [], components: [] }));
  const last = parts[parts.length - 1]!;
  if (answer.sources.length > 0) {
    last.embeds = [sourcesEmbed(answer.sources, { numbered: answer.citesByNumber === true })];
  }
  last.components = [feedbackRow(answer.id), answerActionsRow(answer.id)];
  return parts;
}

/** Plain text split into parts (clarifications, errors). */
export function renderText(text: string): MessagePart[] {
  return splitMessage(text, messageLimit).map((content) => ({ content, embeds: [], components: [] }));
}

/**
 * One line per source, in order. When the answer cites by number (`numbered`), each line starts with
 * its number — `[2] 📄 **bash.pdf** — p. 3` — so each [n] of the text finds its source.
 */
export function sourcesEmbed(sources: readonly Source[], options: { numbered?: boolean } = {}): APIEmbed {
  const lines: string[] = [];
  let length = 0;
  const entries = sourceEntries(sources, {
    numbered: options.numbered === true,
    grouped: false,
    link: discordLink,
  });
  for (const [index, entry] of entries.entries()) {
    const name = literalText(entry.name);
    const linked = entry.link ? `[${name}](${entry.link})` : name;
    const place = literalText(entry.place.replace(/^› /, ''));
    // Escaped, so that a number followed by a linked name never reads as Markdown link text.
    const number = entry.number ? `\\[${entry.number}\\] ` : '';
    const line = place ? `${number}📄 **${linked}** — ${place}` : `${number}📄 **${linked}**`;
    const more = `\n… and ${sources.length - index} more`;
    if (length + line.length + 1 + more.length > embedDescriptionLimit) {
      lines.push(more.trim());
      break;
    }
    lines.push(line);
    length += line.length + 1;
  }
  return { title: 'Sources', description: lines.join('\n'), color: 0x5865f2 };
}

/** Only links to a message on Discord itself (digits only, so nothing can break out of the Markdown link). */
export function isDiscordMessageLink(link: string): boolean {
  return /^https:\/\/discord\.com\/channels\/\d+\/\d+\/\d+$/.test(link);
}

/** A Discord message's link, or a web page's address with its parentheses encoded (nothing breaks out). */
function discordLink(source: Source): string | undefined {
  if (source.link && isDiscordMessageLink(source.link)) return source.link;
  return isWebPageSource(source) ? new URL(source.link).href.replace(/[()]/g, encodeURIComponent) : undefined;
}

export function feedbackRow(answerId: string): APIActionRowComponent<APIButtonComponent> {
  return {
    type: ComponentType.ActionRow,
    components: (['up', 'down'] as const).map((value) => ({
      type: ComponentType.Button,
      style: ButtonStyle.Secondary,
      custom_id: feedbackCustomId(answerId, value),
      emoji: { name: value === 'up' ? '👍' : '👎' },
    })),
  };
}

export function feedbackCustomId(answerId: string, value: 'up' | 'down'): string {
  return `${feedbackPrefix}${value}:${answerId}`.slice(0, 100);
}

export function parseFeedbackCustomId(
  customId: string,
): { value: 'up' | 'down'; answerId: string } | undefined {
  const match = /^ragent:feedback:(up|down):(.+)$/.exec(customId);
  return match ? { value: match[1] as 'up' | 'down', answerId: match[2]! } : undefined;
}
