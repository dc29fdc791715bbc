/**
 * The one error for an index built with another embedding model or dimension than the one in use:
 * both backends say the same thing, each with its own way to reindex.
 */
import { errorMessages } from '../error-messages-en.ts';
import { RagentError } from '../errors.ts';

export interface EmbeddingMismatch {
  /** Where the index lives, e.g. `The index at /data/index.sqlite`. */
  index: string;
  indexModel: string;
  indexDimension: number | null;
  wantedModel: string;
  wantedDimension: number | null;
  /** How to rebuild this backend's index, as a clause after "or reindex: ". */
  reindex: string;
}

export function embeddingMismatchError(mismatch: EmbeddingMismatch): RagentError {
  const { index, indexModel, indexDimension, wantedModel, wantedDimension, reindex } = mismatch;
  const describe = (model: string, dimension: number | null) =>
    dimension === null ? model : `${model} (${dimension} dimensions)`;
  return new RagentError(
    'INDEX_MODEL_MISMATCH',
    errorMessages.INDEX_MODEL_MISMATCH.modelChanged({
      index,
      indexEmbedding: describe(indexModel, indexDimension),
      wantedEmbedding: describe(wantedModel, wantedDimension),
      indexModel,
      reindex,
    }),
    { details: { indexModel, indexDimension, wantedModel, wantedDimension } },
  );
}
