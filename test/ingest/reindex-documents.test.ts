import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.ts';
import type { DocumentRecord, Ingestion } from '../../src/core/types.ts';
import { isRagentError } from '../../src/errors.ts';
import { createIngestion } from '../../src/ingest/ingestion-service.ts';
import { reindexDocuments } from '../../src/ingest/reindex-documents.ts';
import { createLogger } from '../../src/logger.ts';
import { OllamaEmbedder } from '../../src/models/ollama-embedder.ts';
import {
  bm25Parameters,
  encodeSparseChild,
  encodeSparseQuery,
  sparseWeightsVersion,
} from '../../src/retrieval/bm25.ts';
import { hasCurrentSparseWeights } from '../../src/retrieval/index-health.ts';
import { openSqliteChunkIndex, type SqliteChunkIndex } from '../../src/retrieval/sqlite-chunk-index.ts';
import { encodeSparseBlob } from '../../src/retrieval/vector-codec.ts';
import { type FakeOllama, startFakeOllama } from '../fakes/fake-ollama.ts';
import { textManual } from './text-manual.ts';

const logger = createLogger({ level: 'silent' });

const subjects = ['turbine', 'compressor', 'gearbox'];

/** The weights of sparse weights version 1 (FastEmbed's b, no heading weight). */
const olderWeights = { ...bm25Parameters, b: 0.75, headingWeight: 1 };

