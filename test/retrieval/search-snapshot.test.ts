import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { encodeSparseQuery } from '../../src/retrieval/bm25.ts';
import { readSnapshotFile, writeSnapshotFile } from '../../src/retrieval/snapshot-file.ts';
import {
  openSqliteChunkIndex,
  type SqliteChunkIndex,
  type SqliteChunkIndexOptions,
} from '../../src/retrieval/sqlite-chunk-index.ts';
import { axis, makeDocument, numberedParagraphs } from './make-document.ts';

const query = (text: string, dense?: Float32Array) => ({ text, sparse: encodeSparseQuery(text), dense });

describe('the embedded index’s in-memory snapshot', () => {
  let directory: string;
  let file: string;
  const opened: SqliteChunkIndex[] = [];
  const open = (options: Partial<SqliteChunkIndexOptions> = {}) => {
    const index = openSqliteChunkIndex({ file, ...options });
    opened.push(index);
    return index;
  };

  beforeEach(async () => {
    directory = mkdtempSync(path.join(tmpdir(), 'ragent-snapshot-'));
    file = path.join(directory, 'index.sqlite');
    const writer = open();
    await writer.replaceDocument(
      makeDocument({
        id: 'big',
        scope: 'shared',
        texts: numberedParagraphs('walrus', 600),
        dense: (_t, at) => axis(8, at % 8),
      }),
    );
    await writer.replaceDocument(makeDocument({ id: 'gone', scope: 'shared', texts: ['narwhal tusk'] }));
    await writer.close();
  });
  afterEach(async () => {
    for (const index of opened.splice(0)) await index.close();
    rmSync(directory, { recursive: true, force: true });
  });

  it.each(['pages', 'rows'] as const)(
    'loads in the background in slices, letting the event loop turn; a search meanwhile waits for it (from the %s)',
    async (loadFrom) => {
      const index = open({ sliceMs: 0, loadFrom });
      index.warmUp();
      expect(index.snapshotStats().ready).toBe(false);
      let turnsWhileLoading = 0;
      const countTurns = () => {
        if (index.snapshotStats().ready) return;
        turnsWhileLoading++;
        setImmediate(countTurns);
      };
      setImmediate(countTurns);
      const hits = await index.search(query('walrus topic3'), { scopes: ['shared'], k: 3 });
      expect(hits[0]?.child.text).toMatch(/topic3$/);
      expect(index.snapshotStats()).toMatchObject({ ready: true, children: 601, segments: 1 });
      // 601 children read a page (or 8 rows) at a time, then two passes over the postings: many turns.
      expect(turnsWhileLoading).toBeGreaterThan(5);
    },
  );

  it('searches several segments in slices, letting the event loop turn between them', async () => {
    const index = open({ sliceMs: 0, segmentRows: 100 });
    await index.search(query('walrus'), { scopes: ['shared'], k: 1 });
    expect(index.snapshotStats().segments).toBe(7);
    let turns = 0;
    let searching = true;
    const countTurns = () => {
      if (!searching) return;
      turns++;
      setImmediate(countTurns);
    };
    setImmediate(countTurns);
    const hits = await index.search(query('walrus topic3', axis(8, 3)), { scopes: ['shared'], k: 3 });
    searching = false;
    expect(hits).toHaveLength(3);
    // Seven segments, each searched for BM25 and then for the dense vector, one step at a time.
    expect(turns).toBeGreaterThanOrEqual(7);
  });

  it('starts a search over when a write lands between two of its slices (one state of the index)', async () => {
    const index = open({ sliceMs: 0, segmentRows: 100 });
    await index.search(query('walrus'), { scopes: ['shared'], k: 1 });
    // Every child of `big` is replaced (new keys, one new segment) while the search is part way.
    const renewed = makeDocument({
      id: 'big',
      scope: 'shared',
      texts: numberedParagraphs('walrus', 600).map((text) => `${text} renewed`),
    });
    let writing: Promise<void> | undefined;
    setImmediate(() => {
      writing = index.replaceDocument(renewed);
    });
    const hits = await index.search(query('walrus topic3'), { scopes: ['shared'], k: 3 });
    await writing;
    expect(hits).toHaveLength(3);
    for (const hit of hits) expect(hit.child.text).toMatch(/topic3 renewed$/);
  });

  it('finishes a search while writes land between all of its slices', async () => {
    const index = open({ sliceMs: 0, segmentRows: 100 });
    await index.search(query('walrus'), { scopes: ['shared'], k: 1 });
    let searching = true;
    let writes = 0;
    const writeEachTurn = async () => {
      while (searching) {
        await index.replaceDocument(
          makeDocument({ id: 'seal', scope: 'shared', texts: [`seal ${writes++}`] }),
        );
        await new Promise((resolve) => setImmediate(resolve));
      }
    };
    const writer = writeEachTurn();
    const hits = await index.search(query('walrus topic3'), { scopes: ['shared'], k: 3 });
    searching = false;
    await writer;
    expect(writes).toBeGreaterThanOrEqual(2);
    expect(hits.map((hit) => hit.child.text)).toEqual([
      expect.stringMatching(/topic3$/),
      expect.stringMatching(/topic3$/),
      expect.stringMatching(/topic3$/),
    ]);
  });

  it('loads children with many postings (several blocks of them) from the rows as from the pages', async () => {
    const words = (at: number) => Array.from({ length: 240 }, (_unused, word) => `w${(word * 7 + at) % 997}`);
    const writer = open();
    // 300 children of 240 distinct terms: more postings than one block holds.
    await writer.replaceDocument(
      makeDocument({
        id: 'wide',
        scope: 'shared',
        texts: Array.from({ length: 300 }, (_unused, at) => `${words(at).join(' ')} child${at}`),
      }),
    );
    await writer.close();
    const probes = ['w5 w12 child7', 'child250 w900', 'walrus topic3', 'w1 w2 w3 w4 child299'];
    const results = async (loadFrom: 'rows' | 'pages') => {
      rmSync(`${file}.snapshot`, { force: true });
      const index = open({ loadFrom });
      const found = [];
      for (const text of probes) found.push(await index.search(query(text), { scopes: ['shared'], k: 5 }));
      await index.close();
      return found;
    };
    const fromRows = await results('rows');
    expect(fromRows[0]!.map((hit) => hit.child.id)).toContain('wide:c7');
    expect(fromRows[3]!.map((hit) => hit.child.id)).toContain('wide:c299');
    expect(await results('pages')).toEqual(fromRows);
  });

  it('loads a large index as several segments that rank as one', async () => {
    const whole = open();
    const split = open({ segmentRows: 100, exactLimit: 10, rescoreCandidates: 20 });
    const probe = query('walrus topic3 paragraph', axis(8, 3));
    const expected = await whole.search(probe, { scopes: ['shared'], k: 5 });
    const hits = await split.search(probe, { scopes: ['shared'], k: 5 });
    expect(split.snapshotStats()).toMatchObject({ segments: 7, children: 601 });
    expect(hits.map((hit) => hit.child.id)).toEqual(expected.map((hit) => hit.child.id));
  });

  it('takes a write in place: the new children are found, the replaced and removed ones are not', async () => {
    const index = open();
    await index.search(query('walrus'), { scopes: ['shared'], k: 1 });
    await index.replaceDocument(makeDocument({ id: 'new', scope: 'shared', texts: ['beluga song'] }));
    await index.removeDocument('gone', 'shared');
    expect(index.snapshotStats()).toMatchObject({ ready: true, children: 601, segments: 2 });
    expect((await index.search(query('beluga'), { scopes: ['shared'], k: 3 }))[0]?.child.id).toBe('new:c0');
    expect(await index.search(query('narwhal'), { scopes: ['shared'], k: 3 })).toEqual([]);
    // BM25 statistics follow the live children: the IDF of "walrus" is over 601 children, not 602.
    await index.replaceDocument(
      makeDocument({ id: 'big', scope: 'shared', texts: ['walrus only once'], replaces: [] }),
    );
    expect(index.snapshotStats().children).toBe(2);
    expect(
      (await index.search(query('walrus'), { scopes: ['shared'], k: 5 })).map((hit) => hit.child.id),
    ).toEqual(['big:c0']);
    // Dense vectors written after the load are searched too.
    await index.replaceDocument(
      makeDocument({ id: 'vec', scope: 'shared', texts: ['orca'], dense: () => axis(8, 5, 0.5) }),
    );
    const dense = await index.search(
      { text: '', sparse: { indices: [], values: [] }, dense: axis(8, 5, 0.5) },
      { scopes: ['shared'], k: 1 },
    );
    expect(dense[0]?.child.id).toBe('vec:c0');
  });

  it('replays the writes committed while it loads', async () => {
    const index = open({ sliceMs: 0 });
    index.warmUp();
    await index.replaceDocument(makeDocument({ id: 'during', scope: 'shared', texts: ['dolphin pod'] }));
    await index.removeDocument('gone', 'shared');
    expect(index.snapshotStats().ready).toBe(false);
    expect((await index.search(query('dolphin'), { scopes: ['shared'], k: 3 }))[0]?.child.id).toBe(
      'during:c0',
    );
    expect(await index.search(query('narwhal'), { scopes: ['shared'], k: 3 })).toEqual([]);
    expect(index.snapshotStats().children).toBe(601);
  });

  it('merges its segments back into one in the background', async () => {
    const index = open({ maxSegments: 1 });
    await index.search(query('walrus'), { scopes: ['shared'], k: 1 });
    for (const id of ['a', 'b']) {
      await index.replaceDocument(makeDocument({ id, scope: 'shared', texts: [`seal ${id}`] }));
    }
    await vi.waitFor(() => expect(index.snapshotStats().segments).toBe(1), { timeout: 10_000 });
    expect(index.snapshotStats().children).toBe(603);
    expect(await index.search(query('seal'), { scopes: ['shared'], k: 5 })).toHaveLength(2);
  });

  it('loads afresh after another process rewrote the index (reused row ids never leak another scope)', async () => {
    const index = open();
    await index.search(query('walrus'), { scopes: ['shared'], k: 1 });
    // Another process replaces everything; its new rows may reuse the old row ids in another scope.
    const other = open();
    await other.removeDocument('big', 'shared');
    await other.removeDocument('gone', 'shared');
    await other.replaceDocument(makeDocument({ id: 'secret', scope: 'slack:T9', texts: ['walrus secret'] }));
    const hits = await index.search(query('walrus'), { scopes: ['shared'], k: 5 });
    expect(hits).toEqual([]);
  });
});

