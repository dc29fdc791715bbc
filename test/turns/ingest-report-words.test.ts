import { describe, expect, it } from 'vitest';
import type { IngestReport } from '../../src/core/types.ts';
import { describeIngestReport } from '../../src/turns/messages-en.ts';

const document: IngestReport['document'] = {
  id: 'a'.repeat(64),
  name: 'pumps.pdf',
  scope: 'slack:T1',
  pages: 12,
  bytes: 1_000,
  parents: 4,
  children: 30,
  uploader: 'slack:U1',
  ingestedAt: '2026-01-01T00:00:00.000Z',
  embeddingModel: null,
  sparseWeightsVersion: 2,
};

describe('what a chat says an ingest did', () => {
  it('says an unchanged file was indexed again because it had older ranking weights', () => {
    expect(describeIngestReport({ status: 'reindexed', document, seconds: 1.2 }, 1.2)).toBe(
      '12 pages, 30 chunks, 1.2 s (indexed again: it had the ranking weights of an older ragent)',
    );
    expect(describeIngestReport({ status: 'unchanged', document, seconds: 0 }, 0)).toBe(
      'already ingested, unchanged (12 pages, 30 chunks)',
    );
  });
});
