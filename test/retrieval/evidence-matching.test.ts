import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { chunkDocument } from '../../src/ingest/chunk.ts';
import { pdfToBlocks } from '../../src/ingest/pdf-to-markdown.ts';
import { encodeSparseDocument } from '../../src/retrieval/bm25.ts';
import { createRetriever } from '../../src/retrieval/create-retriever.ts';
import { evaluateRetrieval, normalizeForMatch } from '../../src/retrieval/evaluation.ts';
import { openSqliteChunkIndex } from '../../src/retrieval/sqlite-chunk-index.ts';
import { readFixture } from '../ingest/fixtures.ts';

// Page 2 of asy-latex.pdf: a paragraph ends "…is a recipe such as" and the recipe follows as a code
// block, which the chunk text fences with ``` — the evidence as read on the page runs straight on.
const evidence = 'The simplest procedure is a recipe such as pdflatex mydoc asy mydoc-*.asy pdflatex mydoc';
const oldForm = (text: string) => text.toLowerCase().replace(/\s+/g, ' ').trim();

describe('evidence is matched against chunk text in one normal form (asy-latex.pdf)', async () => {
  const { blocks } = await pdfToBlocks(readFixture('asy-latex.pdf'), { name: 'asy-latex.pdf', workers: 2 });
  const source = { documentId: 'asy-latex-0123456789', documentName: 'asy-latex.pdf', scope: 'shared' };
  const { parents, children } = chunkDocument(blocks, source);
  const child = children.find((candidate) => candidate.text.includes('recipe such as'));

  it('finds a phrase that runs from a paragraph into a code block', () => {
    expect(child?.text).toContain('such as\n\n```\npdflatex mydoc');
    expect(oldForm(child?.text ?? '')).not.toContain(oldForm(evidence));
    expect(normalizeForMatch(child?.text ?? '')).toContain(normalizeForMatch(evidence));
  });

  it('folds ligatures, soft hyphens, curly quotes and heading marks on both sides', () => {
    expect(normalizeForMatch('## 2.3 Graphics options\n\nThe ﬁle’s  name is re\u00adcompiled')).toBe(
      "2.3 graphics options the file's name is recompiled",
    );
    expect(normalizeForMatch('- a list item')).toBe(normalizeForMatch('a list item'));
  });

  const directory = mkdtempSync(path.join(tmpdir(), 'ragent-evidence-'));
  afterAll(() => rmSync(directory, { recursive: true, force: true }));

  it('counts the question as a hit in the eval', async () => {
    const index = openSqliteChunkIndex({ file: path.join(directory, 'index.sqlite') });
    try {
      await index.replaceDocument({
        document: {
          id: source.documentId,
          name: source.documentName,
          scope: 'shared',
          pages: 11,
          bytes: 1000,
          parents: parents.length,
          children: children.length,
          uploader: 'test',
          ingestedAt: '2026-01-01T00:00:00.000Z',
          embeddingModel: null,
        },
        parents,
        children: children.map((chunk) => ({ ...chunk, sparse: encodeSparseDocument(chunk.text) })),
      });
      const retriever = createRetriever({ index, embedder: undefined });
      const report = await evaluateRetrieval(
        retriever,
        [{ question: 'Which recipe compiles the pdflatex document mydoc?', evidence: [evidence] }],
        { scopes: ['shared'], k: 5 },
      );
      expect(report.items[0]?.rank).not.toBeNull();
      expect(report.hitAtK).toBe(1);
      expect(report.parentHitAtK).toBe(1);
    } finally {
      await index.close();
    }
  });
});
