/**
 * A table of a document (DOCX, ODT, a slide) as Markdown table blocks. A long table is cut into
 * blocks of whole rows, each short enough for one child chunk and each starting with the table's
 * header row, so every piece that search finds still says what its columns are.
 */
import type { TextBlock } from './text-block.ts';

/** Below a child chunk (800 characters) with room for its section line: a block is never cut. */
export const maxTableBlockChars = 700;

export function tableBlocks(
  rows: readonly (readonly string[])[],
  position: number,
  maxChars: number = maxTableBlockChars,
): TextBlock[] {
  const filled = rows.filter((row) => row.some((cell) => cell.trim() !== ''));
  const [header, ...body] = filled;
  if (!header) return [];
  const width = Math.max(...filled.map((row) => row.length));
  const line = (row: readonly string[]) =>
    `| ${Array.from({ length: width }, (_, index) => cellText(row[index] ?? '')).join(' | ')} |`;
  const head = `${line(header)}\n|${' --- |'.repeat(width)}`;
  const block = (lines: string[]): TextBlock => ({
    kind: 'table',
    text: [head, ...lines].join('\n'),
    pageStart: position,
    pageEnd: position,
  });
  if (body.length === 0) return [block([])];
  const blocks: TextBlock[] = [];
  let lines: string[] = [];
  let length = head.length;
  for (const row of body) {
    const text = line(row);
    if (lines.length > 0 && length + text.length + 1 > maxChars) {
      blocks.push(block(lines));
      lines = [];
      length = head.length;
    }
    lines.push(text);
    length += text.length + 1;
  }
  blocks.push(block(lines));
  return blocks;
}

/** One line per cell; a pipe would end the cell early. */
function cellText(text: string): string {
  return text
    .replace(/\s*\n\s*/g, ' ')
    .replace(/\|/g, '\\|')
    .trim();
}
