/**
 * ODT (OpenDocument text) from its content.xml: headings by outline level become section paths,
 * paragraphs, lists and tables (Markdown, header repeated when long) are kept; footnotes, comments and
 * images are left out. The document has sections, not pages: every block is at position 1.
 */
import type { TextBlock } from '../text-block.ts';
import { odfContentBlocks, openDocumentBody } from './open-document.ts';
import type { Reader } from './reader.ts';
import { childrenOf } from './safe-xml.ts';

export const readOdt: Reader = async (bytes, { name, limits }) => {
  const { body } = openDocumentBody(bytes, name, limits, 'office:text');
  const blocks: TextBlock[] = [];
  odfContentBlocks(childrenOf(body), 1, blocks);
  return { pageCount: 1, blocks };
};
