import path from 'node:path';
import type { Config } from '../config.ts';
import { configuredEmbeddingModel } from '../models/create-models.ts';
import {
  describeEmbeddingMix,
  describeIndexSize,
  describeStaleRanking,
  type EmbeddedIndexSummary,
  embeddedIndexSize,
  embeddingMix,
  readEmbeddedIndexSummary,
  staleRanking,
} from '../retrieval/index-health.ts';
import type { CheckResult } from './check-result.ts';

/**
 * Three checks of the embedded index file (read only, never created): its size against what it serves
 * comfortably (beyond it, Qdrant), whether every document carries the configured embeddings, and
 * whether every document carries the current BM25 weights. With QDRANT_URL all are skipped.
 */
export function checkIndex(config: Config): CheckResult[] {
  const sizeTitle = 'Index size';
  const mixTitle = 'Index embeddings';
  const rankingTitle = 'Index ranking weights';
  if (config.qdrant) {
    const qdrant = 'Qdrant (QDRANT_URL) holds the index';
    return [sizeTitle, mixTitle, rankingTitle].map((title) => ({ title, status: 'skip', detail: qdrant }));
  }
  const file = path.join(config.dataDir, 'index.sqlite');
  let summary: EmbeddedIndexSummary | undefined;
  try {
    summary = readEmbeddedIndexSummary(file);
  } catch (error) {
    return [
      {
        title: sizeTitle,
        status: 'warn',
        detail: `could not read ${file} (${(error as { code?: string }).code ?? 'error'})`,
        fix: ['Check that the file is a ragent index and readable, or move it away and ingest again.'],
      },
    ];
  }
  if (!summary) {
    const none = 'no index yet (ingest a document to create it)';
    return [sizeTitle, mixTitle, rankingTitle].map((title) => ({ title, status: 'skip', detail: none }));
  }
  const size = embeddedIndexSize(summary.children);
  const over = describeIndexSize(size);
  const mix = embeddingMix(summary.documents, configuredEmbeddingModel(config));
  const mixed = describeEmbeddingMix(mix);
  const ranking = staleRanking(summary.documents);
  const staleWeights = describeStaleRanking(ranking);
  return [
    over
      ? {
          title: sizeTitle,
          status: 'warn',
          detail: over,
          fix: ['Set QDRANT_URL to a Qdrant server and ingest the documents there (README, "Qdrant").'],
        }
      : {
          title: sizeTitle,
          status: 'pass',
          detail: `${size.children.toLocaleString('en-US')} chunks (comfortable up to ${size.comfortable.toLocaleString('en-US')})`,
        },
    mixed
      ? { title: mixTitle, status: 'warn', detail: mixed, fix: ['Run `ragent reindex`.'] }
      : {
          title: mixTitle,
          status: 'pass',
          detail: `${mix.total} documents, all ${mix.configured ? `embedded with ${mix.configured}` : 'BM25 only'}`,
        },
    staleWeights
      ? { title: rankingTitle, status: 'warn', detail: staleWeights, fix: ['Run `ragent reindex`.'] }
      : {
          title: rankingTitle,
          status: 'pass',
          detail: `${ranking.total} documents, all with the current BM25 weights (version ${ranking.current})`,
        },
  ];
}
