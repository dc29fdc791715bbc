/**
 * The text OCR recognised on one page, as blocks cited by that page: tesseract puts each line of the
 * image on a line and a blank line between paragraphs. Lines of a paragraph are joined (a word broken
 * with a hyphen at a line's end is mended), and lines that start with a bullet or a number become
 * list items.
 */
import type { TextBlock } from '../text-block.ts';

const bullet = /^(?:[•·▪◦‣*-]|\d{1,3}[.)])\s+/;

export function recognisedTextToBlocks(text: string, page: number): TextBlock[] {
  const blocks: TextBlock[] = [];
  const push = (kind: TextBlock['kind'], lines: string[]) => {
    const joined = joinLines(lines);
    if (/[\p{L}\p{N}]/u.test(joined)) blocks.push({ kind, text: joined, pageStart: page, pageEnd: page });
  };
  for (const paragraph of text.replace(/\r\n?/g, '\n').split(/\n\s*\n/)) {
    const lines = paragraph
      .split('\n')
      .map((line) => line.replace(/\s+/g, ' ').trim())
      .filter((line) => line.length > 0);
    let body: string[] = [];
    let item: string[] | undefined;
    for (const line of lines) {
      if (bullet.test(line)) {
        if (item) push('list', item);
        else if (body.length > 0) push('paragraph', body);
        body = [];
        item = [line.replace(/^[•·▪◦‣*]\s+/, '- ')];
      } else if (item) item.push(line);
      else body.push(line);
    }
    if (item) push('list', item);
    else if (body.length > 0) push('paragraph', body);
  }
  return blocks;
}

function joinLines(lines: string[]): string {
  let joined = '';
  for (const line of lines) {
    if (joined === '') joined = line;
    else if (/\p{Ll}-$/u.test(joined) && /^\p{Ll}/u.test(line)) joined = joined.slice(0, -1) + line;
    else joined = `${joined} ${line}`;
  }
  return joined;
}
