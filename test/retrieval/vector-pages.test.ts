import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { encodeSparseQuery } from '../../src/retrieval/bm25.ts';
import type { SearchQuery } from '../../src/retrieval/chunk-index.ts';
import {
  openSqliteChunkIndex,
  type SqliteChunkIndex,
  type SqliteChunkIndexOptions,
} from '../../src/retrieval/sqlite-chunk-index.ts';
import { axis, makeDocument, numberedParagraphs } from './make-document.ts';

const query = (text: string, dense?: Float32Array): SearchQuery => ({
  text,
  sparse: encodeSparseQuery(text),
  ...(dense ? { dense } : {}),
});
const denseOnly = (dense: Float32Array): SearchQuery => ({
  text: '',
  sparse: { indices: [], values: [] },
  dense,
});

/** Queries over both halves, both scopes, and a replaced and a removed document. */
const probes: Array<{ query: SearchQuery; scopes: string[] }> = [
  { query: query('walrus topic3 paragraph'), scopes: ['shared'] },
  { query: query('walrus topic5', axis(8, 5, 0.3)), scopes: ['shared'] },
  { query: denseOnly(axis(8, 2, 0.2)), scopes: ['shared'] },
  { query: query('seal colony', axis(8, 1)), scopes: ['shared', 'slack:T1'] },
  { query: query('seal colony'), scopes: ['slack:T1'] },
  { query: query('narwhal tusk'), scopes: ['shared'] },
  { query: query('orca'), scopes: ['shared'] },
];

