import { describe, expect, it } from 'vitest';
import type { Source } from '../../src/core/types.ts';
import { sourceEntries, sourceList } from '../../src/replies/source-entries.ts';

const source = (file: string, pages: [number, number], extra: Partial<Source> = {}): Source =>
  ({ file, pages, ...extra }) as Source;
const sources = [
  source('bash.pdf', [3, 4], { section: ['Loops'] }),
  source('R-intro.pdf', [7, 7]),
  source('bash.pdf', [12, 12], { link: 'https://files.example/bash' }),
  source('bash.pdf', [3, 4]),
];
const link = (candidate: Source) => candidate.link;

describe("an answer's sources as entries every platform lists", () => {
  it('merges the pages of one file in order of first mention, with its first allowed link', () => {
    expect(sourceEntries(sources, { numbered: false, grouped: true, link })).toEqual([
      { name: 'bash.pdf', link: 'https://files.example/bash', place: 'pp. 3–4, 12' },
      { name: 'R-intro.pdf', place: 'p. 7' },
    ]);
  });

  it('numbers each source in order, naming the section an answer cited by its number', () => {
    expect(sourceEntries(sources.slice(0, 2), { numbered: true, grouped: true, link })).toEqual([
      { number: 1, name: 'bash.pdf', place: 'pp. 3–4, Loops' },
      { number: 2, name: 'R-intro.pdf', place: 'p. 7' },
    ]);
  });

  it('lists each source on its own where the platform does not group them', () => {
    expect(sourceEntries(sources, { numbered: false, grouped: false, link: () => undefined })).toHaveLength(
      4,
    );
  });

  it('joins the written entries within the budget: "… and N more" where asked, else shortened', () => {
    const many = Array.from({ length: 30 }, (_, index) => source(`file-${index}.pdf`, [1, 1]));
    const listing = {
      numbered: false,
      grouped: false,
      ownPage: () => true,
      linkTarget: (target: string) => target,
      write: (entry: { name: string; place: string }) => `${entry.name} ${entry.place}`,
      separator: '\n',
      budget: 100,
    };
    expect(sourceList(many.slice(0, 2), listing)).toBe('file-0.pdf p. 1\nfile-1.pdf p. 1');
    const counted = sourceList(many, { ...listing, countMore: true });
    expect(counted.length).toBeLessThanOrEqual(100);
    expect(counted.split('\n').at(-1)).toBe(`… and ${30 - (counted.split('\n').length - 1)} more`);
    const shortened = sourceList(many, listing);
    expect(shortened).toHaveLength(100);
    expect(shortened.endsWith('…')).toBe(true);
  });
});
