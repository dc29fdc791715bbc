/**
 * Result diversity by parent. Children are overlapping 800-character windows, so the best few of one
 * section often crowd the top k, and the agent (which reads whole parents) then sees fewer sections.
 * Rule, the same for every backend: rank a pool of `candidatePoolSize(k)` candidates, then keep the
 * ranking order but take at most `childrenPerParent` children of any one parent, filling the k places
 * from further down the pool. Only when the pool has too few other parents are the passed-over children
 * taken after all (best first), so a search never returns fewer hits because of this rule.
 */
import type { SearchHit } from '../core/types.ts';

export const childrenPerParent = 2;

/** How many ranked candidates a backend fetches for a top k before `limitPerParent`. */
export const candidatePoolSize = (k: number) => k * 4;

/** The top `k` of `ranked` (best first) with at most `perParent` children of one parent; order kept. */
export function limitPerParent<Hit extends { child: Pick<SearchHit['child'], 'parentId'> }>(
  ranked: readonly Hit[],
  k: number,
  perParent = childrenPerParent,
): Hit[] {
  if (k <= 0) return [];
  const chosen = new Set<number>();
  const taken = new Map<string, number>();
  for (const [index, hit] of ranked.entries()) {
    if (chosen.size >= k) break;
    const count = taken.get(hit.child.parentId) ?? 0;
    if (count >= perParent) continue;
    taken.set(hit.child.parentId, count + 1);
    chosen.add(index);
  }
  for (let index = 0; index < ranked.length && chosen.size < k; index++) chosen.add(index);
  return ranked.filter((_hit, index) => chosen.has(index));
}
