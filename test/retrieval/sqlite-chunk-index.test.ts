import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { RagentError } from '../../src/errors.ts';
import { encodeSparseQuery, sparseWeightsVersion } from '../../src/retrieval/bm25.ts';
import {
  describeStaleRanking,
  readEmbeddedIndexSummary,
  staleRanking,
} from '../../src/retrieval/index-health.ts';
import { openSqliteChunkIndex, type SqliteChunkIndex } from '../../src/retrieval/sqlite-chunk-index.ts';
import { describeChunkIndexContract } from './chunk-index-contract.ts';
import { axis, makeDocument } from './make-document.ts';

describeChunkIndexContract('SQLite', async () => {
  const directory = mkdtempSync(path.join(tmpdir(), 'ragent-index-'));
  const file = path.join(directory, 'index.sqlite');
  let failStep: number | undefined;
  let steps = 0;
  let fired = false;
  // The test seam: a step of the move's transaction throws, as a process killed there would stop it.
  const beforeMoveStep = () => {
    if (steps++ === failStep) {
      fired = true;
      throw new Error('killed between two steps of the move');
    }
  };
  let index = openSqliteChunkIndex({ file, beforeMoveStep });
  const opened = [index];
  return {
    index,
    faults: {
      applyModes: ['none'],
      failAt: (step) => {
        failStep = step;
        steps = 0;
        fired = false;
      },
      fired: () => fired,
      recover: async () => {
        failStep = undefined;
        await index.close();
        index = openSqliteChunkIndex({ file });
        opened.push(index);
        return index;
      },
      stored: async () => {
        const raw = new Database(file, { readonly: true });
        const count = (table: string) =>
          (raw.prepare(`SELECT COUNT(*) AS count FROM ${table}`).get() as { count: number }).count;
        const stored = {
          documents: count('documents'),
          parents: count('parents'),
          children: count('children'),
        };
        raw.close();
        return stored;
      },
    },
    dispose: async () => {
      for (const each of opened) await each.close();
      rmSync(directory, { recursive: true, force: true });
    },
  };
});

