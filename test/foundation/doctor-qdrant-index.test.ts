/**
 * `ragent doctor` with QDRANT_URL: the embeddings and ranking-weights checks run on Qdrant's live
 * documents (read only: nothing created, swept or changed); the embedded size check is skipped.
 * Real Qdrant client against the fake server.
 */
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.ts';
import { checkIndex } from '../../src/doctor/check-index-size.ts';
import { runDoctor } from '../../src/doctor/run-doctor.ts';
import { openQdrantChunkIndex } from '../../src/retrieval/qdrant-chunk-index.ts';
import { type FakeQdrant, startFakeQdrant } from '../fakes/fake-qdrant.ts';
import { axis, makeDocument } from '../retrieval/make-document.ts';
import { closedPort } from './small-http-server.ts';

describe('doctor: the index checks on Qdrant', () => {
  let qdrant: FakeQdrant;
  beforeEach(async () => {
    qdrant = await startFakeQdrant();
  });
  afterEach(async () => {
    await qdrant.close();
    expect(qdrant.violations).toEqual([]);
  });
  const configFor = (url: string, embeddings = 'ollama') =>
    loadConfig(
      {
        QDRANT_URL: url,
        RAGENT_EMBEDDINGS: embeddings,
        OLLAMA_EMBED_MODEL: 'model-a',
        // Never created: the doctor only looks (and the index lives in Qdrant).
        RAGENT_DATA_DIR: path.join(tmpdir(), 'ragent-doctor-qdrant-absent'),
      },
      { envFile: false },
    );

  it('reports a mixed index and older ranking weights, reading only', async () => {
    const index = await openQdrantChunkIndex({ url: qdrant.url, apiKey: undefined, collection: 'ragent' });
    const dense = () => axis(4, 0);
    await index.replaceDocument(
      makeDocument({ id: 'a', scope: 'shared', texts: ['pump'], dense, model: 'model-a' }),
    );
    await index.replaceDocument(makeDocument({ id: 'b', scope: 'slack:T1', texts: ['valve'] }));
    const older = makeDocument({ id: 'c', scope: 'discord:G1', texts: ['seal'], dense, model: 'model-a' });
    const { sparseWeightsVersion: _version, ...unversioned } = older.document;
    await index.replaceDocument({ ...older, document: unversioned });
    await index.close();
    const writes = qdrant.requests.length;

    const results = await checkIndex(configFor(qdrant.url), 1_000);
    expect(results).toEqual([
      {
        title: 'Index size',
        status: 'skip',
        detail: 'Qdrant (QDRANT_URL) holds the index; it grows with the server',
      },
      {
        title: 'Index embeddings',
        status: 'warn',
        detail:
          '1 of 3 documents are not indexed with model-a (1 with no embeddings (BM25 only)), so searches rank ' +
          'them differently from the rest. Run `ragent reindex` to index them again from the stored text.',
        fix: ['Run `ragent reindex`.'],
      },
      {
        title: 'Index ranking weights',
        status: 'warn',
        detail: expect.stringMatching(
          /^1 of 3 documents were indexed with the ranking weights of an older ragent/,
        ),
        fix: ['Run `ragent reindex`.'],
      },
    ]);
    // Read only: existence, layout, scrolls — never a write, a sweep or a payload index.
    const read = qdrant.requests.slice(writes);
    expect(read.length).toBeGreaterThan(0);
    expect(
      read.every(
        (request) =>
          request.method === 'GET' || (request.method === 'POST' && request.path.endsWith('/points/scroll')),
      ),
    ).toBe(true);

    // Through `runDoctor` too, next to the vector store's own check.
    const report = await runDoctor(configFor(qdrant.url, 'none'), { timeoutMs: 1_000 });
    const titles = report.results.map((result) => `${result.title}: ${result.status}`);
    expect(titles).toContain('Vector store: pass');
    expect(titles).toContain('Index embeddings: warn');
  });

  it('skips them when there is no collection yet, or Qdrant cannot be read', async () => {
    const none = await checkIndex(configFor(qdrant.url), 1_000);
    expect(none.map((result) => [result.status, result.detail])).toEqual([
      ['skip', 'Qdrant (QDRANT_URL) holds the index; it grows with the server'],
      ['skip', 'no collection "ragent" yet (ingest a document to create it)'],
      ['skip', 'no collection "ragent" yet (ingest a document to create it)'],
    ]);
    expect(qdrant.collection('ragent')).toBeUndefined();
    const port = await closedPort();
    const down = await checkIndex(configFor(`http://127.0.0.1:${port}`), 1_000);
    expect(down.map((result) => result.status)).toEqual(['skip', 'skip', 'skip']);
    expect(down[1]?.detail).toMatch(/^could not read the documents from Qdrant \(Qdrant is not reachable/);
    expect(down[1]?.detail).not.toContain(String(port));
  });
});
