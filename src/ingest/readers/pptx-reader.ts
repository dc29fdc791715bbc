/**
 * PPTX (Office Open XML presentations): the slides in the order of presentation.xml's slide list, each
 * one section "Slide N: its title" (N is the number PowerPoint shows, hidden slides counted), then its
 * text: content placeholders as lists, other text boxes as paragraphs, tables as Markdown tables, and
 * its speaker notes. Slide numbers, dates and footers (the same on every slide) are left out. Every
 * block is at position N.
 */
import { errorMessages } from '../../error-messages-en.ts';
import { RagentError } from '../../errors.ts';
import { ingestCancelled } from '../ingest-limits.ts';
import { tableBlocks } from '../table-blocks.ts';
import type { TextBlock } from '../text-block.ts';
import type { Reader } from './reader.ts';
import {
  attributeOf,
  childNamed,
  childrenOf,
  findAll,
  findFirst,
  parseXml,
  readRelationships,
  tagOf,
  textNodeOf,
  type XmlNode,
} from './safe-xml.ts';
import { ZipContainer } from './zip-container.ts';

const notesRelationship = /\/notesSlide$/;
const furniture = new Set(['sldNum', 'dt', 'ftr', 'hdr']);

export const readPptx: Reader = async (bytes, { name, limits, signal }) => {
  const zip = ZipContainer.open(bytes, name, limits);
  const xml = (entry: string) => {
    const text = zip.text(entry);
    return text === undefined ? undefined : parseXml(text, name, entry);
  };
  const presentation = xml('ppt/presentation.xml');
  if (!presentation) {
    throw new RagentError('OFFICE_CORRUPT', errorMessages.OFFICE_CORRUPT.noPresentationXml({ name }));
  }
  const relationships = readRelationships(xml('ppt/_rels/presentation.xml.rels') ?? [], 'ppt');
  const slidePaths = findAll(presentation, 'p:sldId')
    .map((slide) => relationships.get(attributeOf(slide, 'r:id') ?? ''))
    .filter((path): path is string => path !== undefined);
  const blocks: TextBlock[] = [];
  for (const [index, path] of slidePaths.entries()) {
    if (signal?.aborted) throw ingestCancelled(name, signal);
    const number = index + 1;
    const slide = xml(path) ?? [];
    const folder = path.slice(0, path.lastIndexOf('/'));
    const file = path.slice(path.lastIndexOf('/') + 1);
    const slideRelationships = xml(`${folder}/_rels/${file}.rels`) ?? [];
    const shapes = shapesOf(findFirst(slide, 'p:spTree'));
    const title = shapes
      .filter((shape) => ['title', 'ctrTitle'].includes(placeholderOf(shape)?.type ?? ''))
      .map((shape) => paragraphsOf(shape).join(' '))
      .find(Boolean);
    blocks.push({
      kind: 'heading',
      level: 1,
      text: title ? `Slide ${number}: ${title}` : `Slide ${number}`,
      pageStart: number,
      pageEnd: number,
    });
    for (const shape of shapes) blocks.push(...shapeBlocks(shape, number));
    const notesPath = findAll(slideRelationships, 'Relationship')
      .filter((relationship) => notesRelationship.test(attributeOf(relationship, 'Type') ?? ''))
      .map((relationship) => readRelationships([relationship], folder).values().next().value)
      .find(Boolean);
    const notes = notesPath ? notesText(xml(notesPath) ?? []) : '';
    if (notes) {
      blocks.push({ kind: 'paragraph', text: `Speaker notes: ${notes}`, pageStart: number, pageEnd: number });
    }
  }
  return { pageCount: Math.max(1, slidePaths.length), blocks };
};

/** The shapes, tables and pictures of a shape tree, groups opened, in drawing order. */
function shapesOf(tree: XmlNode | undefined): XmlNode[] {
  if (!tree) return [];
  const shapes: XmlNode[] = [];
  for (const child of childrenOf(tree)) {
    const tag = tagOf(child);
    if (tag === 'p:grpSp') shapes.push(...shapesOf(child));
    else if (tag === 'p:sp' || tag === 'p:graphicFrame') shapes.push(child);
  }
  return shapes;
}

function placeholderOf(shape: XmlNode): { type: string | undefined } | undefined {
  const properties = childrenOf(shape).find((child) => /^p:nv/.test(tagOf(child) ?? ''));
  const placeholder = properties ? findFirst(childrenOf(properties), 'p:ph') : undefined;
  return placeholder ? { type: attributeOf(placeholder, 'type') } : undefined;
}

function shapeBlocks(shape: XmlNode, slide: number): TextBlock[] {
  if (tagOf(shape) === 'p:graphicFrame') {
    const table = findFirst(childrenOf(shape), 'a:tbl');
    if (!table) return [];
    const rows = childrenOf(table)
      .filter((row) => tagOf(row) === 'a:tr')
      .map((row) =>
        childrenOf(row)
          .filter((cell) => tagOf(cell) === 'a:tc')
          .map((cell) => paragraphsOf(cell).join(' ')),
      );
    return tableBlocks(rows, slide);
  }
  const placeholder = placeholderOf(shape);
  const type = placeholder?.type;
  if (type === 'title' || type === 'ctrTitle' || furniture.has(type ?? '')) return [];
  const body = childNamed(shape, 'p:txBody');
  if (!body) return [];
  const paragraphs = childrenOf(body).filter((paragraph) => tagOf(paragraph) === 'a:p');
  const lines = paragraphs
    .map((paragraph) => ({ text: paragraphText(paragraph), level: levelOf(paragraph) }))
    .filter((line) => line.text);
  if (lines.length === 0) return [];
  // Content placeholders hold bullet points; other text boxes hold prose.
  const bullets = placeholder !== undefined && (type === undefined || type === 'body' || type === 'obj');
  const text = bullets
    ? lines.map((line) => `${'  '.repeat(line.level)}- ${line.text}`).join('\n')
    : lines.map((line) => line.text).join('\n');
  return [{ kind: bullets ? 'list' : 'paragraph', text, pageStart: slide, pageEnd: slide }];
}

function levelOf(paragraph: XmlNode): number {
  const properties = childNamed(paragraph, 'a:pPr');
  return Math.min(4, Number(properties ? attributeOf(properties, 'lvl') : 0) || 0);
}

function paragraphsOf(node: XmlNode): string[] {
  return findAll(childrenOf(node), 'a:p').map(paragraphText).filter(Boolean);
}

/** A paragraph's runs and fields; a line break is a space. */
function paragraphText(paragraph: XmlNode): string {
  const pieces: string[] = [];
  for (const part of childrenOf(paragraph)) {
    const tag = tagOf(part);
    if (tag === 'a:r' || tag === 'a:fld') {
      const text = childNamed(part, 'a:t');
      if (text)
        pieces.push(
          childrenOf(text)
            .map((node) => textNodeOf(node) ?? '')
            .join(''),
        );
    } else if (tag === 'a:br') pieces.push(' ');
  }
  return pieces.join('').replace(/\s+/g, ' ').trim();
}

/** The notes page's body placeholder (not its slide image, number or header). */
function notesText(notes: XmlNode[]): string {
  return shapesOf(findFirst(notes, 'p:spTree'))
    .filter((shape) => placeholderOf(shape)?.type === 'body')
    .flatMap(paragraphsOf)
    .join(' ');
}