describe('the compact vector table', () => {
  let directory: string;
  let file: string;
  const opened: SqliteChunkIndex[] = [];
  const open = (options: Partial<SqliteChunkIndexOptions> = {}) => {
    const index = openSqliteChunkIndex({ file, ...options });
    opened.push(index);
    return index;
  };
  const closeAll = async () => {
    for (const index of opened.splice(0)) await index.close();
  };
  /** Every probe's hits (ids and scores) from a fresh start without a saved snapshot. */
  const results = async (options: Partial<SqliteChunkIndexOptions>) => {
    await closeAll();
    rmSync(`${file}.snapshot`, { force: true });
    const index = open(options);
    const found: Array<Array<[string, number]>> = [];
    for (const probe of probes) {
      const hits = await index.search(probe.query, { scopes: probe.scopes, k: 6 });
      found.push(hits.map((hit) => [hit.child.id, hit.score]));
    }
    await closeAll();
    return found;
  };
  const raw = (run: (db: Database.Database) => void) => {
    const db = new Database(file);
    try {
      run(db);
    } finally {
      db.close();
    }
  };
  const pagesMeta = () => {
    let value: unknown;
    raw((db) => {
      value = db.prepare("SELECT value FROM meta WHERE key = 'vector_pages_generation'").pluck().get();
    });
    return value;
  };
  /** The file as an earlier version left it: no vector table, no record of it. */
  const asBeforeTheTable = () =>
    raw((db) => {
      db.exec("DROP TABLE vector_pages; DELETE FROM meta WHERE key = 'vector_pages_generation'");
    });

  beforeEach(async () => {
    directory = mkdtempSync(path.join(tmpdir(), 'ragent-vector-pages-'));
    file = path.join(directory, 'index.sqlite');
    const writer = open();
    // 600 children: three pages of one document (256 + 256 + 88).
    await writer.replaceDocument(
      makeDocument({
        id: 'big',
        scope: 'shared',
        texts: numberedParagraphs('walrus', 600),
        dense: (_t, at) => axis(8, at % 8),
      }),
    );
    await writer.replaceDocument(
      makeDocument({
        id: 'seals',
        scope: 'slack:T1',
        texts: numberedParagraphs('seal colony', 40),
        dense: (_t, at) => axis(8, (at + 1) % 8, 0.1),
      }),
    );
    await writer.replaceDocument(makeDocument({ id: 'gone', scope: 'shared', texts: ['narwhal tusk'] }));
    await writer.replaceDocument(makeDocument({ id: 'orca', scope: 'shared', texts: ['orca first'] }));
    await writer.removeDocument('gone', 'shared');
    await writer.replaceDocument(makeDocument({ id: 'orca', scope: 'shared', texts: ['orca second'] }));
    await closeAll();
  });
  afterEach(async () => {
    await closeAll();
    rmSync(directory, { recursive: true, force: true });
  });

  it('gives the same search results, scores included, as loading from the children rows', async () => {
    const fromRows = await results({ loadFrom: 'rows' });
    expect(fromRows[0]!.length).toBeGreaterThan(0);
    expect(fromRows[5]).toEqual([]);
    expect(fromRows[6]!.map(([id]) => id)).toEqual(['orca:c0']);
    expect(await results({})).toEqual(fromRows);
    // Split into segments smaller than a page, too.
    expect(await results({ segmentRows: 100 })).toEqual(fromRows);
    expect(await results({ segmentRows: 100, loadFrom: 'rows' })).toEqual(fromRows);
  });

  it('follows a document moved to another set: a cold load finds it only in its new scope', async () => {
    const writer = open();
    await writer.moveDocument('seals', 'slack:T1', 'slack:T1:C2');
    await closeAll();
    const seal = { query: query('seal colony'), k: 6 };
    for (const loadFrom of ['pages', 'rows'] as const) {
      rmSync(`${file}.snapshot`, { force: true });
      const index = open({ loadFrom });
      expect(await index.search(seal.query, { scopes: ['slack:T1'], k: seal.k })).toEqual([]);
      const moved = await index.search(seal.query, { scopes: ['slack:T1:C2'], k: seal.k });
      expect(moved.length).toBeGreaterThan(0);
      expect(moved.every((hit) => hit.child.scope === 'slack:T1:C2')).toBe(true);
      await closeAll();
    }
  });

  it('is built when a file written before it is opened, and then gives the same results', async () => {
    const fromRows = await results({ loadFrom: 'rows' });
    asBeforeTheTable();
    expect(pagesMeta()).toBeUndefined();
    expect(await results({})).toEqual(fromRows);
    expect(pagesMeta()).toBeDefined();
    raw((db) => {
      expect(db.prepare('SELECT SUM(count) FROM vector_pages').pluck().get()).toBe(641);
    });
  });

  it('survives an error part way through its rebuild: the file is unchanged, searches read the rows', async () => {
    const fromRows = await results({ loadFrom: 'rows' });
    asBeforeTheTable();
    const index = open({
      onVectorPagesRebuilt: (documents) => {
        if (documents === 2) throw new Error('injected');
      },
    });
    raw((db) => {
      expect(db.prepare('SELECT COUNT(*) FROM vector_pages').pluck().get()).toBe(0);
    });
    expect(pagesMeta()).toBeUndefined();
    const hits = await index.search(probes[0]!.query, { scopes: ['shared'], k: 6 });
    expect(hits.map((hit) => [hit.child.id, hit.score])).toEqual(fromRows[0]);
    // A write while the table is not current leaves it not current (it is not half updated).
    await index.replaceDocument(makeDocument({ id: 'orca', scope: 'shared', texts: ['orca second'] }));
    expect(pagesMeta()).toBeUndefined();
    await closeAll();
    expect(await results({})).toEqual(fromRows);
    expect(pagesMeta()).toBeDefined();
  });

  it('survives the process being killed part way through its rebuild', async () => {
    const fromRows = await results({ loadFrom: 'rows' });
    asBeforeTheTable();
    const child = spawnSync(
      process.execPath,
      ['--import', 'tsx', path.join(import.meta.dirname, 'fixtures', 'open-and-die-migrating.ts'), file],
      { encoding: 'utf8' },
    );
    expect(child.signal).toBe('SIGKILL');
    expect(child.stdout).toContain('dying after 2 documents');
    raw((db) => {
      expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
      expect(db.prepare('SELECT COUNT(*) FROM vector_pages').pluck().get()).toBe(0);
    });
    expect(pagesMeta()).toBeUndefined();
    expect(await results({})).toEqual(fromRows);
    expect(pagesMeta()).toBeDefined();
  });

  it('is noticed stale after an earlier version wrote the file, and rebuilt at the next open', async () => {
    const index = open();
    await index.search(probes[0]!.query, { scopes: ['shared'], k: 1 });
    await closeAll();
    // An earlier version bumps the write generation, removes a document and never touches the table.
    raw((db) => {
      db.exec(`UPDATE meta SET value = CAST(CAST(value AS INTEGER) + 1 AS TEXT) WHERE key = 'write_generation';
        DELETE FROM children WHERE document_id = 'orca'; DELETE FROM documents WHERE id = 'orca';
        DELETE FROM parents WHERE document_id = 'orca';`);
    });
    const fromRows = await results({ loadFrom: 'rows' });
    expect(fromRows[6]).toEqual([]);
    expect(await results({})).toEqual(fromRows);
    raw((db) => {
      expect(db.prepare("SELECT COUNT(*) FROM vector_pages WHERE document_id = 'orca'").pluck().get()).toBe(
        0,
      );
    });
  });

  it('drops its dense part with the dense vectors', async () => {
    const index = open();
    await index.dropDenseVectors();
    await closeAll();
    const fromRows = await results({ loadFrom: 'rows' });
    expect(fromRows[2]).toEqual([]);
    expect(await results({})).toEqual(fromRows);
  });
});
