/**
 * Replicas: one ingest of a given (scope, file name) at a time across them. Two ingestion services,
 * each with its own PostgreSQL connections (two replicas sharing one data directory, as replicas on
 * one host may), given the ingest lock as the composition root gives it.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.ts';
import { createIngestion } from '../../src/ingest/ingestion-service.ts';
import { createLogger } from '../../src/logger.ts';
import { createEmbedder } from '../../src/models/create-models.ts';
import type { ChunkIndex } from '../../src/retrieval/chunk-index.ts';
import { openChunkIndex } from '../../src/retrieval/open-chunk-index.ts';
import { openDatabase, type PostgresDatabase } from '../../src/stores/postgres/open-database.ts';
import { withIngestLock } from '../../src/stores/postgres/session-locks.ts';
import { createTestDatabase } from '../support/postgres-database.ts';
import { readFixture } from './fixtures.ts';

const logger = createLogger({ level: 'silent' });
const cleanups: Array<() => Promise<void>> = [];

afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

describe('ingest lock across replicas', () => {
  it('runs two ingests of one file name one after the other, each whole', async () => {
    const url = await createTestDatabase();
    const dataDir = mkdtempSync(path.join(tmpdir(), 'ragent-ingest-lock-'));
    cleanups.push(async () => rmSync(dataDir, { recursive: true, force: true }));
    const config = loadConfig({ RAGENT_DATA_DIR: dataDir, RAGENT_EMBEDDINGS: 'none' }, { envFile: false });
    const replica = async (replicaId: string) => {
      const database: PostgresDatabase = await openDatabase({ url, poolSize: 2, replicaId });
      const index: ChunkIndex = await openChunkIndex(config, logger);
      cleanups.push(async () => {
        await index.close();
        await database.close();
      });
      return createIngestion({
        config,
        logger,
        index,
        embedder: createEmbedder(config),
        withNameLock: (scope, name, work) => withIngestLock(database, scope, name, work),
      });
    };
    const [a, b] = [await replica('a'), await replica('b')];
    const stages: string[] = [];
    const ingest = (service: typeof a, label: string) =>
      service.ingest(
        {
          name: 'manual.pdf',
          bytes: readFixture('manual.pdf'),
          scope: 'slack:T1',
          uploader: label,
          force: true,
        },
        () => {
          if (stages.at(-1) !== label) stages.push(label);
        },
      );
    const reports = await Promise.all([ingest(a, 'a'), ingest(b, 'b')]);
    // Each ingest's progress is whole: never interleaved with the other's.
    expect(stages.sort()).toEqual(['a', 'b']);
    expect(reports.map((report) => report.document.name)).toEqual(['manual.pdf', 'manual.pdf']);
    expect((await a.listDocuments(['slack:T1'])).map((document) => document.name)).toEqual(['manual.pdf']);
  });
});
