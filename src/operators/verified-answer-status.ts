/**
 * Whether a verified answer still stands on its sources: it is stale once any of its documents is no
 * longer in its scope with the id (the SHA-256 of the bytes) it was verified against — forgotten, or
 * replaced by a changed version — since the answer may rest on that one. A source without an id (none
 * was known) is never the reason. `ragent answers list` and `ragent report` flag these, naming the
 * sources gone.
 */
import type { DocumentRecord } from '../core/types.ts';
import type { VerifiedAnswer, VerifiedAnswerSource } from '../core/verified-answers.ts';

/** The sources whose document is no longer in the answer's scope as it was verified, in order. */
export function goneSources(
  answer: VerifiedAnswer,
  documents: readonly DocumentRecord[],
): VerifiedAnswerSource[] {
  return answer.sources.filter(
    ({ documentId }) =>
      documentId !== undefined &&
      !documents.some((document) => document.id === documentId && document.scope === answer.scope),
  );
}

export function isStale(answer: VerifiedAnswer, documents: readonly DocumentRecord[]): boolean {
  return goneSources(answer, documents).length > 0;
}

/** `handbook.pdf:4`, `handbook.pdf:4-5` — as `ragent answers add --source` takes it. */
export function formatVerifiedSource(source: VerifiedAnswerSource): string {
  const [start, end] = source.pages;
  return `${source.file}:${start === end ? start : `${start}-${end}`}`;
}
