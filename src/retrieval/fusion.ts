/**
 * Reciprocal-rank fusion: each list contributes 1 / (constant + rank) for every item it ranks
 * (rank starting at 1). Items are keys of any type; ties keep first-seen order.
 */
export const rrfConstant = 60;

export interface Fused<Key> {
  key: Key;
  score: number;
}

export function reciprocalRankFusion<Key>(
  rankings: readonly (readonly Key[])[],
  limit: number,
  constant = rrfConstant,
): Fused<Key>[] {
  const scores = new Map<Key, number>();
  for (const ranking of rankings) {
    ranking.forEach((key, index) => {
      scores.set(key, (scores.get(key) ?? 0) + 1 / (constant + index + 1));
    });
  }
  return [...scores]
    .map(([key, score]) => ({ key, score }))
    .sort((left, right) => right.score - left.score)
    .slice(0, limit);
}