describe('the saved snapshot', () => {
  let directory: string;
  let file: string;
  beforeEach(() => {
    directory = mkdtempSync(path.join(tmpdir(), 'ragent-saved-snapshot-'));
    file = path.join(directory, 'index.sqlite');
  });
  afterEach(() => {
    rmSync(directory, { recursive: true, force: true });
  });

  async function indexWithTwoSegments() {
    const index = openSqliteChunkIndex({ file });
    await index.replaceDocument(
      makeDocument({
        id: 'big',
        scope: 'shared',
        texts: numberedParagraphs('walrus', 50),
        dense: (_t, at) => axis(8, at % 8),
      }),
    );
    await index.search(query('walrus'), { scopes: ['shared'], k: 1 });
    await index.replaceDocument(makeDocument({ id: 'late', scope: 'slack:T1', texts: ['beluga song'] }));
    await index.removeDocument('big', 'shared');
    await index.replaceDocument(makeDocument({ id: 'big2', scope: 'shared', texts: ['walrus again'] }));
    expect(index.snapshotStats().segments).toBe(3);
    await index.close();
  }

  it('is loaded at the next start as it was (segments, deletions, scopes) instead of being rebuilt', async () => {
    await indexWithTwoSegments();
    expect(existsSync(`${file}.snapshot`)).toBe(true);
    const reopened = openSqliteChunkIndex({ file });
    try {
      const hits = await reopened.search(query('walrus'), { scopes: ['shared'], k: 5 });
      expect(reopened.snapshotStats()).toMatchObject({ segments: 3, children: 2 });
      expect(hits.map((hit) => hit.child.id)).toEqual(['big2:c0']);
      expect(await reopened.search(query('beluga'), { scopes: ['shared'], k: 5 })).toEqual([]);
      expect((await reopened.search(query('beluga'), { scopes: ['slack:T1'], k: 5 }))[0]?.child.id).toBe(
        'late:c0',
      );
    } finally {
      await reopened.close();
    }
  });

  it('loads a file saved before posting positions were 16-bit (32-bit positions) with the same results', async () => {
    await indexWithTwoSegments();
    const probe = query('walrus again');
    const fresh = openSqliteChunkIndex({ file });
    const expected = await fresh.search(probe, { scopes: ['shared'], k: 5 });
    await fresh.close();
    const raw = new Database(file, { readonly: true });
    const generation = String(
      raw.prepare("SELECT value FROM meta WHERE key = 'write_generation'").pluck().get(),
    );
    raw.close();
    const options = { dimension: null, exactLimit: 5_000, rescoreCandidates: 400 };
    const saved = await readSnapshotFile(`${file}.snapshot`, generation, options);
    for (const segment of saved!.segments) {
      const { parts } = segment.contents();
      expect(parts.postingPositions).toBeInstanceOf(Uint16Array);
      parts.postingPositions = Int32Array.from(parts.postingPositions);
    }
    await writeSnapshotFile(`${file}.snapshot`, saved!, generation);
    const reopened = openSqliteChunkIndex({ file, loadFrom: 'rows' });
    try {
      const hits = await reopened.search(probe, { scopes: ['shared'], k: 5 });
      expect(reopened.snapshotStats().segments).toBe(3);
      expect(hits).toEqual(expected);
    } finally {
      await reopened.close();
    }
  });

  it('is ignored when the index was written after it was saved, or when it is damaged', async () => {
    await indexWithTwoSegments();
    // Another process (which never loaded a snapshot) writes: the saved one is now stale.
    const writer = openSqliteChunkIndex({ file });
    await writer.replaceDocument(makeDocument({ id: 'newer', scope: 'shared', texts: ['walrus newest'] }));
    await writer.close();
    const reopened = openSqliteChunkIndex({ file });
    try {
      const hits = await reopened.search(query('walrus'), { scopes: ['shared'], k: 5 });
      expect(reopened.snapshotStats().segments).toBe(1);
      expect(hits.map((hit) => hit.child.id).sort()).toEqual(['big2:c0', 'newer:c0']);
    } finally {
      await reopened.close();
    }
    writeFileSync(`${file}.snapshot`, 'RGS1 not really a snapshot');
    const again = openSqliteChunkIndex({ file });
    try {
      expect(await again.search(query('walrus'), { scopes: ['shared'], k: 5 })).toHaveLength(2);
    } finally {
      await again.close();
    }
  });
});

