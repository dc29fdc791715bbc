/**
 * A note, a credit or a footer joins a platform's message only where the whole still fits the
 * platform's length limit; otherwise the caller keeps the message as it was (or sends the addition
 * on its own). Decided once here; the platform gives its limit and its own syntax for the pieces.
 */

/** `pieces` joined by `separator` when the result is at most `limit` characters (UTF-16 units), else undefined. */
export function joinWithin(limit: number, pieces: readonly string[], separator: string): string | undefined {
  const joined = pieces.join(separator);
  return joined.length <= limit ? joined : undefined;
}
