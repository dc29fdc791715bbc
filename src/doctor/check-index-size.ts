import path from 'node:path';
import type { Config } from '../config.ts';
import type { DocumentRecord } from '../core/types.ts';
import { describeError } from '../errors.ts';
import { configuredEmbeddingModel } from '../models/create-embedder.ts';
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
import { readQdrantDocuments } from '../retrieval/qdrant-index-summary.ts';
import type { CheckResult } from './check-result.ts';

const sizeTitle = 'Index size';
const mixTitle = 'Index embeddings';
const rankingTitle = 'Index ranking weights';

/**
 * Three checks of the index, read only (never created, never changed): the embedded file's size against
 * what it serves comfortably (beyond it, Qdrant), whether every document carries the configured
 * embeddings, and whether every document carries the current BM25 weights. With QDRANT_URL the last two
 * run on Qdrant's live documents, and the size check is skipped.
 */
export async function checkIndex(config: Config, timeoutMs: number): Promise<CheckResult[]> {
  if (config.qdrant) return checkQdrantIndex(config, timeoutMs);
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
  return [
    over
      ? {
          title: sizeTitle,
          status: 'warn',
          detail: over,
          fix: ['Set QDRANT_URL to a Qdrant server and ingest the documents there (docs/qdrant.md).'],
        }
      : {
          title: sizeTitle,
          status: 'pass',
          detail: `${size.children.toLocaleString('en-US')} chunks (comfortable up to ${size.comfortable.toLocaleString('en-US')})`,
        },
    ...checkDocuments(config, summary.documents),
  ];
}

async function checkQdrantIndex(config: Config, timeoutMs: number): Promise<CheckResult[]> {
  const qdrant = config.qdrant!;
  const size: CheckResult = {
    title: sizeTitle,
    status: 'skip',
    detail: 'Qdrant (QDRANT_URL) holds the index; it grows with the server',
  };
  let documents: DocumentRecord[] | undefined;
  try {
    documents = await readQdrantDocuments({ ...qdrant, timeoutMs });
  } catch (error) {
    // Unreachable or refused: the "Vector store" check says why and how to fix it.
    const detail = `could not read the documents from Qdrant (${describeError(error).split('\n')[0]})`;
    return [size, ...[mixTitle, rankingTitle].map((title) => ({ title, status: 'skip' as const, detail }))];
  }
  if (!documents) {
    const none = `no collection "${qdrant.collection}" yet (ingest a document to create it)`;
    return [
      size,
      ...[mixTitle, rankingTitle].map((title) => ({ title, status: 'skip' as const, detail: none })),
    ];
  }
  return [size, ...checkDocuments(config, documents)];
}

/** The embeddings and ranking-weights checks of the documents of every scope (either backend). */
function checkDocuments(
  config: Config,
  documents: readonly Pick<DocumentRecord, 'embeddingModel' | 'sparseWeightsVersion'>[],
): CheckResult[] {
  const mix = embeddingMix(documents, configuredEmbeddingModel(config));
  const mixed = describeEmbeddingMix(mix);
  const ranking = staleRanking(documents);
  const staleWeights = describeStaleRanking(ranking);
  return [
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
