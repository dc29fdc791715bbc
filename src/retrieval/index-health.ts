/**
 * Two facts about an index worth telling its operator: the embedded store is past the size it serves
 * comfortably (then Qdrant is the way to grow), and the documents do not all carry the configured
 * embeddings (then a search mixes BM25-only documents, or another model's vectors, with the rest).
 * Pure functions, used by `ragent doctor`, the ingest summary and `ragent docs list`; plus a read-only
 * look into an embedded index file that does not create it.
 */
import { existsSync } from 'node:fs';
import Database from 'better-sqlite3';
import type { DocumentRecord } from '../core/types.ts';

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
    'set QDRANT_URL (see the README), then ingest the documents there.'
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

export interface EmbeddedIndexSummary {
  children: number;
  documents: Pick<DocumentRecord, 'scope' | 'name' | 'embeddingModel'>[];
}

/** Reads an embedded index file without creating or changing it; undefined when there is none. */
export function readEmbeddedIndexSummary(file: string): EmbeddedIndexSummary | undefined {
  if (!existsSync(file)) return undefined;
  const db = new Database(file, { readonly: true, fileMustExist: true });
  try {
    const children = db.prepare('SELECT COUNT(*) FROM children').pluck().get() as number;
    const rows = db
      .prepare('SELECT scope, name, embedding_model FROM documents ORDER BY scope, name')
      .all() as { scope: string; name: string; embedding_model: string | null }[];
    const documents = rows.map((row) => ({
      scope: row.scope,
      name: row.name,
      embeddingModel: row.embedding_model,
    }));
    return { children, documents };
  } finally {
    db.close();
  }
}
