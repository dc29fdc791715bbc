import { describe, expect, it } from 'vitest';
import {
  chunkDocument,
  defaultChunkOptions,
  indexedChildText,
  sectionSeparator,
} from '../../src/ingest/chunk.ts';
import { splitText } from '../../src/ingest/split-text.ts';
import type { TextBlock } from '../../src/ingest/text-block.ts';

const source = { documentId: 'abcdef0123456789'.repeat(4), documentName: 'guide.pdf', scope: 'shared' };
/** The structure tests cut children of 500 characters (overlap 100), whatever the default size. */
const small = { ...defaultChunkOptions, childSize: 500, childOverlap: 100 };

/** Deterministic prose: sentences of ordinary words. */
function prose(length: number, seed: number): string {
  const words = [
    'shell',
    'command',
    'variable',
    'the',
    'expands',
    'quoted',
    'pipeline',
    'runs',
    'each',
    'word',
  ];
  const sentences: string[] = [];
  let total = 0;
  for (let index = 0; total < length; index++) {
    const count = 6 + ((index * 7 + seed) % 9);
    const sentence = Array.from(
      { length: count },
      (_, word) => words[(index * 3 + word * 7 + seed) % words.length],
    );
    const text = `${sentence.join(' ')}.`;
    sentences.push(text.charAt(0).toUpperCase() + text.slice(1));
    total += text.length + 1;
  }
  return sentences.join(' ');
}

const heading = (level: number, text: string, page: number): TextBlock => ({
  kind: 'heading',
  level,
  text,
  pageStart: page,
  pageEnd: page,
});
const paragraph = (text: string, pageStart: number, pageEnd = pageStart): TextBlock => ({
  kind: 'paragraph',
  text,
  pageStart,
  pageEnd,
});

describe('splitText', () => {
  it('cuts windows of at most the size, at sentence or word boundaries, overlapping from a sentence start', () => {
    const text = prose(5_000, 1);
    const ranges = splitText(text, 500, 100);
    expect(ranges.length).toBeGreaterThan(10);
    for (const [index, range] of ranges.entries()) {
      expect(range.end - range.start).toBeLessThanOrEqual(500);
      if (index < ranges.length - 1) expect(range.end - range.start).toBeGreaterThanOrEqual(250);
      expect(text.slice(range.end - 1, range.end)).toMatch(/[.\w]/);
      if (index < ranges.length - 1) expect(text.slice(range.end - 1, range.end)).toBe('.');
      expect(text[range.start - 1] ?? ' ').toMatch(/\s/);
      const next = ranges[index + 1];
      if (next) {
        const overlap = range.end - next.start;
        expect(overlap).toBeGreaterThan(50);
        expect(overlap).toBeLessThanOrEqual(150);
        // Sentences here are under 100 characters: one always starts near the overlap point.
        expect(text.slice(next.start - 2, next.start)).toBe('. ');
      }
    }
    expect(ranges.at(-1)?.end).toBe(text.length);
  });

  it('cuts a run without any boundary at the size', () => {
    const ranges = splitText('x'.repeat(1_200), 500, 100);
    expect(ranges.map((range) => [range.start, range.end])).toEqual([
      [0, 500],
      [400, 900],
      [800, 1200],
    ]);
  });
});

