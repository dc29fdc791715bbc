import { describe, expect, it } from 'vitest';
import { childrenPerParent, limitPerParent } from '../../src/retrieval/diversify.ts';

/** Ranked hits (best first) named `<parent><n>`, e.g. 'a1' is the first child of parent a. */
const ranked = (...names: string[]) =>
  names.map((name, index) => ({ child: { id: name, parentId: name.charAt(0) }, score: 100 - index }));
const ids = (hits: { child: { id: string } }[]) => hits.map((hit) => hit.child.id);

describe('limitPerParent', () => {
  it('keeps at most two children of a parent and fills the top k from further down, in rank order', () => {
    expect(childrenPerParent).toBe(2);
    expect(ids(limitPerParent(ranked('a1', 'a2', 'a3', 'a4', 'b1', 'a5', 'c1', 'b2', 'd1'), 5))).toEqual([
      'a1',
      'a2',
      'b1',
      'c1',
      'b2',
    ]);
  });

  it('leaves a ranking that already has different parents as it is', () => {
    expect(ids(limitPerParent(ranked('a1', 'b1', 'a2', 'c1', 'd1', 'e1'), 4))).toEqual([
      'a1',
      'b1',
      'a2',
      'c1',
    ]);
  });

  it('takes passed-over children (best first) only when too few other parents are left', () => {
    expect(ids(limitPerParent(ranked('a1', 'a2', 'a3', 'b1', 'a4', 'a5'), 5))).toEqual([
      'a1',
      'a2',
      'a3',
      'b1',
      'a4',
    ]);
    expect(ids(limitPerParent(ranked('a1', 'a2'), 5))).toEqual(['a1', 'a2']);
  });

  it('honours another cap and an empty k', () => {
    expect(ids(limitPerParent(ranked('a1', 'a2', 'b1', 'b2', 'c1'), 3, 1))).toEqual(['a1', 'b1', 'c1']);
    expect(limitPerParent(ranked('a1'), 0)).toEqual([]);
  });
});
