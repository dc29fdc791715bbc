/**
 * Markdown and plain text into blocks: ATX headings (`#`, `##`, `###`; deeper ones count as `###`),
 * fenced code kept verbatim, list items, and paragraphs separated by blank lines. One "page".
 */
import type { ExtractedDocument, TextBlock } from './text-block.ts';

export function markdownToBlocks(text: string): ExtractedDocument {
  const blocks: TextBlock[] = [];
  const lines = text.replace(/\r\n?/g, '\n').split('\n');
  let paragraph: string[] = [];
  let paragraphKind: 'paragraph' | 'list' = 'paragraph';
  const push = (kind: TextBlock['kind'], body: string, level?: number) => {
    if (body.trim()) blocks.push({ kind, text: body, pageStart: 1, pageEnd: 1, ...(level ? { level } : {}) });
  };
  const flush = () => {
    push(paragraphKind, paragraph.join(paragraphKind === 'list' ? '\n' : ' ').trim());
    paragraph = [];
    paragraphKind = 'paragraph';
  };
  for (let index = 0; index < lines.length; index++) {
    const line = lines[index] ?? '';
    const fence = /^\s*(```+|~~~+)/.exec(line);
    if (fence?.[1]) {
      flush();
      const code: string[] = [];
      for (index++; index < lines.length && !(lines[index] ?? '').trim().startsWith(fence[1]); index++) {
        code.push(lines[index] ?? '');
      }
      push('code', code.join('\n'));
      continue;
    }
    const heading = /^(#{1,6})\s+(.*?)\s*#*\s*$/.exec(line);
    if (heading?.[2]) {
      flush();
      push('heading', heading[2], Math.min(3, heading[1]?.length ?? 1));
      continue;
    }
    if (!line.trim()) {
      flush();
      continue;
    }
    if (/^\s*(?:[-*+•]|\d{1,3}[.)])\s+/.test(line)) {
      if (paragraphKind !== 'list') flush();
      paragraphKind = 'list';
      paragraph.push(line.trim().replace(/^[*+•]\s+/, '- '));
      continue;
    }
    paragraph.push(paragraphKind === 'list' ? `  ${line.trim()}` : line.trim());
  }
  flush();
  return { pageCount: 1, blocks };
}

/** Plain text has no markup: paragraphs only (a line starting with "#" is text, not a heading). */
export function plainTextToBlocks(text: string): ExtractedDocument {
  const blocks: TextBlock[] = text
    .replace(/\r\n?/g, '\n')
    .split(/\n\s*\n/)
    .map((paragraph) => paragraph.replace(/\s*\n\s*/g, ' ').trim())
    .filter(Boolean)
    .map((paragraph) => ({ kind: 'paragraph', text: paragraph, pageStart: 1, pageEnd: 1 }));
  return { pageCount: 1, blocks };
}