describe('opening the embedded index', () => {
  let directory: string;
  beforeEach(() => {
    directory = mkdtempSync(path.join(tmpdir(), 'ragent-open-'));
  });
  afterEach(() => {
    rmSync(directory, { recursive: true, force: true });
  });

  it('gives a clear error when its directory cannot be created or written', () => {
    writeFileSync(path.join(directory, 'data'), 'a file where the data dir should be');
    const error = (() => {
      try {
        openSqliteChunkIndex({ file: path.join(directory, 'data', 'index.sqlite') });
      } catch (caught) {
        return caught as { code?: string; message: string };
      }
      return undefined;
    })();
    expect(error).toMatchObject({ code: 'INDEX_NOT_WRITABLE' });
    expect(error?.message).toContain('RAGENT_DATA_DIR');
  });

  it('gives a clear error, not a crash, when the WAL cannot be opened', async () => {
    const file = path.join(directory, 'index.sqlite');
    const index = openSqliteChunkIndex({ file });
    await index.replaceDocument(makeDocument({ id: 'd', scope: 'shared', texts: ['kiwi'] }));
    await index.close();
    // A directory where SQLite must write its WAL: the open fails as SQLite reports it, not with SIGBUS.
    rmSync(`${file}-wal`, { force: true });
    mkdirSync(`${file}-wal`);
    let error: unknown;
    try {
      const reopened = openSqliteChunkIndex({ file });
      await reopened.search(query('kiwi'), { scopes: ['shared'], k: 1 });
      await reopened.replaceDocument(makeDocument({ id: 'e', scope: 'shared', texts: ['plum'] }));
      await reopened.close();
    } catch (caught) {
      error = caught;
    }
    expect(error).toMatchObject({ code: 'INDEX_NOT_WRITABLE' });
  });
});
