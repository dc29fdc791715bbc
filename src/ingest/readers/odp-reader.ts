/**
 * ODP (OpenDocument presentations) from content.xml: one section per slide, "Slide N: its title", then
 * the slide's text boxes, lists and tables, then its speaker notes; every block at position N, the
 * slide's number in the deck.
 */
import type { TextBlock } from '../text-block.ts';
import { odfContentBlocks, odfText, openDocumentBody } from './open-document.ts';
import type { Reader } from './reader.ts';
import { attributeOf, childrenOf, findAll, tagOf, type XmlNode } from './safe-xml.ts';

export const readOdp: Reader = async (bytes, { name, limits }) => {
  const { body } = openDocumentBody(bytes, name, limits, 'office:presentation');
  const blocks: TextBlock[] = [];
  const slides = childrenOf(body).filter((node) => tagOf(node) === 'draw:page');
  for (const [index, slide] of slides.entries()) {
    const number = index + 1;
    const frames = childrenOf(slide);
    const titleFrame = frames.find((frame) => attributeOf(frame, 'presentation:class') === 'title');
    const title = titleFrame ? frameText(titleFrame) : '';
    blocks.push({
      kind: 'heading',
      level: 1,
      text: title ? `Slide ${number}: ${title}` : `Slide ${number}`,
      pageStart: number,
      pageEnd: number,
    });
    const content = frames.filter(
      (frame) => frame !== titleFrame && tagOf(frame) !== 'presentation:notes' && !isFurniture(frame),
    );
    odfContentBlocks(content, number, blocks);
    const notes = childrenOf(slide).find((node) => tagOf(node) === 'presentation:notes');
    const noteText = notes
      ? findAll(childrenOf(notes), 'draw:text-box')
          .flatMap((box) => childrenOf(box).map(odfText))
          .filter(Boolean)
          .join(' ')
      : '';
    if (noteText) {
      blocks.push({
        kind: 'paragraph',
        text: `Speaker notes: ${noteText}`,
        pageStart: number,
        pageEnd: number,
      });
    }
  }
  return { pageCount: Math.max(1, slides.length), blocks };
};

function frameText(frame: XmlNode): string {
  return findAll(childrenOf(frame), 'text:p').map(odfText).filter(Boolean).join(' ');
}

/** Page numbers, dates, headers and footers repeated on every slide. */
function isFurniture(frame: XmlNode): boolean {
  const kind = attributeOf(frame, 'presentation:class');
  return kind === 'page-number' || kind === 'date-time' || kind === 'footer' || kind === 'header';
}
