/**
 * RAGENT_THREAD_FILES_DAYS on the real index backends (embedded SQLite; Qdrant through its real client
 * against the fake server): files read for one thread are removed — document, chunks and vectors —
 * once past their days, while younger ones and every set's documents stay; a file whose ingest failed
 * part-way (an abort, or a crash at any Qdrant request) was never visible and leaves nothing for the
 * sweep; and replicas sweeping at the same time (PostgreSQL locks, one shared Qdrant) remove each file
 * once.
 */
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.ts';
import { channelScope, threadFilesScope } from '../../src/core/ids.ts';
import type { NameLock } from '../../src/core/name-lock.ts';
import type { Scope } from '../../src/core/types.ts';
import { createIngestion } from '../../src/ingest/ingestion-service.ts';
import { createLogger } from '../../src/logger.ts';
import { startThreadFilesSweep, sweepThreadFiles } from '../../src/operators/thread-files-retention.ts';
import { encodeSparseQuery } from '../../src/retrieval/bm25.ts';
import type { ChunkIndex } from '../../src/retrieval/chunk-index.ts';
import { openQdrantChunkIndex } from '../../src/retrieval/qdrant-chunk-index.ts';
import { openSqliteChunkIndex } from '../../src/retrieval/sqlite-chunk-index.ts';
import { openDatabase } from '../../src/stores/postgres/open-database.ts';
import { withIngestLock } from '../../src/stores/postgres/postgres-stores.ts';
import { type FakeQdrant, startFakeQdrant } from '../fakes/fake-qdrant.ts';
import { textManual } from '../ingest/text-manual.ts';
import { createTestDatabase } from '../support/postgres-database.ts';

const logger = createLogger({ level: 'silent' });
const dayMs = 24 * 60 * 60 * 1000;
const threadA = threadFilesScope('slack:T1:C1:1700000000.000100');
const threadB = threadFilesScope('discord:G1:42');
const channel = channelScope('slack', 'T1', 'C1');

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

interface Backend {
  name: string;
  open(): Promise<{ index: ChunkIndex; qdrant?: FakeQdrant; reopen(): Promise<ChunkIndex> }>;
}

function directory(): string {
  const created = mkdtempSync(path.join(tmpdir(), 'ragent-thread-files-'));
  cleanups.push(() => rmSync(created, { recursive: true, force: true }));
  return created;
}

const backends: Backend[] = [
  {
    name: 'SQLite',
    open: async () => {
      const file = path.join(directory(), 'index.sqlite');
      let index: ChunkIndex = openSqliteChunkIndex({ file });
      cleanups.push(() => index.close());
      return {
        index,
        reopen: async () => {
          await index.close();
          index = openSqliteChunkIndex({ file });
          return index;
        },
      };
    },
  },
  {
    name: 'Qdrant',
    open: async () => {
      const qdrant = await startFakeQdrant();
      const connect = () =>
        openQdrantChunkIndex({
          url: qdrant.url,
          apiKey: undefined,
          collection: 'ragent',
          sweepGraceMs: 0,
          logger,
        });
      let index: ChunkIndex = await connect();
      cleanups.push(async () => {
        await index.close();
        await qdrant.close();
        expect(qdrant.violations).toEqual([]);
      });
      return {
        index,
        qdrant,
        reopen: async () => {
          qdrant.up();
          await index.close();
          index = await connect();
          return index;
        },
      };
    },
  },
];

function ingestionOf(index: ChunkIndex) {
  return createIngestion({
    config: loadConfig({ RAGENT_DATA_DIR: directory(), RAGENT_EMBEDDINGS: 'none' }, { envFile: false }),
    logger,
    index,
    embedder: undefined,
  });
}

const file = (subject: string, scope: Scope) => ({
  name: `${subject}.txt`,
  bytes: textManual(subject),
  scope,
  uploader: 'UALICE',
});

/** The names a search of `scope` finds for `text`. */
async function found(index: ChunkIndex, scope: Scope, text: string): Promise<string[]> {
  const hits = await index.search({ text, sparse: encodeSparseQuery(text) }, { scopes: [scope], k: 5 });
  return [...new Set(hits.map((hit) => hit.child.documentName))];
}

/** Points Qdrant still holds for a scope (documents, parents, children). */
function pointsOf(qdrant: FakeQdrant | undefined, scope: Scope): number {
  return [...(qdrant?.collection('ragent')?.points.values() ?? [])].filter(
    (point) => point.payload.scope === scope,
  ).length;
}

