import { describe, expect, it } from 'vitest';
import { chunkDocument, defaultChunkOptions } from '../../src/ingest/chunk.ts';
import { pdfToBlocks } from '../../src/ingest/pdf-to-markdown.ts';
import { readFixture } from './fixtures.ts';

/**
 * bash-pages.pdf: pages 9–11 and 68 of the bash man page (groff, no outline). Section headings (.SH) stand
 * at the left margin and subsections (.SS) a little right of it, both bold at the body size; the body is
 * indented past them. The variables and builtins are definition-list items (.TP): a bold term at the body
 * indent with its description indented further — on the term's line when the term is short, on the next
 * line(s) when it is long (BASHPID, or a builtin's synopsis in several forms).
 */
describe('definition-list terms on their own line, in a man page without an outline', () => {
  const extracted = pdfToBlocks(readFixture('bash-pages.pdf'), { name: 'bash-pages.pdf', workers: 1 });

  it('are items of the list, not headings: the sections stay those of the man page', async () => {
    const { blocks } = await extracted;
    const headings = blocks
      .filter((block) => block.kind === 'heading')
      .map((block) => [block.level, block.text]);
    expect(headings).toEqual([
      [1, 'PARAMETERS'],
      [2, 'Positional Parameters'],
      [2, 'Special Parameters'],
      [2, 'Shell Variables'],
    ]);
  });

  it('start a paragraph with their description, as the terms that share a line with it do', async () => {
    const { blocks } = await extracted;
    const starting = (prefix: string) => blocks.filter((block) => block.text.startsWith(prefix));
    expect(starting('BASHPID Expands to the process ID')).toMatchObject([{ kind: 'paragraph' }]);
    expect(starting('BASH_ALIASES An associative array')).toMatchObject([{ kind: 'paragraph' }]);
    // A synopsis in several forms is one term: its lines and the description make one paragraph.
    const [history] = starting('history [n]');
    expect(history?.kind).toBe('paragraph');
    expect(history?.text).toMatch(/^history \[n\] history −c history −d offset .* With no options, display/);
  });

  it('leave the section path of the items that follow them to their section', async () => {
    const { blocks } = await extracted;
    const { children } = chunkDocument(
      blocks,
      { documentId: 'bash-pages', documentName: 'bash-pages.pdf', scope: 'shared' },
      defaultChunkOptions,
    );
    const holding = (text: string) => children.find((child) => child.text.includes(text));
    expect(holding('An array variable whose values are the number of parameters')?.sectionPath).toEqual([
      'PARAMETERS',
      'Shell Variables',
    ]);
    // Page 68 follows page 11 here: the builtin is no section of its own either.
    expect(holding('With no options, display the command history list')?.sectionPath).toEqual([
      'PARAMETERS',
      'Shell Variables',
    ]);
  });
});
