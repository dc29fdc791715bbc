/**
 * How both stores keep a verified answer's sources in their `source` column (JSON): one source as one
 * object, as every version before several sources were kept wrote it (so such rows read as before, and a
 * replica still running that version reads a one-source answer written now); several as a list of such
 * objects. No source: NULL.
 */
import type { VerifiedAnswerSource } from '../core/verified-answers.ts';

/** The JSON text to store (null: the column stays NULL). */
export function encodeVerifiedSources(sources: readonly VerifiedAnswerSource[]): string | null {
  const [only] = sources;
  if (!only) return null;
  return JSON.stringify(sources.length === 1 ? only : sources);
}

/** The sources a stored value (parsed JSON) holds: a list, or the one object of a row written before. */
export function decodeVerifiedSources(stored: unknown): VerifiedAnswerSource[] {
  if (stored === null || stored === undefined) return [];
  return Array.isArray(stored) ? (stored as VerifiedAnswerSource[]) : [stored as VerifiedAnswerSource];
}
