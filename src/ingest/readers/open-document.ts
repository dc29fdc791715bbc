/**
 * What the OpenDocument readers (ODT, ODP, ODS) share: opening the package (refusing an encrypted one),
 * the text of a paragraph as a reader sees it, lists and tables. Footnotes/endnotes (`text:note`),
 * comments (`office:annotation`) and frames inside a paragraph (images, text boxes) are left out of
 * the paragraph's text, so they never mix into the body.
 */
import { errorMessages } from '../../error-messages-en.ts';
import { RagentError } from '../../errors.ts';
import type { IngestLimits } from '../ingest-limits.ts';
import { tableBlocks } from '../table-blocks.ts';
import type { TextBlock } from '../text-block.ts';
import { attributeOf, childrenOf, findFirst, parseXml, tagOf, textNodeOf, type XmlNode } from './safe-xml.ts';
import { ZipContainer } from './zip-container.ts';

/** The `office:body` child of content.xml (`office:text`, `office:presentation`, `office:spreadsheet`). */
export function openDocumentBody(
  bytes: Uint8Array,
  fileName: string,
  limits: IngestLimits,
  bodyTag: string,
): { body: XmlNode; content: XmlNode[] } {
  const zip = ZipContainer.open(bytes, fileName, limits);
  const manifest = zip.text('META-INF/manifest.xml');
  if (manifest && /<manifest:encryption-data\b/.test(manifest)) throw officeEncrypted(fileName);
  const text = zip.text('content.xml');
  if (text === undefined) {
    throw new RagentError('OFFICE_CORRUPT', errorMessages.OFFICE_CORRUPT.noContentXml({ name: fileName }));
  }
  const content = parseXml(text, fileName, 'content.xml');
  const body = findFirst(content, bodyTag);
  if (!body) {
    throw new RagentError('OFFICE_CORRUPT', errorMessages.OFFICE_CORRUPT.noBody({ name: fileName, bodyTag }));
  }
  return { body, content };
}

export function officeEncrypted(fileName: string): RagentError {
  return new RagentError('OFFICE_ENCRYPTED', errorMessages.OFFICE_ENCRYPTED({ name: fileName }));
}

const skippedInText = new Set([
  'text:note',
  'office:annotation',
  'draw:frame',
  'draw:a',
  'text:tracked-changes',
]);

/** The text of a paragraph or heading, spaces and breaks as written; notes and comments left out. */
export function odfText(node: XmlNode): string {
  const pieces: string[] = [];
  const visit = (nodes: readonly XmlNode[]) => {
    for (const child of nodes) {
      const text = textNodeOf(child);
      if (text !== undefined) {
        pieces.push(text);
        continue;
      }
      const tag = tagOf(child);
      if (!tag || skippedInText.has(tag)) continue;
      if (tag === 'text:s')
        pieces.push(' '.repeat(Math.min(64, Number(attributeOf(child, 'text:c') ?? 1) || 1)));
      else if (tag === 'text:tab') pieces.push('\t');
      else if (tag === 'text:line-break') pieces.push('\n');
      else visit(childrenOf(child));
    }
  };
  visit(childrenOf(node));
  return pieces
    .join('')
    .replace(/[ \t]+/g, ' ')
    .trim();
}

/** A `text:list` as Markdown list lines, nested lists indented. */
export function odfListLines(list: XmlNode, depth = 0): string[] {
  const lines: string[] = [];
  for (const item of childrenOf(list)) {
    if (tagOf(item) !== 'text:list-item' && tagOf(item) !== 'text:list-header') continue;
    for (const part of childrenOf(item)) {
      const tag = tagOf(part);
      if (tag === 'text:list') lines.push(...odfListLines(part, depth + 1));
      else if (tag === 'text:p' || tag === 'text:h') {
        const text = odfText(part);
        if (text) lines.push(`${'  '.repeat(depth)}- ${text}`);
      }
    }
  }
  return lines;
}

/** Rows of a `table:table` (header rows, row groups) as cell texts; repeated empty cells not expanded. */
export function odfTableRows(table: XmlNode): string[][] {
  const rows: string[][] = [];
  const visit = (nodes: readonly XmlNode[]) => {
    for (const node of nodes) {
      const tag = tagOf(node);
      if (tag === 'table:table-row') rows.push(odfRowCells(node));
      else if (
        tag === 'table:table-header-rows' ||
        tag === 'table:table-rows' ||
        tag === 'table:table-row-group'
      )
        visit(childrenOf(node));
    }
  };
  visit(childrenOf(table));
  return rows;
}

function odfRowCells(row: XmlNode): string[] {
  const cells: string[] = [];
  for (const cell of childrenOf(row)) {
    const tag = tagOf(cell);
    if (tag !== 'table:table-cell' && tag !== 'table:covered-table-cell') continue;
    const text = cellText(cell);
    const repeat = Number(attributeOf(cell, 'table:number-columns-repeated') ?? 1) || 1;
    // Trailing empty cells are often "repeated" a thousand times; a filled one rarely more than a few.
    for (let index = 0; index < (text ? Math.min(repeat, 64) : Math.min(repeat, 1)); index++)
      cells.push(text);
  }
  return cells;
}

/** A cell's text: its paragraphs (and lists) joined by spaces. */
export function cellText(cell: XmlNode): string {
  const parts: string[] = [];
  for (const child of childrenOf(cell)) {
    const tag = tagOf(child);
    if (tag === 'text:p' || tag === 'text:h') parts.push(odfText(child));
    else if (tag === 'text:list') parts.push(odfListLines(child).join(' '));
  }
  return parts.filter(Boolean).join(' ');
}

/** Elements whose content is read as if it stood where they are. */
const containers = new Set(['text:section', 'draw:text-box', 'draw:frame', 'draw:g', 'draw:custom-shape']);

/**
 * The blocks of a run of ODF text content (office:text, a text box, a section): headings, paragraphs,
 * lists and tables, each at `position`. Tables of contents and indexes are left out (they repeat the
 * headings).
 */
export function odfContentBlocks(nodes: readonly XmlNode[], position: number, blocks: TextBlock[]): void {
  for (const node of nodes) {
    const tag = tagOf(node);
    if (tag === 'text:h') {
      const text = odfText(node);
      const level = Math.min(3, Math.max(1, Number(attributeOf(node, 'text:outline-level') ?? 1) || 1));
      if (text) blocks.push({ kind: 'heading', level, text, pageStart: position, pageEnd: position });
    } else if (tag === 'text:p') {
      const text = odfText(node);
      if (text) blocks.push({ kind: 'paragraph', text, pageStart: position, pageEnd: position });
    } else if (tag === 'text:list') {
      const lines = odfListLines(node);
      if (lines.length > 0)
        blocks.push({ kind: 'list', text: lines.join('\n'), pageStart: position, pageEnd: position });
    } else if (tag === 'table:table') {
      blocks.push(...tableBlocks(odfTableRows(node), position));
    } else if (containers.has(tag ?? '')) {
      odfContentBlocks(childrenOf(node), position, blocks);
    }
  }
}