describe('chunkDocument', () => {
  const blocks: TextBlock[] = [
    heading(1, 'Bash', 1),
    paragraph(prose(300, 2), 1),
    heading(2, 'Shell Commands', 2),
    paragraph(prose(400, 3), 2),
    heading(3, 'Pipelines', 3),
    paragraph(prose(1_500, 4), 3, 4),
    heading(3, 'Lists', 5),
    paragraph(prose(9_000, 5), 5, 9),
    heading(2, 'Shell Functions', 10),
    paragraph(prose(2_500, 6), 10),
    heading(2, 'Tiny', 11),
    paragraph('A last short section.', 11),
  ];
  const { parents, children } = chunkDocument(blocks, source, small);

  it('merges small sections up to the minimum and splits large ones at the maximum', () => {
    expect(parents.length).toBeGreaterThan(3);
    for (const parent of parents) expect(parent.text.length).toBeLessThanOrEqual(4_000);
    for (const parent of parents.slice(0, -1)) expect(parent.text.length).toBeGreaterThanOrEqual(1_500);
    // Bash + Shell Commands + Pipelines (each under 2,000) are one parent.
    expect(parents[0]?.text).toMatch(/^# Bash\n\n[\s\S]*## Shell Commands[\s\S]*### Pipelines/);
    expect(parents[0]?.sectionPath).toEqual(['Bash']);
    expect(parents[0]).toMatchObject({ pageStart: 1, pageEnd: 4 });
    // The last tiny section is merged into the one before it.
    expect(parents.at(-1)?.text).toMatch(/## Shell Functions[\s\S]*## Tiny\n\nA last short section\.$/);
  });

  it('splits an oversized section into overlapping parents that keep its path and pages', () => {
    const lists = parents.filter((parent) => parent.sectionPath.join('/') === 'Bash/Shell Commands/Lists');
    expect(lists.length).toBeGreaterThanOrEqual(3);
    for (const [index, parent] of lists.entries()) {
      expect(parent.pageStart).toBeGreaterThanOrEqual(5);
      expect(parent.pageEnd).toBeLessThanOrEqual(9);
      const next = lists[index + 1];
      if (next) expect(parent.text).toContain(next.text.slice(0, 30));
    }
  });

  it('gives short stable ids', () => {
    expect(parents.map((parent) => parent.id)).toEqual(
      parents.map((_, index) => `abcdef012345-p${index + 1}`),
    );
    const first = children.filter((child) => child.parentId === 'abcdef012345-p1');
    expect(first.map((child) => child.id)).toEqual(first.map((_, index) => `abcdef012345-p1-c${index + 1}`));
    expect(chunkDocument(blocks, source, small)).toEqual({ parents, children });
  });

  it('cuts children of at most 500 characters from their parent, overlapping within a section, with the section path in front', () => {
    for (const parent of parents) {
      const own = children.filter((child) => child.parentId === parent.id);
      expect(own.length).toBeGreaterThan(0);
      for (const [index, child] of own.entries()) {
        const [pathLine, ...rest] = child.text.split('\n');
        const body = rest.join('\n');
        expect(pathLine).toBe(child.sectionPath.join(sectionSeparator));
        expect(body.length).toBeLessThanOrEqual(500);
        expect(parent.text).toContain(body);
        expect(child).toMatchObject({
          documentId: source.documentId,
          documentName: 'guide.pdf',
          scope: 'shared',
        });
        expect(child.pageStart).toBeGreaterThanOrEqual(parent.pageStart);
        expect(child.pageEnd).toBeLessThanOrEqual(parent.pageEnd);
        const next = own[index + 1];
        if (next) {
          const nextBody = next.text.slice(next.text.indexOf('\n') + 1);
          // Windows of one section overlap; the first window of the next section starts at its heading.
          if (next.sectionPath.join('/') === child.sectionPath.join('/')) {
            expect(body).toContain(nextBody.slice(0, 20));
          } else {
            expect(nextBody).toMatch(/^#{1,3} /);
            expect(body).not.toContain(nextBody.slice(0, 20));
          }
        }
      }
    }
  });

  it('gives each child the section its text comes from', () => {
    const pipelines = children.find((child) => child.text.includes('### Pipelines'));
    const after = children[children.indexOf(pipelines!) + 1];
    expect(after?.sectionPath).toEqual(['Bash', 'Shell Commands', 'Pipelines']);
    expect(after?.text.startsWith('Bash › Shell Commands › Pipelines\n')).toBe(true);
    expect(after?.pageStart).toBeGreaterThanOrEqual(3);
  });

  it('never lets a child straddle a new topic in a merged parent; a tiny subsection joins the child before', () => {
    const merged = chunkDocument(
      [
        heading(1, 'Functions', 1),
        heading(2, 'labels', 1),
        paragraph(`${prose(560, 9)} Labels end here.`, 1),
        heading(3, 'References', 2),
        paragraph('See the manual.', 2),
        heading(2, 'lapply', 3),
        paragraph(`Lapply applies a function over a list. ${prose(300, 10)}`, 3),
        heading(2, 'Tiny', 4),
        paragraph('Short.', 4),
      ],
      source,
      small,
    );
    expect(merged.parents).toHaveLength(1);
    const summary = merged.children.map((child) => ({
      path: child.sectionPath.join('/'),
      starts: child.text.split('\n')[1],
      pages: [child.pageStart, child.pageEnd],
    }));
    expect(summary).toEqual([
      // A heading with no text of its own leads into the next section's first child.
      { path: 'Functions/labels', starts: '# Functions', pages: [1, 1] },
      // The tiny "References" (same topic) ends the last child of "labels", which holds most of its text.
      { path: 'Functions/labels', starts: expect.not.stringMatching(/^#/), pages: [1, 2] },
      // A new topic starts a new child, even a tiny one.
      { path: 'Functions/lapply', starts: '## lapply', pages: [3, 3] },
      { path: 'Functions/Tiny', starts: '## Tiny', pages: [4, 4] },
    ]);
    expect(merged.children[1]?.text).toMatch(/Labels end here\.\n\n### References\n\nSee the manual\.$/);
    expect(merged.children[3]?.text).toBe('Functions › Tiny\n## Tiny\n\nShort.');
    for (const child of merged.children) {
      const topics = ['Labels end here', 'Lapply applies', 'Short.'].filter((phrase) =>
        child.text.includes(phrase),
      );
      expect(topics.length).toBeLessThanOrEqual(1);
    }
  });

  it('gives a section that is not tiny children of its own, even within one topic', () => {
    const { children: own } = chunkDocument(
      [
        heading(2, 'grep', 1),
        heading(3, 'Description', 1),
        paragraph(prose(300, 11), 1),
        heading(3, 'Usage', 2),
        paragraph(`grep(pattern, x) ${prose(120, 12)}`, 2),
      ],
      source,
      small,
    );
    expect(own.map((child) => child.sectionPath.join('/'))).toEqual(['grep/Description', 'grep/Usage']);
    expect(own[1]?.text.split('\n')[1]).toBe('### Usage');
  });

  it('starts a new parent at a new topic once the current one is half full', () => {
    const topics = (level: number) =>
      chunkDocument(
        [
          heading(level, 'A', 1),
          paragraph(prose(1_200, 7), 1),
          heading(level, 'B', 2),
          paragraph(prose(1_500, 8), 2),
        ],
        source,
      ).parents.map((parent) => parent.sectionPath.join('/'));
    expect(topics(2)).toEqual(['A', 'B']);
    expect(topics(3)).toEqual(['A']);
  });

  it('names the document when text comes before any heading', () => {
    const { children: loose } = chunkDocument([paragraph('Just some text.', 1)], source);
    expect(loose[0]?.text).toBe('guide.pdf\nJust some text.');
    expect(loose[0]?.sectionPath).toEqual([]);
    expect(indexedChildText(['A', 'B'], 'x.pdf', 'body')).toBe('A › B\nbody');
  });
});

describe('chunkDocument on one long section of many blocks', () => {
  // 3,000 paragraphs of ~300 characters under one heading, one page each: the section is split into
  // many parents, each of which must know exactly the pages of the blocks it holds.
  const blocks: TextBlock[] = [heading(1, 'Reference', 1)];
  for (let page = 1; page <= 3_000; page++) blocks.push(paragraph(`Page ${page}. ${prose(300, page)}`, page));
  const { parents, children } = chunkDocument(blocks, source);

  it('gives every parent the pages of the paragraphs in its text, in order, covering the section', () => {
    expect(parents.length).toBeGreaterThan(200);
    for (const parent of parents) {
      const pages = [...parent.text.matchAll(/Page (\d+)\./g)].map((match) => Number(match[1]));
      const first = pages[0] as number;
      expect([first - 1, first]).toContain(parent.pageStart);
      expect(parent.pageEnd).toBe(pages.at(-1));
    }
    expect(parents[0]?.pageStart).toBe(1);
    expect(parents.at(-1)?.pageEnd).toBe(3_000);
    expect(children.every((child) => child.sectionPath.join('/') === 'Reference')).toBe(true);
  });
});