describe.each(backends)('thread files past RAGENT_THREAD_FILES_DAYS on $name', (backend) => {
  it('removes every thread file past its days, with its chunks, and keeps every set’s documents', async () => {
    const { index, qdrant } = await backend.open();
    const ingestion = ingestionOf(index);
    await ingestion.ingest(file('turbine', threadA));
    await ingestion.ingest(file('gearbox', threadB));
    await ingestion.ingest(file('compressor', channel));
    const readAt = Date.now();
    const sweep = (daysLater: number) =>
      sweepThreadFiles({ index, days: 7, logger, now: () => readAt + daysLater * dayMs });

    // Within the days: kept, and searched in their threads.
    expect(await sweep(6)).toBe(0);
    expect(await found(index, threadA, 'turbine settings')).toEqual(['turbine.txt']);
    expect(await sweep(8)).toBe(2);
    expect((await index.listAllDocuments!()).map((document) => [document.name, document.scope])).toEqual([
      ['compressor.txt', channel],
    ]);
    expect(await found(index, threadA, 'turbine settings')).toEqual([]);
    expect(await found(index, threadB, 'gearbox settings')).toEqual([]);
    expect(await found(index, channel, 'compressor settings')).toEqual(['compressor.txt']);
    expect(pointsOf(qdrant, threadA) + pointsOf(qdrant, threadB)).toBe(0);
    // Idempotent: a second pass (another replica's) finds nothing left.
    expect(await sweep(8)).toBe(0);
  });

  it('keeps a file read within the days, and sweeps at start and then on its timer', async () => {
    const { index } = await backend.open();
    await ingestionOf(index).ingest(file('turbine', threadA));
    let clock = Date.now();
    let passes = 0;
    // The sweeper's view of the index, counting its passes (each lists the documents once).
    const counted: typeof index = Object.create(index);
    counted.listAllDocuments = () => {
      passes += 1;
      return index.listAllDocuments!();
    };
    const sweeper = startThreadFilesSweep({
      index: counted,
      days: 7,
      logger,
      intervalMs: 5,
      now: () => clock,
    });
    cleanups.push(() => sweeper.close());
    // Passes run one after the other: once the second began, the first (at start) has ended.
    await expect.poll(() => passes).toBeGreaterThanOrEqual(2);
    expect(await found(index, threadA, 'turbine settings')).toEqual(['turbine.txt']);
    clock += 8 * dayMs;
    await expect.poll(() => found(index, threadA, 'turbine settings')).toEqual([]);
  });
});

describe('a thread file whose ingest failed part-way', () => {
  it('SQLite: an ingest aborted while it reads or chunks leaves nothing to see or sweep', async () => {
    const [sqlite] = backends;
    const { index } = await sqlite!.open();
    const ingestion = ingestionOf(index);
    for (const stage of ['reading', 'chunking'] as const) {
      const aborted = new AbortController();
      await expect(
        ingestion.ingest({ ...file('turbine', threadA), signal: aborted.signal }, (progress) => {
          if (progress.stage === stage) aborted.abort();
        }),
      ).rejects.toMatchObject({ code: 'INGEST_CANCELLED' });
      expect(await index.listAllDocuments!(), stage).toEqual([]);
      expect(await found(index, threadA, 'turbine settings'), stage).toEqual([]);
      expect(await sweepThreadFiles({ index, days: 7, logger, now: () => Date.now() + 8 * dayMs })).toBe(0);
    }
  });

  it('Qdrant: a crash at any request of the write leaves nothing visible, and nothing after recovery and the sweep', async () => {
    const [, qdrantBackend] = backends;
    const opened = await qdrantBackend!.open();
    const { qdrant } = opened;
    let index = opened.index;
    // Something else in the collection first, so the write is one among others.
    await ingestionOf(index).ingest(file('compressor', channel));
    for (let step = 0; step < 40; step++) {
      let fired = false;
      let seen = 0;
      qdrant!.failRequest({
        where: () => {
          if (seen++ !== step) return false;
          fired = true;
          return true;
        },
        apply: 'all',
        thenDown: true,
      });
      const outcome = await ingestionOf(index)
        .ingest(file('turbine', threadA))
        .then(
          () => 'written' as const,
          () => 'failed' as const,
        );
      if (!fired) {
        // Past the last request of the write: it went through whole; remove it for the next step.
        expect(outcome).toBe('written');
        break;
      }
      index = await opened.reopen();
      const label = `crash at request ${step}`;
      const visible = await found(index, threadA, 'turbine settings');
      const listed = (await index.listAllDocuments!()).filter((document) => document.scope === threadA);
      // Whole or nothing: a listed document is searchable; an unlisted one left no chunk to find.
      expect(visible.length, label).toBe(listed.length);
      await sweepThreadFiles({ index, days: 7, logger, now: () => Date.now() + 8 * dayMs });
      expect(await index.listAllDocuments!(), label).toEqual([
        expect.objectContaining({ name: 'compressor.txt', scope: channel }),
      ]);
      expect(await found(index, threadA, 'turbine settings'), label).toEqual([]);
      expect(pointsOf(qdrant, threadA), label).toBe(0);
    }
  });
});

describe('replicas sweeping at once (PostgreSQL locks, one Qdrant)', () => {
  it('remove each thread file exactly once and leave the sets alone', async () => {
    const url = await createTestDatabase();
    const databases = await Promise.all(
      [1, 2].map(() => openDatabase({ url, poolSize: 2, replicaId: `replica-${randomUUID()}` })),
    );
    cleanups.push(async () => {
      for (const database of databases) await database.close();
    });
    const [qdrantBackend] = backends.slice(1);
    const { index } = await qdrantBackend!.open();
    const ingestion = ingestionOf(index);
    const scopes = Array.from({ length: 6 }, (_, at) => threadFilesScope(`slack:T1:C1:17000000${at}.000100`));
    for (const [at, scope] of scopes.entries()) await ingestion.ingest(file(`manual-${at}`, scope));
    await ingestion.ingest(file('compressor', channel));
    const locks: NameLock[] = databases.map(
      (database) => (scope, name, work) => withIngestLock(database, scope, name, work),
    );
    const removed = await Promise.all(
      locks.map((withNameLock) =>
        sweepThreadFiles({ index, days: 7, logger, withNameLock, now: () => Date.now() + 8 * dayMs }),
      ),
    );
    expect(removed[0]! + removed[1]!).toBe(scopes.length);
    expect((await index.listAllDocuments!()).map((document) => document.scope)).toEqual([channel]);
  });
});