describe('SQLite chunk index', () => {
  let directory: string;
  let index: SqliteChunkIndex;
  const open = (options: { exactLimit?: number; rescoreCandidates?: number } = {}) =>
    openSqliteChunkIndex({ file: path.join(directory, 'data', 'index.sqlite'), ...options });
  const query = (text: string, dense?: Float32Array) => ({ text, sparse: encodeSparseQuery(text), dense });

  beforeEach(() => {
    directory = mkdtempSync(path.join(tmpdir(), 'ragent-index-'));
    index = open();
  });
  afterEach(async () => {
    await index.close();
    rmSync(directory, { recursive: true, force: true });
  });

  it('refuses an index of another storage format with its own code', async () => {
    await index.close();
    const file = path.join(directory, 'data', 'index.sqlite');
    const raw = new Database(file);
    raw.prepare("UPDATE meta SET value = '0' WHERE key = 'schema_version'").run();
    raw.close();
    let refused: unknown;
    try {
      index = open();
    } catch (error) {
      refused = error;
    }
    expect(refused).toBeInstanceOf(RagentError);
    expect(refused).toMatchObject({ code: 'INDEX_SCHEMA_MISMATCH' });
    expect((refused as Error).message).toContain('ingest your documents again');
    index = openSqliteChunkIndex({ file: path.join(directory, 'data', 'fresh.sqlite') });
  });

  it('opens a file written before documents had a link, and keeps its documents', async () => {
    await index.replaceDocument(makeDocument({ id: 'old', scope: 'shared', texts: ['quince'] }));
    await index.close();
    const file = path.join(directory, 'data', 'index.sqlite');
    const raw = new Database(file);
    raw.exec('ALTER TABLE documents DROP COLUMN link');
    raw.close();
    index = open();
    expect(await index.getDocument('old', 'shared')).toMatchObject({ id: 'old', name: 'old.pdf' });
    const link = 'https://example.slack.com/files/U1/F2/new.pdf';
    const added = makeDocument({ id: 'new', scope: 'shared', texts: ['lychee'] });
    await index.replaceDocument({ ...added, document: { ...added.document, link } });
    expect((await index.getDocument('new', 'shared'))?.link).toBe(link);
    expect(await index.search(query('quince'), { scopes: ['shared'], k: 5 })).toHaveLength(1);
  });

  it('opens a file written before BM25 weights were versioned, and flags its documents as older', async () => {
    await index.replaceDocument(makeDocument({ id: 'old', scope: 'shared', texts: ['quince'] }));
    await index.close();
    const file = path.join(directory, 'data', 'index.sqlite');
    const raw = new Database(file);
    raw.exec('ALTER TABLE documents DROP COLUMN sparse_weights_version');
    raw.close();
    const warning =
      /^1 of 1 documents were indexed with the ranking weights of an older ragent.*`ragent reindex`/;
    // `ragent doctor` reads the file as it is, without adding the column.
    const summary = readEmbeddedIndexSummary(file);
    expect(summary?.documents).toEqual([{ scope: 'shared', name: 'old.pdf', embeddingModel: null }]);
    expect(describeStaleRanking(staleRanking(summary?.documents ?? []))).toMatch(warning);

    index = open();
    const old = await index.getDocument('old', 'shared');
    expect(old).toMatchObject({ id: 'old', name: 'old.pdf' });
    expect(old).not.toHaveProperty('sparseWeightsVersion');
    expect(describeStaleRanking(staleRanking(await index.listDocuments(['shared'])))).toMatch(warning);
    await index.replaceDocument(makeDocument({ id: 'new', scope: 'shared', texts: ['lychee'] }));
    expect((await index.getDocument('new', 'shared'))?.sparseWeightsVersion).toBe(sparseWeightsVersion);
    expect(staleRanking(readEmbeddedIndexSummary(file)?.documents ?? [])).toMatchObject({
      stale: [{ name: 'old.pdf' }],
      total: 2,
    });
    expect(await index.search(query('quince'), { scopes: ['shared'], k: 5 })).toHaveLength(1);
  });

  it('keeps the previous version whole when a write fails inside its transaction', async () => {
    await index.replaceDocument(
      makeDocument({ id: 'v1', name: 'guide.pdf', scope: 'shared', texts: ['old zebra'] }),
    );
    await index.replaceDocument(
      makeDocument({ id: 'v2', name: 'guide.pdf', scope: 'shared', texts: ['new yak'], replaces: ['v1'] }),
    );
    expect(await index.search(query('zebra'), { scopes: ['shared'], k: 5 })).toEqual([]);
    expect((await index.listDocuments(['shared'])).map((doc) => doc.id)).toEqual(['v2']);

    // A failing write (duplicate child ids) leaves the previous version fully in place.
    const broken = makeDocument({
      id: 'v3',
      name: 'guide.pdf',
      scope: 'shared',
      texts: ['a', 'b'],
      replaces: ['v2'],
    });
    broken.children[1]!.id = broken.children[0]!.id;
    await expect(index.replaceDocument(broken)).rejects.toThrow();
    expect((await index.listDocuments(['shared'])).map((doc) => doc.id)).toEqual(['v2']);
    expect(await index.search(query('yak'), { scopes: ['shared'], k: 5 })).toHaveLength(1);
  });

  it('sees writes made by another connection (another process)', async () => {
    await index.replaceDocument(makeDocument({ id: 'a', scope: 'shared', texts: ['first kiwi'] }));
    expect(await index.search(query('kiwi'), { scopes: ['shared'], k: 5 })).toHaveLength(1);
    const writer = open();
    await writer.replaceDocument(makeDocument({ id: 'b', scope: 'shared', texts: ['second kiwi'] }));
    await writer.close();
    expect(await index.search(query('kiwi'), { scopes: ['shared'], k: 5 })).toHaveLength(2);
  });

  it('refuses vectors of another embedding model, with how to reindex', async () => {
    await index.replaceDocument(
      makeDocument({
        id: 'x',
        scope: 'shared',
        texts: ['vector text'],
        dense: () => axis(4, 0),
        model: 'model-a',
      }),
    );
    await expect(index.ensureEmbedding({ model: 'model-a', dimension: 4 })).resolves.toBeUndefined();
    await expect(index.ensureEmbedding({ model: null, dimension: null })).resolves.toBeUndefined();
    const mismatch = await index.ensureEmbedding({ model: 'model-b', dimension: 4 }).catch((error) => error);
    expect(mismatch).toBeInstanceOf(RagentError);
    expect(mismatch.code).toBe('INDEX_MODEL_MISMATCH');
    expect(mismatch.message).toMatch(/model-a.*model-b/s);
    expect(mismatch.message).toMatch(/OLLAMA_EMBED_MODEL=model-a/);
    expect(mismatch.message).toMatch(/ragent reindex/);
    await expect(
      index.replaceDocument(
        makeDocument({
          id: 'y',
          scope: 'shared',
          texts: ['other'],
          dense: () => axis(6, 0),
          model: 'model-a',
        }),
      ),
    ).rejects.toMatchObject({ code: 'INDEX_MODEL_MISMATCH' });
    await expect(
      index.search(query('vector', axis(6, 0)), { scopes: ['shared'], k: 1 }),
    ).rejects.toMatchObject({
      code: 'INDEX_MODEL_MISMATCH',
    });
    // Once the vectors are gone, another model may be used.
    await index.removeDocument('x', 'shared');
    await expect(index.ensureEmbedding({ model: 'model-b', dimension: 6 })).resolves.toBeUndefined();
  });

  it('finds the nearest vector through sign-bit pre-selection and int8 rescoring on larger indexes', async () => {
    await index.close();
    index = open({ exactLimit: 10, rescoreCandidates: 20 });
    let seed = 7;
    const random = () => {
      seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
      return seed / 2_147_483_648 - 0.5;
    };
    // 512 dimensions: a coarse pass over the first 256 sign bits, then all 512, then int8 rescoring.
    const vectors = Array.from({ length: 300 }, () => Float32Array.from({ length: 512 }, random));
    await index.replaceDocument(
      makeDocument({
        id: 'many',
        scope: 'shared',
        texts: vectors.map((_vector, at) => `chunk ${at}`),
        dense: (_text, at) => vectors[at]!,
      }),
    );
    const target = vectors[123]!;
    const hits = await index.search(
      { text: '', sparse: { indices: [], values: [] }, dense: target },
      {
        scopes: ['shared'],
        k: 1,
      },
    );
    expect(hits[0]?.child.id).toBe('many:c123');
    expect(hits[0]?.score).toBeCloseTo(1, 2);
  });
});