describe('re-indexing from the stored text (embedded index, real Ollama client, fake Ollama)', () => {
  let fake: FakeOllama;
  let directory: string;
  let index: SqliteChunkIndex;
  let ingestion: Ingestion;
  const embedder = (model = 'qwen3-embedding:0.6b') =>
    new OllamaEmbedder({ baseUrl: fake.url, model, batchSize: 4, timeoutMs: 5_000, attempts: 1 });
  const models = (documents: DocumentRecord[]) =>
    Object.fromEntries(documents.map((document) => [document.name, document.embeddingModel]));
  const childrenOf = async () =>
    Object.fromEntries(
      await Promise.all(
        (await index.listDocuments(['shared'])).map(async (document) => [
          document.name,
          (await index.readDocument(document.id, 'shared'))?.children.map((child) => child.id),
        ]),
      ),
    );
  const denseSearch = async (text: string) =>
    index.search(
      { text, sparse: { indices: [], values: [] }, dense: (await embedder().embed([text]))[0] },
      { scopes: ['shared'], k: 3 },
    );
  const bm25Search = (text: string) =>
    index.search({ text, sparse: encodeSparseQuery(text) }, { scopes: ['shared'], k: 3 });
  /** Writes a document back as an older ragent did: version-1 weights, no version recorded. */
  const makeOlder = async (name: string) => {
    const listed = await ingestion.findDocument({ idOrName: name, scope: 'shared' });
    const stored = (await index.readDocument(listed.id, 'shared'))!;
    const { sparseWeightsVersion: _current, ...document } = stored.document;
    const children = stored.children.map((child) => ({
      ...child,
      sparse: encodeSparseChild(child.text, olderWeights),
    }));
    await index.replaceDocument({ document, parents: stored.parents, children });
    return stored;
  };
  /** The sparse blobs stored for a document's children, read from the file itself. */
  const storedSparse = (documentId: string) => {
    const raw = new Database(path.join(directory, 'index.sqlite'), { readonly: true });
    try {
      return raw
        .prepare('SELECT sparse FROM children WHERE document_id = ? ORDER BY key')
        .pluck()
        .all(documentId) as Buffer[];
    } finally {
      raw.close();
    }
  };
  const staleNames = async () =>
    (await index.listDocuments(['shared']))
      .filter((document) => !hasCurrentSparseWeights(document))
      .map((document) => document.name);

  beforeAll(async () => {
    fake = await startFakeOllama({ embedDimension: 16, models: ['qwen3-embedding:0.6b', 'other-embed'] });
  });
  afterAll(async () => {
    await fake.close();
  });
  beforeEach(async () => {
    directory = mkdtempSync(path.join(tmpdir(), 'ragent-reindex-'));
    index = openSqliteChunkIndex({ file: path.join(directory, 'index.sqlite') });
    const config = loadConfig({ RAGENT_DATA_DIR: directory, RAGENT_EMBEDDINGS: 'none' }, { envFile: false });
    ingestion = createIngestion({ config, logger, index, embedder: undefined });
    for (const subject of subjects) {
      await ingestion.ingest({
        name: `${subject}.txt`,
        bytes: textManual(subject),
        scope: 'shared',
        uploader: 't',
      });
    }
  });
  afterEach(async () => {
    fake.failAlways(undefined);
    await index.close();
    rmSync(directory, { recursive: true, force: true });
  });

  it('embeds BM25-only documents from their stored children, keeping every chunk, with progress', async () => {
    const before = await childrenOf();
    expect(await denseSearch('gearbox settings')).toEqual([]);
    const progress: string[] = [];
    const report = await reindexDocuments({ index, embedder: embedder(), logger }, {}, (event) =>
      progress.push(
        `${event.position}/${event.documents} ${event.document.name} ${event.done}/${event.total}`,
      ),
    );
    expect(report.reindexed.map((document) => document.name).sort()).toEqual(
      subjects.map((subject) => `${subject}.txt`).sort(),
    );
    expect(models(await index.listDocuments(['shared']))).toEqual({
      'compressor.txt': 'qwen3-embedding:0.6b',
      'gearbox.txt': 'qwen3-embedding:0.6b',
      'turbine.txt': 'qwen3-embedding:0.6b',
    });
    expect(await childrenOf()).toEqual(before);
    expect((await denseSearch('gearbox settings'))[0]?.child.documentName).toBe('gearbox.txt');
    expect(progress[0]).toMatch(/^1\/3 \S+ 0\/\d+$/);
    expect(progress.filter((line) => /^3\/3 .* (\d+)\/\1$/.test(line))).not.toHaveLength(0);
    // The same bytes again are still "unchanged": re-ingesting is not how embeddings get added.
    const again = await ingestion.ingest({
      name: 'turbine.txt',
      bytes: textManual('turbine'),
      scope: 'shared',
      uploader: 't',
    });
    expect(again).toMatchObject({
      status: 'unchanged',
      document: { embeddingModel: 'qwen3-embedding:0.6b' },
    });
  });

  it('leaves each document old or new when the embedder fails midway, and a rerun finishes', async () => {
    const before = await childrenOf();
    const failing = reindexDocuments({ index, embedder: embedder(), logger }, {}, (event) => {
      if (event.position === 2 && event.done === 0) fake.failAlways('http-404-model');
    });
    await expect(failing).rejects.toSatisfy(isRagentError);
    const documents = await index.listDocuments(['shared']);
    const changed = documents.filter((document) => document.embeddingModel !== null);
    expect(changed).toHaveLength(1);
    expect(await childrenOf()).toEqual(before);
    for (const subject of subjects) {
      expect((await bm25Search(`${subject} operators`))[0]?.child.documentName).toBe(`${subject}.txt`);
    }
    fake.failAlways(undefined);
    await reindexDocuments({ index, embedder: embedder(), logger }, {});
    expect(new Set(Object.values(models(await index.listDocuments(['shared']))))).toEqual(
      new Set(['qwen3-embedding:0.6b']),
    );
  });

  it('keeps a document whole when the store fails inside its write (a crash mid-transaction)', async () => {
    const gearbox = (await index.listDocuments(['shared'])).find(
      (document) => document.name === 'gearbox.txt',
    )!;
    expect(gearbox.children).toBeGreaterThan(1);
    const before = await childrenOf();
    // Inject the failure in the store itself: the second new child of gearbox.txt aborts the transaction.
    const raw = new Database(path.join(directory, 'index.sqlite'));
    raw.exec(`CREATE TRIGGER fail_gearbox BEFORE INSERT ON children
      WHEN NEW.document_id = '${gearbox.id}'
        AND (SELECT COUNT(*) FROM children WHERE document_id = '${gearbox.id}') >= 1
      BEGIN SELECT RAISE(ABORT, 'injected failure'); END`);
    try {
      await expect(reindexDocuments({ index, embedder: embedder(), logger }, {})).rejects.toThrow(
        'injected failure',
      );
      expect(models(await index.listDocuments(['shared']))['gearbox.txt']).toBeNull();
      expect(await childrenOf()).toEqual(before);
      expect((await bm25Search('gearbox operators'))[0]?.child.documentName).toBe('gearbox.txt');
    } finally {
      raw.exec('DROP TRIGGER fail_gearbox');
      raw.close();
    }
    await reindexDocuments({ index, embedder: embedder(), logger }, { scope: 'shared' });
    expect(models(await index.listDocuments(['shared']))['gearbox.txt']).toBe('qwen3-embedding:0.6b');
  });

  it('writes the current BM25 weights and their version together, never the version alone', async () => {
    const gearbox = await makeOlder('gearbox.txt');
    await makeOlder('turbine.txt');
    const older = gearbox.children.map((child) =>
      encodeSparseBlob(encodeSparseChild(child.text, olderWeights)),
    );
    const current = gearbox.children.map((child) => encodeSparseBlob(encodeSparseChild(child.text)));
    expect(older).not.toEqual(current);
    expect(storedSparse(gearbox.document.id)).toEqual(older);
    expect(await staleNames()).toEqual(['gearbox.txt', 'turbine.txt']);

    // The store fails inside gearbox.txt's write, after its document row (with the new version) went in.
    const raw = new Database(path.join(directory, 'index.sqlite'));
    raw.exec(`CREATE TRIGGER fail_gearbox BEFORE INSERT ON children
      WHEN NEW.document_id = '${gearbox.document.id}'
        AND (SELECT COUNT(*) FROM children WHERE document_id = '${gearbox.document.id}') >= 1
      BEGIN SELECT RAISE(ABORT, 'injected failure'); END`);
    try {
      await expect(reindexDocuments({ index, embedder: undefined, logger }, {})).rejects.toThrow(
        'injected failure',
      );
      // compressor.txt (before it) is done; gearbox.txt keeps its older weights and stays flagged.
      expect(await staleNames()).toEqual(['gearbox.txt', 'turbine.txt']);
      expect(storedSparse(gearbox.document.id)).toEqual(older);
      expect((await bm25Search('gearbox operators'))[0]?.child.documentName).toBe('gearbox.txt');
    } finally {
      raw.exec('DROP TRIGGER fail_gearbox');
      raw.close();
    }
    const report = await reindexDocuments({ index, embedder: undefined, logger }, {});
    expect(report.reindexed.map((document) => document.sparseWeightsVersion)).toEqual([
      sparseWeightsVersion,
      sparseWeightsVersion,
      sparseWeightsVersion,
    ]);
    expect(await staleNames()).toEqual([]);
    expect(storedSparse(gearbox.document.id)).toEqual(current);
  });

  it('indexes an unchanged file again when it carries older BM25 weights, and only then', async () => {
    const { document } = await makeOlder('turbine.txt');
    const again = () =>
      ingestion.ingest({ name: 'turbine.txt', bytes: textManual('turbine'), scope: 'shared', uploader: 't' });
    const reindexed = await again();
    expect(reindexed).toMatchObject({
      status: 'reindexed',
      document: { id: document.id, sparseWeightsVersion },
    });
    expect(await staleNames()).toEqual([]);
    expect(storedSparse(document.id)).toEqual(
      (await index.readDocument(document.id, 'shared'))!.children.map((child) =>
        encodeSparseBlob(encodeSparseChild(child.text)),
      ),
    );
    expect(await again()).toMatchObject({ status: 'unchanged' });
  });

  it('re-indexes one document, and moves the whole index to another model only when asked for all', async () => {
    const turbine = await ingestion.findDocument({ idOrName: 'turbine.txt', scope: 'shared' });
    await reindexDocuments({ index, embedder: embedder(), logger }, { scope: 'shared', document: turbine });
    expect(models(await index.listDocuments(['shared']))).toEqual({
      'compressor.txt': null,
      'gearbox.txt': null,
      'turbine.txt': 'qwen3-embedding:0.6b',
    });

    const other = embedder('other-embed');
    const partial = reindexDocuments({ index, embedder: other, logger }, { scope: 'shared' });
    await expect(partial).rejects.toMatchObject({ code: 'INDEX_MODEL_MISMATCH' });
    expect(models(await index.listDocuments(['shared']))['turbine.txt']).toBe('qwen3-embedding:0.6b');

    const report = await reindexDocuments({ index, embedder: other, logger }, {});
    expect(report.droppedVectors).toBe(true);
    expect(new Set(Object.values(models(await index.listDocuments(['shared']))))).toEqual(
      new Set(['other-embed']),
    );
    await index.ensureEmbedding({ model: 'other-embed', dimension: 16 });
    await expect(
      index.ensureEmbedding({ model: 'qwen3-embedding:0.6b', dimension: 16 }),
    ).rejects.toMatchObject({
      code: 'INDEX_MODEL_MISMATCH',
    });
  });

  it('turns embedded documents back into BM25-only ones when embeddings are off', async () => {
    await reindexDocuments({ index, embedder: embedder(), logger }, {});
    await reindexDocuments({ index, embedder: undefined, logger }, {});
    expect(new Set(Object.values(models(await index.listDocuments(['shared']))))).toEqual(new Set([null]));
    expect(await denseSearch('gearbox settings')).toEqual([]);
    expect((await bm25Search('gearbox operators'))[0]?.child.documentName).toBe('gearbox.txt');
  });
});
