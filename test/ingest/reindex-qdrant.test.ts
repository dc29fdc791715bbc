/**
 * `reindexDocuments` on the Qdrant backend: documents read back from the text Qdrant stores and written
 * again through the versioned commit — BM25-only documents made hybrid, older BM25 weights replaced,
 * another model of the same size embedded after its vectors are dropped, another size refused with
 * nothing dropped, and a failure at any Qdrant request of one document's re-index leaving it as it was.
 * Real Qdrant and Ollama clients against the fake servers.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.ts';
import type { DocumentRecord } from '../../src/core/types.ts';
import { createIngestion } from '../../src/ingest/ingestion-service.ts';
import { reindexDocuments } from '../../src/ingest/reindex-documents.ts';
import { createLogger } from '../../src/logger.ts';
import { OllamaEmbedder } from '../../src/models/ollama-embedder.ts';
import { encodeSparseQuery, sparseWeightsVersion } from '../../src/retrieval/bm25.ts';
import { staleRanking } from '../../src/retrieval/index-health.ts';
import { openQdrantChunkIndex, type QdrantChunkIndex } from '../../src/retrieval/qdrant-chunk-index.ts';
import { type FakeOllama, startFakeOllama } from '../fakes/fake-ollama.ts';
import { type FakeQdrant, startFakeQdrant } from '../fakes/fake-qdrant.ts';
import { textManual } from './text-manual.ts';

const logger = createLogger({ level: 'silent' });
const model = 'qwen3-embedding:0.6b';

describe('re-indexing on Qdrant (real clients, fake Qdrant and Ollama)', () => {
  let ollama: FakeOllama;
  let narrow: FakeOllama;
  let qdrant: FakeQdrant;
  let index: QdrantChunkIndex;
  let directory: string;
  const embedder = (name = model, at: FakeOllama = ollama) =>
    new OllamaEmbedder({ baseUrl: at.url, model: name, batchSize: 4, timeoutMs: 5_000, attempts: 1 });
  const ingestionWith = (embedding: OllamaEmbedder | undefined) =>
    createIngestion({
      config: loadConfig({ RAGENT_DATA_DIR: directory, RAGENT_EMBEDDINGS: 'none' }, { envFile: false }),
      logger,
      index,
      embedder: embedding,
    });
  const ingest = (subject: string, embedding: OllamaEmbedder | undefined, force = false) =>
    ingestionWith(embedding).ingest({
      name: `${subject}.txt`,
      bytes: textManual(subject),
      scope: 'shared',
      uploader: 't',
      ...(force ? { force: true } : {}),
    });
  const models = (documents: DocumentRecord[]) =>
    Object.fromEntries(documents.map((document) => [document.name, document.embeddingModel]));
  const listed = () => index.listDocuments(['shared']);
  const stored = async (name: string) => {
    const document = (await listed()).find((each) => each.name === name)!;
    return index.readDocument(document.id, 'shared');
  };
  const bm25Top = async (text: string) =>
    (await index.search({ text, sparse: encodeSparseQuery(text) }, { scopes: ['shared'], k: 3 }))[0]?.child
      .documentName;
  const denseTop = async (text: string) =>
    (
      await index.search(
        { text, sparse: { indices: [], values: [] }, dense: (await embedder().embed([text]))[0] },
        { scopes: ['shared'], k: 3 },
      )
    )[0]?.child.documentName;
  const childPoints = () =>
    [...qdrant.collection('ragent')!.points.values()].filter((point) => point.payload.kind === 'child');

  beforeAll(async () => {
    ollama = await startFakeOllama({ embedDimension: 16, models: [model, 'other-embed'] });
    narrow = await startFakeOllama({ embedDimension: 8, models: ['narrow-embed'] });
  });
  afterAll(async () => {
    await ollama.close();
    await narrow.close();
  });
  beforeEach(async () => {
    directory = mkdtempSync(path.join(tmpdir(), 'ragent-reindex-qdrant-'));
    qdrant = await startFakeQdrant();
    index = await openQdrantChunkIndex({
      url: qdrant.url,
      apiKey: undefined,
      collection: 'ragent',
      batchSize: 8,
      logger,
    });
    // The collection is created with dense vectors by the first (embedded) ingest; two more documents
    // were ingested BM25-only (RAGENT_EMBEDDINGS=none) into it.
    await ingest('turbine', embedder());
    await ingest('compressor', undefined);
    await ingest('gearbox', undefined);
  });
  afterEach(async () => {
    await index.close();
    await qdrant.close();
    expect(qdrant.violations).toEqual([]);
    rmSync(directory, { recursive: true, force: true });
  });

  it('embeds the BM25-only documents from their stored text and replaces older BM25 weights', async () => {
    expect(models(await listed())).toEqual({
      'compressor.txt': null,
      'gearbox.txt': null,
      'turbine.txt': model,
    });
    // gearbox.txt as an older ragent wrote it: no ranking weights' version.
    for (const point of qdrant.collection('ragent')!.points.values()) {
      if (point.payload.kind === 'document' && point.payload.name === 'gearbox.txt') {
        delete point.payload.sparse_weights_version;
      }
    }
    expect(staleRanking(await listed()).stale).toHaveLength(1);
    const before = await Promise.all(['turbine.txt', 'compressor.txt', 'gearbox.txt'].map(stored));
    expect(await denseTop('gearbox settings')).not.toBe('gearbox.txt');

    const report = await reindexDocuments({ index, embedder: embedder(), logger }, {});
    expect(report).toMatchObject({ droppedVectors: false });
    expect(report.reindexed.map((document) => document.name)).toEqual([
      'compressor.txt',
      'gearbox.txt',
      'turbine.txt',
    ]);
    expect(models(await listed())).toEqual({
      'compressor.txt': model,
      'gearbox.txt': model,
      'turbine.txt': model,
    });
    expect(staleRanking(await listed()).stale).toEqual([]);
    expect((await listed()).every((document) => document.sparseWeightsVersion === sparseWeightsVersion)).toBe(
      true,
    );
    // Every chunk kept, as it was; every child now has a dense vector; dense search finds them.
    const after = await Promise.all(['turbine.txt', 'compressor.txt', 'gearbox.txt'].map(stored));
    expect(after.map((each) => [each?.parents, each?.children])).toEqual(
      before.map((each) => [each?.parents, each?.children]),
    );
    expect(childPoints().every((point) => Array.isArray(point.vector.dense))).toBe(true);
    expect(await denseTop('gearbox settings')).toBe('gearbox.txt');
  });

  it('leaves a document as it was whatever Qdrant request of its re-index fails; a rerun finishes', async () => {
    let step = 0;
    let outcomes = 0;
    for (;;) {
      for (const apply of ['none', 'all'] as const) {
        const target = (await listed()).find((document) => document.name === 'gearbox.txt')!;
        const before = await stored('gearbox.txt');
        expect(target.embeddingModel).toBeNull();
        let seen = 0;
        let fired = false;
        qdrant.failRequest({
          where: () => {
            if (seen++ !== step) return false;
            fired = true;
            return true;
          },
          apply,
        });
        const outcome = await reindexDocuments(
          { index, embedder: embedder(), logger },
          { document: target },
        ).then(
          () => 'reindexed' as const,
          (error: { code?: string }) => error.code,
        );
        if (!fired) {
          // The re-index has fewer requests than `step`: every step has been tried.
          expect(outcome).toBe('reindexed');
          expect(step).toBeGreaterThan(5);
          expect(outcomes).toBeGreaterThan(5);
          return;
        }
        outcomes++;
        const now = (await listed()).find((document) => document.name === 'gearbox.txt')!;
        const label = `step ${step}, apply ${apply}: ${outcome}`;
        if (outcome === 'reindexed') {
          expect(now.embeddingModel, label).toBe(model);
        } else {
          // Failed: exactly as it was — the same record, chunks and text, searched as before.
          expect(outcome, label).toMatch(/^QDRANT_/);
          expect(now, label).toEqual(target);
          expect(await stored('gearbox.txt'), label).toEqual(before);
        }
        expect(await bm25Top('gearbox operators'), label).toBe('gearbox.txt');
        expect((await stored('gearbox.txt'))?.children, label).toEqual(before?.children);
        // Back to BM25-only for the next step (the same bytes, ingested again without embeddings).
        await ingest('gearbox', undefined, true);
      }
      step++;
    }
  }, 120_000);

  it('never brings back a document removed by another process while it was being re-indexed', async () => {
    // Another process removes gearbox.txt once this re-index has written its new (uncommitted) chunks.
    let removed = false;
    qdrant.failRequest({
      where: (request) => {
        const points = (request.body as { points?: { payload?: { document_name?: string } }[] })?.points;
        if (removed || request.method !== 'PUT' || points?.[0]?.payload?.document_name !== 'gearbox.txt') {
          return false;
        }
        removed = true;
        const stored = qdrant.collection('ragent')!.points;
        for (const [key, point] of stored) {
          if (point.payload.name === 'gearbox.txt' || point.payload.document_name === 'gearbox.txt') {
            stored.delete(key);
          }
        }
        return false;
      },
    });
    const report = await reindexDocuments({ index, embedder: embedder(), logger }, {});
    expect(removed).toBe(true);
    expect(report.reindexed.map((document) => document.name)).toEqual(['compressor.txt', 'turbine.txt']);
    expect(models(await listed())).toEqual({ 'compressor.txt': model, 'turbine.txt': model });
    expect(await bm25Top('gearbox operators')).not.toBe('gearbox.txt');
    // Its re-indexed chunks were never committed, and are swept.
    const leftovers = [...qdrant.collection('ragent')!.points.values()].filter(
      (point) => point.payload.document_name === 'gearbox.txt',
    );
    expect(leftovers).toEqual([]);
  });

  it('embeds every document again with another model of the same size, after dropping the old vectors', async () => {
    await reindexDocuments({ index, embedder: embedder(), logger }, {});
    await expect(
      reindexDocuments({ index, embedder: embedder('other-embed'), logger }, { scope: 'shared' }),
    ).rejects.toMatchObject({ code: 'INDEX_MODEL_MISMATCH' });
    const before = await stored('turbine.txt');
    const report = await reindexDocuments({ index, embedder: embedder('other-embed'), logger }, {});
    expect(report.droppedVectors).toBe(true);
    expect(new Set(Object.values(models(await listed())))).toEqual(new Set(['other-embed']));
    expect((await stored('turbine.txt'))?.children).toEqual(before?.children);
    expect(childPoints().every((point) => Array.isArray(point.vector.dense))).toBe(true);
    await expect(index.ensureEmbedding({ model: 'other-embed', dimension: 16 })).resolves.toBeUndefined();
  });

  it('refuses a model of another size with what to do, dropping nothing', async () => {
    const refused = await reindexDocuments(
      { index, embedder: embedder('narrow-embed', narrow), logger },
      {},
    ).catch((error) => error);
    expect(refused).toMatchObject({ code: 'INDEX_MODEL_MISMATCH' });
    expect(refused.message).toContain('set QDRANT_COLLECTION to a new name and ingest your files again');
    expect(models(await listed())).toEqual({
      'compressor.txt': null,
      'gearbox.txt': null,
      'turbine.txt': model,
    });
    const turbine = (await listed()).find((document) => document.name === 'turbine.txt')!;
    const vectors = childPoints().filter((point) => point.payload.document_id === turbine.id);
    expect(vectors.length).toBeGreaterThan(0);
    expect(vectors.every((point) => Array.isArray(point.vector.dense))).toBe(true);
  });
});
