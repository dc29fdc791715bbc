/**
 * Answers' sources in each document's own terms: sheet rows merged per sheet, slides, sections of text
 * documents, and PDFs cited by pages as ever — in the plain sources block, Slack's context line and
 * Discord's sources embed.
 */
import { describe, expect, it } from 'vitest';
import type { FileKind } from '../../src/core/file-kind.ts';
import { locationOf } from '../../src/core/location.ts';
import { appendSources, collectSources } from '../../src/graph/sources.ts';
import type { AgentContext } from '../../src/graph/state.ts';
import { sourcesEmbed } from '../../src/platforms/discord/render-answer.ts';
import { formatSources } from '../../src/platforms/slack/render-answer.ts';

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

const kinds = new Map<string, FileKind>([
  ['sheet', 'xlsx'],
  ['deck', 'pptx'],
  ['guide', 'docx'],
  ['csv', 'csv'],
  ['manual', 'pdf'],
]);

describe('source locations', () => {
  const sources = collectSources(
    [
      [
        context({
          parentId: 'a',
          documentId: 'sheet',
          file: 'costs.xlsx',
          pages: [12, 15],
          sectionPath: ['2026'],
        }),
        context({
          parentId: 'b',
          documentId: 'sheet',
          file: 'costs.xlsx',
          pages: [16, 18],
          sectionPath: ['2026'],
        }),
        context({
          parentId: 'c',
          documentId: 'sheet',
          file: 'costs.xlsx',
          pages: [16, 18],
          sectionPath: ['2025'],
        }),
        context({
          parentId: 'd',
          documentId: 'deck',
          file: 'launch-plan.pptx',
          pages: [4, 4],
          sectionPath: ['Slide 4: Timeline'],
        }),
        context({
          parentId: 'e',
          documentId: 'guide',
          file: 'guide.docx',
          sectionPath: ['Store guide', 'Returns'],
        }),
        context({ parentId: 'f', documentId: 'csv', file: 'vendors.csv', pages: [2, 9] }),
        context({ parentId: 'g', documentId: 'manual', file: 'manual.pdf', pages: [7, 8] }),
      ],
    ],
    kinds,
  );

  it('merges rows within a sheet, and says sheet, rows, slide and section', () => {
    expect(appendSources('Body.', sources)).toBe(
      [
        'Body.',
        '',
        'Sources:',
        '- costs.xlsx, sheet 2026, rows 12–18',
        '- costs.xlsx, sheet 2025, rows 16–18',
        '- launch-plan.pptx, slide 4',
        '- guide.docx › Store guide › Returns',
        '- vendors.csv, rows 2–9',
        '- manual.pdf (p. 7–8)',
      ].join('\n'),
    );
    // PDFs keep the shape they always had (no location: cited by pages).
    expect(sources.at(-1)).toEqual({ file: 'manual.pdf', docId: 'manual', pages: [7, 8] });
  });

  it('shows the same places in Slack and Discord', () => {
    expect(formatSources(sources)).toBe(
      ':page_facing_up: *costs.xlsx* sheet 2026, rows 12–18, sheet 2025, rows 16–18  ·  *launch-plan.pptx* slide 4' +
        '  ·  *guide.docx* › Store guide › Returns  ·  *vendors.csv* rows 2–9  ·  *manual.pdf* pp. 7–8',
    );
    const embed = sourcesEmbed(sources).description ?? '';
    expect(embed).toContain('📄 **costs.xlsx** — sheet 2026, rows 12–18');
    expect(embed).toContain('📄 **launch-plan.pptx** — slide 4');
    expect(embed).toContain('📄 **guide.docx** — Store guide › Returns');
    expect(embed).toContain('📄 **manual.pdf** — pp. 7–8');
  });

  it('gives search hits the location of their kind', () => {
    const chunk = { pageStart: 3, pageEnd: 5, sectionPath: ['Budget', 'Q1'] };
    expect(locationOf('pdf', chunk)).toEqual({ pages: [3, 5] });
    expect(locationOf('xlsx', chunk)).toEqual({ sheet: 'Budget', rows: [3, 5] });
    expect(locationOf('csv', chunk)).toEqual({ rows: [3, 5] });
    expect(locationOf('pptx', { ...chunk, pageEnd: 3 })).toEqual({ slide: 3 });
    expect(locationOf('odp', chunk)).toEqual({ slides: [3, 5] });
    expect(locationOf('markdown', chunk)).toEqual({ section: 'Budget › Q1' });
    expect(locationOf('docx', { ...chunk, sectionPath: [] })).toEqual({});
    expect(locationOf(undefined, chunk)).toEqual({ pages: [3, 5] });
  });
});
