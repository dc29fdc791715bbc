/**
 * Joining a thread: what was said in it before the bot was asked, made fit for the model. The
 * platform reads the messages (`readThread`); here, once for every platform, they are capped (at most
 * `RAGENT_THREAD_CONTEXT_MESSAGES`, the newest kept), held to a token budget (older messages are left
 * out first; the question is not part of it, so it is never cut), and made inert: no mention syntax
 * of any chat platform survives, so nothing the thread says can ping anyone through an answer. The
 * thread's text never reaches the scopes a turn searches: those come from where the message was posted.
 */
import type { ThreadMessage } from '../core/types.ts';
import { countTokens } from '../graph/token-counter.ts';

export interface ThreadContextLimits {
  /** At most this many of the newest messages (`RAGENT_THREAD_CONTEXT_MESSAGES`). */
  messages: number;
  /** At most this many tokens of them together (`RAGENT_THREAD_CONTEXT_TOKENS`). */
  tokens: number;
}

export interface ThreadContext {
  /** The messages kept, oldest first, their text made inert. */
  messages: ThreadMessage[];
  /** How many older messages were left out (by the message cap or the token budget). */
  omitted: number;
}

/** Breaks `@everyone`-style words so no platform reads them as a ping (kept readable). */
const wordJoiner = '\u2060';

/**
 * Mention syntax of the chat platforms turned into plain words: user and role mentions, channel
 * links, and the broadcast mentions (`<!channel>`, `<!here>`, `@everyone`, `@here`), which stay
 * readable but inert.
 */
export function neutralizeThreadText(text: string): string {
  return (
    text
      // <!subteam^S123|@group>, <!channel>, <!here|here>, <!everyone>
      .replace(/<!subteam\^[^|>]*\|@?([^>]*)>/g, '@$1')
      .replace(/<!subteam\^[^>]*>/g, '@group')
      .replace(/<!([a-z]+)(?:\|[^>]*)?>/gi, '@$1')
      // <@U123|name>, <@U123>, <@!123>, <@&123>
      .replace(/<@[!&]?[A-Za-z0-9]+\|([^>]*)>/g, '@$1')
      .replace(/<@&[0-9]+>/g, '@role')
      .replace(/<@!?[A-Za-z0-9]+>/g, '@someone')
      // <#C123|general>, <#123>
      .replace(/<#[A-Za-z0-9]+\|([^>]*)>/g, '#$1')
      .replace(/<#[0-9]+>/g, '#channel')
      .replace(/([@＠])(channel|here|everyone)\b/gi, `$1${wordJoiner}$2`)
  );
}

/** One message as the model reads it: `Name: text` (the bot's own as `ragent (you)`). */
export function threadLine(message: ThreadMessage): string {
  const author = message.fromBot ? 'ragent (you)' : neutralizeThreadText(message.author) || 'someone';
  return `${author}: ${message.text.trim()}`;
}

/**
 * The newest messages that fit: at most `limits.messages`, then as many of the newest as fit in
 * `limits.tokens`. A newest message too long for the budget alone is cut to fit (its start kept).
 * Empty messages (a file alone, a deleted message) are skipped.
 */
export function fitThread(messages: readonly ThreadMessage[], limits: ThreadContextLimits): ThreadContext {
  const readable = messages
    .map((message) => ({ ...message, text: neutralizeThreadText(message.text).trim() }))
    .filter((message) => message.text !== '');
  const newest = limits.messages > 0 ? readable.slice(-limits.messages) : [];
  const kept: ThreadMessage[] = [];
  let spent = 0;
  for (let index = newest.length - 1; index >= 0; index -= 1) {
    const message = newest[index]!;
    const cost = countTokens(threadLine(message)) + 1;
    if (spent + cost <= limits.tokens) {
      kept.unshift(message);
      spent += cost;
      continue;
    }
    // Only the newest message is ever cut: older ones are left out whole.
    if (kept.length === 0) {
      const cut = cutToTokens(message, limits.tokens);
      if (cut) kept.unshift(cut);
    }
    break;
  }
  return { messages: kept, omitted: readable.length - kept.length };
}

function cutToTokens(message: ThreadMessage, tokens: number): ThreadMessage | undefined {
  let text = message.text;
  while (text.length > 0 && countTokens(threadLine({ ...message, text: `${text}…` })) + 1 > tokens) {
    // Shrink by the share that is over, at least one character: a few rounds at most.
    const over = countTokens(threadLine({ ...message, text })) / tokens;
    text = text.slice(0, Math.min(text.length - 1, Math.floor(text.length / Math.max(over, 1.05))));
  }
  return text.trim() ? { ...message, text: `${text.trimEnd()}…` } : undefined;
}

/** The thread as the prompts show it: one line per message, oldest first, with what was left out. */
export function formatThread(context: ThreadContext): string {
  const lines = context.messages.map(threadLine);
  if (context.omitted > 0)
    lines.unshift(
      `(${context.omitted} older message${context.omitted === 1 ? '' : 's'} of the thread not shown)`,
    );
  return lines.join('\n');
}
