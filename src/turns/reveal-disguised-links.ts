/**
 * A Markdown link whose visible text looks like a web address shows one place and opens another:
 * `[https://trusted.example](https://evil.example)`. Slack and Discord both render such masked links,
 * and the text can come from a document or from the model. Before any platform renders an answer, such a
 * link is replaced by its real target, shown as a plain address, so what a person reads is where the link
 * goes. Links whose text is ordinary words (`[the manual](https://…)`) and links whose text names the
 * same host as the target are kept. Code spans and fenced code blocks are left alone.
 */
import { mapMarkdownLines, mapOutsideCodeSpans } from './markdown-outside-code.ts';

/** `[label](target "title")`, not an image. */
const inlineLink = /(?<!!)\[([^\]\n]+)\]\(\s*<?([^)\s>]+)>?(?:\s+(?:"[^"]*"|'[^']*'))?\s*\)/g;
/** `[label][reference]` or `[label][]`. */
const referenceLink = /(?<!!)\[([^\]\n]+)\]\[([^\]\n]*)\]/g;
/** `[reference]: target` definitions. */
const definition = /^\s{0,3}\[([^\]\n]+)\]:\s*<?(\S+?)>?(?:\s+.*)?$/;
/** A scheme or `www.`: read as an address whatever follows. */
const schemeOrWww = /(?:^|[\s(<])(?:[a-z][a-z0-9+.-]*:\/\/|www\.)/i;
/** A dotted host name, alone or with a path (`docs.example.com/install`). */
const dottedHost =
  /(?:^|[\s(<])((?:[a-z0-9](?:[a-z0-9-]*[a-z0-9])?\.)+([a-z]{2,}))(\/\S*)?(?=$|[\s)>.,;:!?])/i;
/** A file name (`bash.pdf`) is not an address, unless a path follows it. */
const fileExtensions = new Set([
  'pdf',
  'md',
  'txt',
  'doc',
  'docx',
  'odt',
  'rtf',
  'csv',
  'json',
  'xml',
  'yml',
  'yaml',
  'html',
  'htm',
  'png',
  'jpg',
  'jpeg',
  'gif',
  'svg',
  'zip',
  'gz',
  'tar',
  'sh',
  'py',
  'js',
  'ts',
  'r',
  'tex',
]);

export function revealDisguisedLinks(markdown: string): string {
  const lines = markdown.split('\n');
  const definitions = new Map<string, string>();
  for (const line of lines) {
    const match = definition.exec(line);
    if (match?.[1] && match[2]) definitions.set(match[1].trim().toLowerCase(), match[2]);
  }
  return mapMarkdownLines(markdown, {
    line: (line) => mapOutsideCodeSpans(line, (text) => revealInText(text, definitions)),
  });
}

function revealInText(text: string, definitions: ReadonlyMap<string, string>): string {
  return text
    .replace(inlineLink, (link, label: string, target: string) =>
      isDisguised(label, target) ? target : link,
    )
    .replace(referenceLink, (link, label: string, reference: string) => {
      const target = definitions.get((reference || label).trim().toLowerCase());
      return target && isDisguised(label, target) ? target : link;
    });
}

/** The label reads as an address, and not as the target's own host. */
export function isDisguised(label: string, target: string): boolean {
  const shown = label.replace(/[*_~`]/g, '').trim();
  if (!looksLikeAddress(shown)) return false;
  const targetHost = hostOf(target);
  const shownHost = hostOf(shownAddress(shown));
  if (!targetHost || !shownHost) return true;
  return shownHost !== targetHost;
}

function looksLikeAddress(text: string): boolean {
  if (schemeOrWww.test(text)) return true;
  const host = dottedHost.exec(text);
  if (!host) return false;
  const [, , lastLabel = '', path] = host;
  return path !== undefined || !fileExtensions.has(lastLabel.toLowerCase());
}

/** The address inside a label such as "see https://x.example/docs": its first address-like word. */
function shownAddress(label: string): string {
  const word = label.split(/\s+/).find((part) => schemeOrWww.test(part) || dottedHost.test(part));
  return (word ?? label).replace(/^[(<]+|[)>.,;:!?]+$/g, '');
}

function hostOf(address: string): string | undefined {
  const candidate = /^[a-z][a-z0-9+.-]*:/i.test(address) ? address : `https://${address}`;
  try {
    return new URL(candidate).hostname.toLowerCase().replace(/^www\./, '');
  } catch {
    return undefined;
  }
}
