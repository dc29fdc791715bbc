import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { chunkDocument } from '../../src/ingest/chunk.ts';
import { pdfToBlocks } from '../../src/ingest/pdf-to-markdown.ts';
import { type Bm25Parameters, bm25Parameters, encodeSparseChild } from '../../src/retrieval/bm25.ts';
import { createRetriever } from '../../src/retrieval/create-retriever.ts';
import { openSqliteChunkIndex } from '../../src/retrieval/sqlite-chunk-index.ts';
import { readFixture } from '../ingest/fixtures.ts';

// asy-latex.pdf, indexed twice in one store: with the weights in use (b = 0.4, the section path counted
// twice) and with the weights before them (b = 0.75, the path counted once), each in its own scope.
describe('a section whose title holds the query word ranks above passing mentions (asy-latex.pdf)', async () => {
  const { blocks } = await pdfToBlocks(readFixture('asy-latex.pdf'), { name: 'asy-latex.pdf', workers: 2 });
  const directory = mkdtempSync(path.join(tmpdir(), 'ragent-heading-weight-'));
  const index = openSqliteChunkIndex({ file: path.join(directory, 'index.sqlite') });
  afterAll(async () => {
    await index.close();
    rmSync(directory, { recursive: true, force: true });
  });
  const before: Bm25Parameters = { ...bm25Parameters, b: 0.75, headingWeight: 1 };
  for (const [scope, parameters] of [
    ['now', bm25Parameters],
    ['before', before],
  ] as const) {
    const source = { documentId: `asy-latex-${scope}-0123`, documentName: 'asy-latex.pdf', scope };
    const { parents, children } = chunkDocument(blocks, source);
    await index.replaceDocument({
      document: {
        id: source.documentId,
        name: source.documentName,
        scope,
        pages: 11,
        bytes: 1000,
        parents: parents.length,
        children: children.length,
        uploader: 'test',
        ingestedAt: '2026-01-01T00:00:00.000Z',
        embeddingModel: null,
      },
      parents,
      children: children.map((child) => ({ ...child, sparse: encodeSparseChild(child.text, parameters) })),
    });
  }
  const retriever = createRetriever({ index, embedder: undefined });
  const sections = async (query: string, scope: string) =>
    (await retriever.search(query, { scopes: [scope], k: 3 })).map((hit) => hit.child.sectionPath.at(-1));

  it('ranks both children of "4.7 Commands for verbatim processing environments" first for "verbatim"', async () => {
    const verbatim = '4.7 Commands for verbatim processing environments';
    expect((await sections('verbatim', 'now')).slice(0, 2)).toEqual([verbatim, verbatim]);
    // Before, a child of 2.2 that only mentions the word came second.
    expect((await sections('verbatim', 'before'))[1]).toBe('2.2 Commands for inserting Asymptote graphics');
  });

  it('ranks "2.3 Graphics options" above a section that only mentions graphics', async () => {
    expect((await sections('graphics', 'now'))[1]).toBe('2.3 Graphics options');
    expect((await sections('graphics', 'before'))[1]).toBe('3 Processing the document');
  });
});
