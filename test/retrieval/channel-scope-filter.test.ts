/**
 * Channel sets on both index backends, through the retriever: a channel's scope
 * (`slack:T1:C1`) is matched exactly — never by prefix — so a workspace's search does not see its
 * channels' documents, one channel never sees another's, and another workspace sees none.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ChunkIndex } from '../../src/retrieval/chunk-index.ts';
import { createRetriever } from '../../src/retrieval/create-retriever.ts';
import { openQdrantChunkIndex } from '../../src/retrieval/qdrant-chunk-index.ts';
import { openSqliteChunkIndex } from '../../src/retrieval/sqlite-chunk-index.ts';
import { type FakeQdrant, startFakeQdrant } from '../fakes/fake-qdrant.ts';
import { makeDocument } from './make-document.ts';

const backends: Array<{ name: string; open(): Promise<{ index: ChunkIndex; close(): Promise<void> }> }> = [
  {
    name: 'SQLite',
    open: async () => {
      const directory = mkdtempSync(path.join(tmpdir(), 'ragent-channel-scopes-'));
      const index = openSqliteChunkIndex({ file: path.join(directory, 'index.sqlite') });
      return {
        index,
        close: async () => {
          await index.close();
          rmSync(directory, { recursive: true, force: true });
        },
      };
    },
  },
  {
    name: 'Qdrant (real client against the fake server)',
    open: async () => {
      const fake: FakeQdrant = await startFakeQdrant();
      const index = await openQdrantChunkIndex({ url: fake.url, apiKey: undefined, collection: 'ragent' });
      return {
        index,
        close: async () => {
          await index.close();
          await fake.close();
        },
      };
    },
  },
];

describe.each(backends)('channel scopes on the $name index', (backend) => {
  let opened: { index: ChunkIndex; close(): Promise<void> };
  beforeEach(async () => {
    opened = await backend.open();
    const documents = [
      { id: 'hr', scope: 'slack:T1:CHR', texts: ['the handbook grants vacation days every month'] },
      { id: 'eng', scope: 'slack:T1:CENG', texts: ['the runbook says vacation days freeze deploys'] },
      { id: 'private', scope: 'slack:T1:GPRIV', texts: ['the private plan lists vacation days'] },
      { id: 'all', scope: 'slack:T1', texts: ['the workspace policy on vacation days'] },
      { id: 'other', scope: 'slack:T2:CHR', texts: ['another workspace counts vacation days'] },
    ];
    for (const document of documents) await opened.index.replaceDocument(makeDocument(document));
  });
  afterEach(async () => {
    await opened.close();
  });

  const documentsFound = async (scopes: string[]) => {
    const retriever = createRetriever({ index: opened.index, embedder: undefined });
    const hits = await retriever.search('vacation days', { scopes, k: 10 });
    return [...new Set(hits.map((hit) => hit.child.documentId))].sort();
  };

  it('searches a channel’s set, its linked channels, the workspace’s — and nothing else', async () => {
    expect(await documentsFound(['slack:T1:CHR', 'slack:T1', 'shared'])).toEqual(['all', 'hr']);
    expect(await documentsFound(['slack:T1:CENG', 'slack:T1', 'shared'])).toEqual(['all', 'eng']);
    expect(await documentsFound(['slack:T1:CENG', 'slack:T1:CHR', 'slack:T1', 'shared'])).toEqual([
      'all',
      'eng',
      'hr',
    ]);
    // A DM (the workspace and shared): no channel's documents, the private channel's least of all.
    expect(await documentsFound(['slack:T1', 'shared'])).toEqual(['all']);
    expect(await documentsFound(['slack:T2:CHR', 'slack:T2', 'shared'])).toEqual(['other']);
    expect(await documentsFound(['slack:T1:C', 'slack:T1:CH', 'slack:T'])).toEqual([]);
  });

  it('lists and reads parents by exact channel scope only', async () => {
    const listed = await opened.index.listDocuments(['slack:T1:CHR']);
    expect(listed.map((document) => document.id)).toEqual(['hr']);
    expect(await opened.index.listDocuments(['slack:T1'])).toEqual([
      expect.objectContaining({ id: 'all', scope: 'slack:T1' }),
    ]);
    expect(await opened.index.getParent('private:p0', ['slack:T1:GPRIV'])).toBeDefined();
    expect(await opened.index.getParent('private:p0', ['slack:T1', 'slack:T1:CHR'])).toBeUndefined();
  });
});
