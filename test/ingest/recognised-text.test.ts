import { describe, expect, it } from 'vitest';
import { recognisedTextToBlocks } from '../../src/ingest/ocr/recognised-text.ts';

describe('recognisedTextToBlocks', () => {
  it('makes paragraphs of the blank-line-separated text, mending words broken at a line end', () => {
    const text = 'The pump must be in-\nspected every month\nby the operator.\n\nSee the valve   schedule.\n';
    expect(recognisedTextToBlocks(text, 4)).toEqual([
      {
        kind: 'paragraph',
        text: 'The pump must be inspected every month by the operator.',
        pageStart: 4,
        pageEnd: 4,
      },
      { kind: 'paragraph', text: 'See the valve schedule.', pageStart: 4, pageEnd: 4 },
    ]);
  });

  it('keeps a hyphen before a capital, and makes bulleted or numbered lines list items', () => {
    const text = 'Parts for the North-\nEast site:\n• two gaskets\n• one filter,\nsize M\n1. Drain the tank';
    expect(recognisedTextToBlocks(text, 1).map(({ kind, text: blockText }) => [kind, blockText])).toEqual([
      ['paragraph', 'Parts for the North- East site:'],
      ['list', '- two gaskets'],
      ['list', '- one filter, size M'],
      ['list', '1. Drain the tank'],
    ]);
  });

  it('drops what holds no letter or digit (specks read as punctuation)', () => {
    expect(recognisedTextToBlocks(' \n\n— .\n\n|', 2)).toEqual([]);
  });
});
