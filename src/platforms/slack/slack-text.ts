/**
 * Text going to and coming from Slack. Outgoing text never pings: special mentions
 * (`<!channel>`, `<!here>`, `<!everyone>`, `<!subteam^…>`), user mentions and the bare words
 * `@channel`/`@here`/`@everyone` are broken with an invisible word joiner, wherever they came from
 * (a document, the model, a file name). Incoming text loses the bot's own mention and Slack's escaping.
 */

const wordJoiner = '\u2060';

/** Makes any Slack mention syntax inert while keeping it readable. */
export function neutralizeMentions(text: string): string {
  return text
    .replace(/<(?=[!@#])/g, `<${wordJoiner}`)
    .replace(/&lt;(?=[!@#])/g, `&lt;${wordJoiner}`)
    .replace(/([@＠])(channel|here|everyone)\b/gi, `$1${wordJoiner}$2`);
}

/** Escapes the three characters Slack's mrkdwn reserves. */
export function escapeMrkdwn(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/** Plain text (a file name, an error message) made safe for a mrkdwn field. */
export function safeMrkdwn(text: string): string {
  return neutralizeMentions(escapeMrkdwn(text));
}

export function mentionsUser(text: string, userId: string): boolean {
  return text.includes(`<@${userId}>`) || text.includes(`<@${userId}|`);
}

/**
 * A person's mention as Slack writes it, `<@U123>` or `<@U123|name>`; the first group is the user id.
 * Global: used with `matchAll` and `replace` only, which do not keep its position between calls.
 */
export const slackMention = /<@([A-Z0-9]+)(?:\|[^>]*)?>/g;

/** Whether `text` mentions a person or group other than `botUserId` (users, user groups, @channel …). */
export function mentionsOthers(text: string, botUserId: string): boolean {
  for (const match of text.matchAll(slackMention)) if (match[1] !== botUserId) return true;
  return /<!(?:subteam\^|channel|here|everyone)/.test(text);
}

/** The question as a person typed it: without the bot's mention, links and entities decoded. */
export function cleanIncomingText(text: string, botUserId: string): string {
  return text
    .replace(new RegExp(`<@${botUserId}(\\|[^>]*)?>`, 'g'), ' ')
    .replace(/<@([A-Z0-9]+)\|([^>]+)>/g, '@$2')
    .replace(/<@([A-Z0-9]+)>/g, '@$1')
    .replace(/<#([A-Z0-9]+)\|([^>]*)>/g, '#$2')
    .replace(/<!([a-z]+)(\^[^|>]*)?(\|[^>]*)?>/g, '@$1')
    .replace(/<((?:https?|mailto):[^|>]+)\|([^>]+)>/g, '$2 ($1)')
    .replace(/<((?:https?|mailto):[^>]+)>/g, '$1')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&')
    .replace(/[ \t]+/g, ' ')
    .trim();
}
