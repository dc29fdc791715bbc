/**
 * Whether a verified answer still stands on its source: it is stale once no document of its scope has
 * the id (the SHA-256 of the bytes) it was verified against — the document was forgotten, or replaced
 * by a changed version. `ragent answers list` and `ragent report` flag these.
 */
import type { DocumentRecord } from '../core/types.ts';
import type { VerifiedAnswer } from '../core/verified-answers.ts';

export function isStale(answer: VerifiedAnswer, documents: readonly DocumentRecord[]): boolean {
  const documentId = answer.source?.documentId;
  if (!documentId) return false;
  return !documents.some((document) => document.id === documentId && document.scope === answer.scope);
}

/** `handbook.pdf:4`, `handbook.pdf:4-5` — as `ragent answers add --source` takes it. */
export function formatVerifiedSource(answer: VerifiedAnswer): string | null {
  if (!answer.source) return null;
  const [start, end] = answer.source.pages;
  return `${answer.source.file}:${start === end ? start : `${start}-${end}`}`;
}
