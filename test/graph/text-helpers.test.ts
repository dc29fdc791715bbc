import { describe, expect, it } from 'vitest';
import { appendSources, collectSources, stripSourcesBlock } from '../../src/graph/sources.ts';
import type { AgentContext } from '../../src/graph/state.ts';
import { countTokens } from '../../src/graph/token-counter.ts';

const context = (overrides: Partial<AgentContext>): AgentContext => ({
  parentId: 'p',
  documentId: 'd1',
  file: 'bash.pdf',
  pages: [1, 1],
  sectionPath: [],
  text: 'text',
  via: 'parent',
  ...overrides,
});

describe('token counting', () => {
  it('counts with the shipped cl100k ranks, treats special tokens as text and survives long runs', () => {
    expect(countTokens('')).toBe(0);
    expect(countTokens('hello world')).toBe(2);
    expect(countTokens('before <|endoftext|> after')).toBeGreaterThan(3);
    const run = 'x'.repeat(20_000);
    expect(countTokens(run)).toBeGreaterThan(1_000);
  });
});

describe('sources', () => {
  it('merges page ranges per document and prefers sections that were read', () => {
    const sources = collectSources([
      [
        context({ parentId: 'a', pages: [12, 13] }),
        context({ parentId: 'b', pages: [14, 14] }),
        context({ parentId: 'c', pages: [40, 41] }),
        context({ parentId: 'hit', pages: [90, 90], via: 'search' }),
      ],
      [context({ parentId: 'x', documentId: 'd2', file: 'bashref.pdf', pages: [3, 3], via: 'search' })],
    ]);
    expect(sources).toEqual([
      { file: 'bash.pdf', docId: 'd1', pages: [12, 14] },
      { file: 'bash.pdf', docId: 'd1', pages: [40, 41] },
      { file: 'bashref.pdf', docId: 'd2', pages: [3, 3] },
    ]);
    expect(appendSources('Body.', sources)).toBe(
      'Body.\n\nSources:\n- bash.pdf (p. 12–14)\n- bash.pdf (p. 40–41)\n- bashref.pdf (p. 3)',
    );
    expect(appendSources('Body.', [])).toMatch(/Sources: none/);
  });

  it('strips a sources block the model wrote, and only that', () => {
    expect(stripSourcesBlock('Answer.\n\n**Sources:**\n- bash.pdf (p. 1)')).toBe('Answer.');
    expect(stripSourcesBlock('Answer.\nSources: bash.pdf (p. 12–13)')).toBe('Answer.');
    expect(stripSourcesBlock('Open source software is fine.')).toBe('Open source software is fine.');
    expect(stripSourcesBlock('Answer.\nSource code lives in git.')).toBe(
      'Answer.\nSource code lives in git.',
    );
    expect(stripSourcesBlock('Answer.\n\n## Sources\n- bash.pdf (p. 2)')).toBe('Answer.');
  });

  it('drops the horizontal rule the model put above its sources block, and keeps rules inside the answer', () => {
    expect(stripSourcesBlock('Answer.\n\n---\n\n**Sources:**\n- bash.pdf (p. 1)')).toBe('Answer.');
    expect(stripSourcesBlock('Answer.\n\n* * *\nSources: bash.pdf (p. 1)')).toBe('Answer.');
    expect(stripSourcesBlock('Answer.\n___\n')).toBe('Answer.');
    expect(stripSourcesBlock('Part one.\n\n---\n\nPart two.')).toBe('Part one.\n\n---\n\nPart two.');
    expect(stripSourcesBlock('- item one\n- item two')).toBe('- item one\n- item two');
  });
});
