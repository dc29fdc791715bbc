/**
 * Three facts about an index worth telling its operator: the embedded store is past the size it serves
 * comfortably (then Qdrant is the way to grow), the documents do not all carry the configured
 * embeddings (then a search mixes BM25-only documents, or another model's vectors, with the rest), and
 * some documents carry BM25 weights of an older ragent (`sparseWeightsVersion`, bm25.ts).
 * Pure functions, used by `ragent doctor`, the ingest summary and `ragent docs list`; plus a read-only
 * look into an embedded index file that does not create it.
 */
import { existsSync } from 'node:fs';
import Database from 'better-sqlite3';
import type { DocumentRecord } from '../core/types.ts';
import { sparseWeightsVersion } from './bm25.ts';

/** Children the embedded store searches within its latency and memory goals (see BENCHMARKS.md). */
export const comfortableEmbeddedChildren = 250_000;

export interface EmbeddedIndexSize {
  children: number;
  comfortable: number;
  /** Children beyond `comfortable` (0 when within). */
  over: number;
}

export function embeddedIndexSize(
  children: number,
  comfortable = comfortableEmbeddedChildren,
): EmbeddedIndexSize {
  return { children, comfortable, over: Math.max(0, children - comfortable) };
}

/** A sentence for people when the embedded index is over its comfortable size, else undefined. */
export function describeIndexSize(size: EmbeddedIndexSize): string | undefined {
  if (size.over === 0) return undefined;
  const share = Math.round((size.over / size.comfortable) * 100);
  return (
    `The embedded index holds ${size.children.toLocaleString('en-US')} chunks, ` +
    `${size.over.toLocaleString('en-US')} (${share} %) over the ${size.comfortable.toLocaleString('en-US')} ` +
    'it serves comfortably; searches get slower and it takes more memory. To grow further, run Qdrant and ' +
    'set QDRANT_URL (see docs/qdrant.md), then ingest the documents there.'
  );
}

type Embedded = Pick<DocumentRecord, 'embeddingModel'>;

export interface EmbeddingMix {
  /** Documents whose embeddings are not the configured ones (null = BM25 only). */
  stale: Embedded[];
  total: number;
  /** The configured embedding model, or null for BM25 only. */
  configured: string | null;
}

export function embeddingMix(documents: readonly Embedded[], configured: string | null): EmbeddingMix {
  return {
    stale: documents.filter((document) => (document.embeddingModel ?? null) !== configured),
    total: documents.length,
    configured,
  };
}

/** A warning for people when the documents do not all carry the configured embeddings, else undefined. */
export function describeEmbeddingMix(mix: EmbeddingMix): string | undefined {
  if (mix.stale.length === 0) return undefined;
  const counts = new Map<string, number>();
  for (const document of mix.stale) {
    const label = document.embeddingModel ?? 'no embeddings (BM25 only)';
    counts.set(label, (counts.get(label) ?? 0) + 1);
  }
  const kinds = [...counts].map(([label, count]) => `${count} with ${label}`).join(', ');
  const wanted = mix.configured ?? 'no embeddings (RAGENT_EMBEDDINGS=none)';
  return (
    `${mix.stale.length} of ${mix.total} documents are not indexed with ${wanted} (${kinds}), so searches ` +
    'rank them differently from the rest. Run `ragent reindex` to index them again from the stored text.'
  );
}

type Weighted = Pick<DocumentRecord, 'sparseWeightsVersion'>;

/** The version of a document's BM25 weights: 1 when it was indexed before they were versioned. */
function sparseWeightsVersionOf(document: Weighted): number {
  return document.sparseWeightsVersion ?? 1;
}

/** Whether a document's BM25 weights are the ones this ragent computes (and searches with). */
export function hasCurrentSparseWeights(document: Weighted): boolean {
  return sparseWeightsVersionOf(document) === sparseWeightsVersion;
}

export interface StaleRanking {
  /** Documents whose BM25 weights are not of the current version. */
  stale: Weighted[];
  total: number;
  current: number;
}

export function staleRanking(documents: readonly Weighted[]): StaleRanking {
  return {
    stale: documents.filter((document) => !hasCurrentSparseWeights(document)),
    total: documents.length,
    current: sparseWeightsVersion,
  };
}

/**
 * A warning for people when some documents carry older BM25 weights, else undefined. `reindexable`:
 * whether the index can re-index from its stored text (`ragent reindex`; the embedded store) or its
 * files must be ingested again (Qdrant).
 */
export function describeStaleRanking(ranking: StaleRanking, reindexable = true): string | undefined {
  if (ranking.stale.length === 0) return undefined;
  const fix = reindexable
    ? 'Run `ragent reindex` to compute their weights again from the stored text.'
    : 'Ingest their files again with `ragent ingest` (a file indexed with older weights is indexed again).';
  return (
    `${ranking.stale.length} of ${ranking.total} documents were indexed with the ranking weights of an ` +
    `older ragent, so searches rank them a little differently from the rest. ${fix}`
  );
}

export interface EmbeddedIndexSummary {
  children: number;
  documents: Pick<DocumentRecord, 'scope' | 'name' | 'embeddingModel' | 'sparseWeightsVersion'>[];
}

/** Reads an embedded index file without creating or changing it; undefined when there is none. */
export function readEmbeddedIndexSummary(file: string): EmbeddedIndexSummary | undefined {
  if (!existsSync(file)) return undefined;
  const db = new Database(file, { readonly: true, fileMustExist: true });
  try {
    const children = db.prepare('SELECT COUNT(*) FROM children').pluck().get() as number;
    // A file written before the column was added (on the next writable open): every document is version 1.
    const versioned = (db.prepare('PRAGMA table_info(documents)').all() as { name: string }[]).some(
      (column) => column.name === 'sparse_weights_version',
    );
    const rows = db
      .prepare(
        `SELECT scope, name, embedding_model, ${versioned ? 'sparse_weights_version' : 'NULL'} AS version
         FROM documents ORDER BY scope, name`,
      )
      .all() as { scope: string; name: string; embedding_model: string | null; version: number | null }[];
    const documents = rows.map((row) => ({
      scope: row.scope,
      name: row.name,
      embeddingModel: row.embedding_model,
      ...(row.version === null ? {} : { sparseWeightsVersion: row.version }),
    }));
    return { children, documents };
  } finally {
    db.close();
  }
}
