/**
 * What the graph's tools call: text in, hits out. The query becomes a BM25 sparse vector and, when an
 * embedder is configured, a dense vector; the index fuses both. Scopes always come from the caller;
 * empty scopes find nothing (and cost nothing: no embedding call).
 */
import type { DocumentRecord, ParentChunk, Scope, SearchHit } from '../core/types.ts';
import { encodeSparseQuery } from './bm25.ts';
import type { ChunkIndex, Embedder, Retriever, SearchOptions } from './chunk-index.ts';

export function createRetriever(dependencies: {
  index: ChunkIndex;
  embedder: Embedder | undefined;
}): Retriever {
  const { index, embedder } = dependencies;
  let checked: Promise<void> | undefined;
  return {
    async search(text: string, options: SearchOptions): Promise<SearchHit[]> {
      if (options.scopes.length === 0 || options.k <= 0 || text.trim() === '') return [];
      const sparse = encodeSparseQuery(text);
      if (!embedder) return index.search({ text, sparse }, options);
      checked ??= index.ensureEmbedding({ model: embedder.model, dimension: null }).catch((error) => {
        checked = undefined;
        throw error;
      });
      await checked;
      const [dense] = await embedder.embed([text]);
      return index.search({ text, sparse, dense }, options);
    },
    async getParent(parentId: string, scopes: readonly Scope[]): Promise<ParentChunk | undefined> {
      if (scopes.length === 0) return undefined;
      return index.getParent(parentId, scopes);
    },
    async getDocuments(documentIds: readonly string[], scopes: readonly Scope[]): Promise<DocumentRecord[]> {
      const lookups = [...new Set(documentIds)].flatMap((id) =>
        scopes.map((scope) => index.getDocument(id, scope)),
      );
      return (await Promise.all(lookups)).filter((document) => document !== undefined);
    },
  };
}
