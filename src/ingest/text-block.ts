/** The structure every input (PDF, Markdown, text, Office files, spreadsheets) is turned into before chunking. */
export interface TextBlock {
  /** `table`: a Markdown table whose text starts with its header row (see table-blocks.ts). */
  kind: 'heading' | 'paragraph' | 'list' | 'code' | 'table';
  /** For headings: 1 (#), 2 (##) or 3 (###). */
  level?: number;
  text: string;
  /**
   * 1-based, inclusive positions in the unit of the document's kind: pages (PDF), slides (decks), rows
   * as the sheet shows them (spreadsheets), 1 for documents that only have sections.
   */
  pageStart: number;
  pageEnd: number;
}

export interface ExtractedDocument {
  pageCount: number;
  blocks: TextBlock[];
  /** Files carried inside this one (an e-mail's attachments), ingested as documents of their own. */
  attachments?: { name: string; bytes: Uint8Array }[];
}

/** The Markdown form of one block (no trailing newline). */
export function blockToMarkdown(block: TextBlock): string {
  switch (block.kind) {
    case 'heading':
      return `${'#'.repeat(block.level ?? 1)} ${block.text}`;
    case 'code':
      return `\`\`\`\n${block.text}\n\`\`\``;
    case 'list':
      return /^(\d{1,3}[.)]|[-*]) /.test(block.text) ? block.text : `- ${block.text}`;
    default:
      return block.text;
  }
}

export function blocksToMarkdown(blocks: readonly TextBlock[]): string {
  return blocks.map(blockToMarkdown).join('\n\n');
}
