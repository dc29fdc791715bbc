/**
 * DOCX through mammoth (Word styles → semantic HTML: headings, lists, tables), then that HTML into
 * blocks: headings (Heading 1–3, and Title as a level-1 heading) become section paths, lists keep their
 * items and nesting, tables become Markdown tables whose header row is repeated in each part.
 * Footnotes, endnotes and comments never mix into the body (mammoth puts notes in a list at the end,
 * which is dropped with their reference marks; comments it leaves out); images are not read at all.
 *
 * mammoth reads the zip with JSZip, which has no size limits, so it is handed a zip re-made (stored,
 * not compressed) from the entries ZipContainer inflated within RAGENT_MAX_UNZIPPED_MB — without the
 * media folder, which is never read. A zip bomb therefore never reaches mammoth.
 */
import { zipSync } from 'fflate';
import mammoth from 'mammoth';
import { errorMessages } from '../../error-messages-en.ts';
import { RagentError } from '../../errors.ts';
import { tableBlocks } from '../table-blocks.ts';
import type { TextBlock } from '../text-block.ts';
import type { Reader } from './reader.ts';
import {
  attributeOf,
  childrenOf,
  parseXml,
  refuseDoctype,
  tagOf,
  textNodeOf,
  type XmlNode,
} from './safe-xml.ts';
import { decodeXmlText, ZipContainer } from './zip-container.ts';

const styleMap = ["p[style-name='Title'] => h1:fresh", "p[style-name='Subtitle'] => h2:fresh"];
const noteId = /^(footnote|endnote|comment)-/;
const noteLink = /^#(footnote|endnote|comment)-/;

export const readDocx: Reader = async (bytes, { name, limits }) => {
  const zip = ZipContainer.open(bytes, name, limits);
  const entries = zip.read(zip.names().filter((entry) => !entry.startsWith('word/media/')));
  // The XML parts mammoth reads go through the same DOCTYPE refusal as every other Office XML.
  for (const [entry, part] of entries) {
    if (entry.endsWith('.xml') || entry.endsWith('.rels')) refuseDoctype(decodeXmlText(part), name, entry);
  }
  const rebuilt = zipSync(Object.fromEntries(entries), { level: 0 });
  entries.clear();
  let html: string;
  try {
    const result = await mammoth.convertToHtml(
      { buffer: Buffer.from(rebuilt.buffer, rebuilt.byteOffset, rebuilt.byteLength) },
      {
        styleMap,
        ignoreEmptyParagraphs: true,
        convertImage: mammoth.images.imgElement(async () => ({ src: '' })),
      },
    );
    html = result.value;
  } catch (error) {
    throw new RagentError(
      'OFFICE_CORRUPT',
      errorMessages.OFFICE_CORRUPT.wordUnreadable({ name, reason: (error as Error).message }),
      { cause: error },
    );
  }
  const blocks: TextBlock[] = [];
  htmlBlocks(parseXml(`<body>${html}</body>`, name, 'converted HTML'), blocks);
  return { pageCount: 1, blocks };
};

function htmlBlocks(nodes: readonly XmlNode[], blocks: TextBlock[]): void {
  for (const node of nodes) {
    const tag = tagOf(node);
    if (!tag) continue;
    const heading = /^h([1-6])$/.exec(tag);
    if (heading) {
      const text = inlineText(childrenOf(node));
      if (text) blocks.push(block('heading', text, Math.min(3, Number(heading[1]))));
    } else if (tag === 'p') {
      const text = inlineText(childrenOf(node));
      if (text) blocks.push(block('paragraph', text));
    } else if (tag === 'ul' || tag === 'ol') {
      if (isNotesList(node)) continue;
      const lines = listLines(node, 0);
      if (lines.length > 0) blocks.push(block('list', lines.join('\n')));
    } else if (tag === 'table') {
      blocks.push(...tableBlocks(tableRows(node), 1));
    } else {
      htmlBlocks(childrenOf(node), blocks);
    }
  }
}

function block(kind: TextBlock['kind'], text: string, level?: number): TextBlock {
  return { kind, text, pageStart: 1, pageEnd: 1, ...(level ? { level } : {}) };
}

/** mammoth's footnotes/endnotes (or comments, when mapped): a list of items with note ids. */
function isNotesList(list: XmlNode): boolean {
  const items = childrenOf(list).filter((item) => tagOf(item) === 'li');
  return items.length > 0 && items.every((item) => noteId.test(attributeOf(item, 'id') ?? ''));
}

function listLines(list: XmlNode, depth: number): string[] {
  const lines: string[] = [];
  let number = 0;
  for (const item of childrenOf(list)) {
    if (tagOf(item) !== 'li') continue;
    number++;
    const own = childrenOf(item).filter((child) => !['ul', 'ol'].includes(tagOf(child) ?? ''));
    const text = inlineText(own);
    const marker = tagOf(list) === 'ol' ? `${number}.` : '-';
    if (text) lines.push(`${'  '.repeat(depth)}${marker} ${text}`);
    for (const nested of childrenOf(item)) {
      if (tagOf(nested) === 'ul' || tagOf(nested) === 'ol') lines.push(...listLines(nested, depth + 1));
    }
  }
  return lines;
}

function tableRows(table: XmlNode): string[][] {
  const rows: string[][] = [];
  const visit = (nodes: readonly XmlNode[]) => {
    for (const node of nodes) {
      const tag = tagOf(node);
      if (tag === 'tr') {
        rows.push(
          childrenOf(node)
            .filter((cell) => tagOf(cell) === 'td' || tagOf(cell) === 'th')
            .map((cell) => inlineText(childrenOf(cell))),
        );
      } else if (tag === 'thead' || tag === 'tbody' || tag === 'tfoot') visit(childrenOf(node));
    }
  };
  visit(childrenOf(table));
  return rows;
}

/** The text of inline content; note reference marks and images left out, paragraphs joined by spaces. */
function inlineText(nodes: readonly XmlNode[]): string {
  const pieces: string[] = [];
  const visit = (list: readonly XmlNode[]) => {
    for (const node of list) {
      const text = textNodeOf(node);
      if (text !== undefined) {
        pieces.push(text);
        continue;
      }
      const tag = tagOf(node);
      if (tag === 'img') continue;
      if (tag === 'br') pieces.push(' ');
      else if (tag === 'a' && noteLink.test(attributeOf(node, 'href') ?? '')) continue;
      else if (tag === 'sup' && childrenOf(node).every((child) => isNoteReference(child))) continue;
      else {
        if (tag === 'p' && pieces.length > 0) pieces.push(' ');
        visit(childrenOf(node));
      }
    }
  };
  visit(nodes);
  return pieces.join('').replace(/\s+/g, ' ').trim();
}

function isNoteReference(node: XmlNode): boolean {
  return tagOf(node) === 'a' && noteLink.test(attributeOf(node, 'href') ?? '');
}
