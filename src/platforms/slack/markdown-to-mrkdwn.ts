/**
 * Converts the model's Markdown to Slack's mrkdwn, for the message `text` (notifications, and clients
 * that do not render the `markdown` block): headings and `**bold**` become `*bold*`, `*italic*`
 * becomes `_italic_`, `~~strike~~` becomes `~strike~`, `[label](url)` becomes `<url|label>`, bullets
 * become `•`; code spans and fenced blocks are kept verbatim (escaped only), and `&`, `<`, `>` are
 * escaped everywhere as mrkdwn requires.
 */
import { mapMarkdownLines, mapOutsideCodeSpans } from '../../turns/markdown-outside-code.ts';
import { escapeMrkdwn } from './slack-text.ts';

export function markdownToMrkdwn(markdown: string): string {
  return mapMarkdownLines(markdown, { line: convertLine, code: escapeMrkdwn, fence: () => '```' });
}

function convertLine(line: string): string {
  const heading = /^\s{0,3}#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
  if (heading) return `*${convertInline(stripEmphasis(heading[1] ?? ''))}*`;
  const quote = /^(\s*>\s?)(.*)$/.exec(line);
  if (quote) return `>${convertLine(quote[2] ?? '')}`;
  const bullet = /^(\s*)[-*+]\s+(.*)$/.exec(line);
  if (bullet) {
    const depth = Math.floor((bullet[1] ?? '').length / 2);
    return `${'    '.repeat(depth)}• ${convertInline(bullet[2] ?? '')}`;
  }
  if (/^\s*([-*_])(\s*\1){2,}\s*$/.test(line)) return '──────────';
  return convertInline(line);
}

function stripEmphasis(text: string): string {
  return text.replace(/\*\*(.+?)\*\*/g, '$1').replace(/__(.+?)__/g, '$1');
}

/** Converts emphasis and links outside inline code spans. */
function convertInline(text: string): string {
  return mapOutsideCodeSpans(text, convertPlain, escapeMrkdwn);
}

const boldMark = '\u0001';

function convertPlain(text: string): string {
  return escapeMrkdwn(text)
    .replace(/!?\[([^\]]+)\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g, (_match, label: string, url: string) =>
      /^(https?:|mailto:)/.test(url) ? `<${url}|${label.replace(/[|]/g, '/')}>` : label,
    )
    .replace(/\*\*(?=\S)(.+?)(?<=\S)\*\*/g, `${boldMark}$1${boldMark}`)
    .replace(/__(?=\S)(.+?)(?<=\S)__/g, `${boldMark}$1${boldMark}`)
    .replace(/(?<![\w*])\*(?=\S)([^*]+?)(?<=\S)\*(?![\w*])/g, '_$1_')
    .replace(/~~(?=\S)(.+?)(?<=\S)~~/g, '~$1~')
    .replaceAll(boldMark, '*');
}
