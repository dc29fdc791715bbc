import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { RagentError } from '../../src/errors.ts';
import { encodeSparseQuery } from '../../src/retrieval/bm25.ts';
import { openSqliteChunkIndex, type SqliteChunkIndex } from '../../src/retrieval/sqlite-chunk-index.ts';
import { axis, crowdedParent, crowdedTexts, makeDocument } from './make-document.ts';

const bashTexts = [
  'A while loop runs its commands as long as the test command succeeds.',
  'Parameter expansion replaces $name with the value of the variable.',
  'Here documents feed lines of the script to a command as standard input.',
];

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

  it('finds children by BM25 and returns their location', async () => {
    await index.replaceDocument(makeDocument({ id: 'bash', scope: 'shared', texts: bashTexts }));
    const hits = await index.search(query('how does parameter expansion work'), { scopes: ['shared'], k: 3 });
    expect(hits[0]?.child).toMatchObject({
      id: 'bash:c1',
      parentId: 'bash:p1',
      documentName: 'bash.pdf',
      pageStart: 2,
      sectionPath: ['bash.pdf', 'Section 2'],
      scope: 'shared',
    });
    expect(hits[0]?.score).toBeGreaterThan(0);
    expect(hits.every((hit) => hit.child.id !== 'bash:c2')).toBe(true);
  });

  it('returns at most two children of one parent, filling the top k from further down', async () => {
    await index.replaceDocument(
      makeDocument({ id: 'fruit', scope: 'shared', texts: crowdedTexts, parentOf: crowdedParent }),
    );
    const hits = await index.search(query('kiwi'), { scopes: ['shared'], k: 4 });
    expect(hits.map((hit) => hit.child.parentId).sort()).toEqual([
      'fruit:p0',
      'fruit:p0',
      'fruit:p1',
      'fruit:p2',
    ]);
    expect(hits.slice(0, 2).map((hit) => hit.child.parentId)).toEqual(['fruit:p0', 'fruit:p0']);
    expect(hits.map((hit) => hit.score)).toEqual([...hits.map((hit) => hit.score)].sort((a, b) => b - a));
    // With no other parent left, the rest of parent 0 still fills the places.
    expect(await index.search(query('kiwi'), { scopes: ['shared'], k: 6 })).toHaveLength(6);
  });

  it('never returns another scope’s chunks, even for the same document bytes', async () => {
    await index.replaceDocument(
      makeDocument({ id: 'same', scope: 'slack:T1', texts: ['secret alpha plans'] }),
    );
    await index.replaceDocument(
      makeDocument({ id: 'same', scope: 'slack:T2', texts: ['secret alpha plans'] }),
    );
    await index.replaceDocument(
      makeDocument({ id: 'other', scope: 'slack:T2', texts: ['alpha beta gamma'] }),
    );
    const hits = await index.search(query('alpha'), { scopes: ['slack:T1'], k: 10 });
    expect(hits).toHaveLength(1);
    expect(hits[0]?.child.scope).toBe('slack:T1');
    expect(await index.search(query('alpha'), { scopes: [], k: 10 })).toEqual([]);
    expect(await index.search(query('alpha'), { scopes: ['discord:G'], k: 10 })).toEqual([]);
    expect((await index.listDocuments(['slack:T1'])).map((doc) => doc.scope)).toEqual(['slack:T1']);
    expect(await index.getDocument('other', 'slack:T1')).toBeUndefined();
    expect(await index.removeDocument('other', 'slack:T1')).toBe(false);
    expect(await index.getDocument('other', 'slack:T2')).toBeDefined();
  });

  it('looks parents up only within the caller’s scopes', async () => {
    await index.replaceDocument(makeDocument({ id: 'doc', scope: 'slack:T1', texts: ['only for team one'] }));
    expect(await index.getParent('doc:p0', ['slack:T2'])).toBeUndefined();
    expect(await index.getParent('doc:p0', [])).toBeUndefined();
    expect(await index.getParent('doc:p0', ['slack:T2', 'slack:T1'])).toMatchObject({
      id: 'doc:p0',
      text: 'Parent of: only for team one',
      scope: 'slack:T1',
    });
  });

  it('replaces old versions atomically in one transaction', async () => {
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

  it('ranks by dense similarity and fuses with BM25 by reciprocal rank', async () => {
    const texts = ['apple orchard harvest', 'banana plantation', 'cherry blossom apple'];
    await index.replaceDocument(
      makeDocument({ id: 'fruit', scope: 'shared', texts, dense: (_text, at) => axis(8, at, 0.1) }),
    );
    const denseOnly = await index.search(
      { text: '', sparse: { indices: [], values: [] }, dense: axis(8, 1) },
      {
        scopes: ['shared'],
        k: 3,
      },
    );
    expect(denseOnly[0]?.child.id).toBe('fruit:c1');
    expect(denseOnly[0]?.score).toBeCloseTo(1 / Math.sqrt(1.01), 5);

    // BM25 ranks c0 and c2 (both contain "apple"); dense ranks c2 first: fused, c2 leads.
    const hybrid = await index.search(query('apple', axis(8, 2)), { scopes: ['shared'], k: 3 });
    expect(hybrid[0]?.child.id).toBe('fruit:c2');
    expect(hybrid.map((hit) => hit.child.id)).toContain('fruit:c0');
    expect(hybrid[0]!.score).toBeGreaterThan(hybrid[1]!.score);
  });

  it('answers BM25-only indexes with or without a dense query', async () => {
    await index.replaceDocument(makeDocument({ id: 'plain', scope: 'shared', texts: bashTexts }));
    const withDense = await index.search(query('here documents', axis(4, 0)), { scopes: ['shared'], k: 2 });
    expect(withDense[0]?.child.id).toBe('plain:c2');
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
    expect(mismatch.message).toMatch(/ragent docs remove/);
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
