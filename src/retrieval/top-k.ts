/** The `limit` best positions by score (highest first), with a bounded min-heap: O(n log limit). */
export function topK(
  positions: ArrayLike<number>,
  count: number,
  scoreOf: (position: number) => number,
  limit: number,
): { position: number; score: number }[] {
  if (limit <= 0) return [];
  const heapPositions = new Int32Array(limit);
  const heapScores = new Float64Array(limit);
  let size = 0;
  for (let index = 0; index < count; index++) {
    const position = positions[index]!;
    const score = scoreOf(position);
    if (size < limit) {
      let child = size++;
      while (child > 0) {
        const parent = (child - 1) >> 1;
        if (heapScores[parent]! <= score) break;
        heapScores[child] = heapScores[parent]!;
        heapPositions[child] = heapPositions[parent]!;
        child = parent;
      }
      heapScores[child] = score;
      heapPositions[child] = position;
    } else if (score > heapScores[0]!) {
      let parent = 0;
      for (;;) {
        const left = 2 * parent + 1;
        if (left >= size) break;
        const right = left + 1;
        const smaller = right < size && heapScores[right]! < heapScores[left]! ? right : left;
        if (heapScores[smaller]! >= score) break;
        heapScores[parent] = heapScores[smaller]!;
        heapPositions[parent] = heapPositions[smaller]!;
        parent = smaller;
      }
      heapScores[parent] = score;
      heapPositions[parent] = position;
    }
  }
  const result: { position: number; score: number }[] = [];
  for (let index = 0; index < size; index++) {
    result.push({ position: heapPositions[index]!, score: heapScores[index]! });
  }
  return result.sort((left, right) => right.score - left.score || left.position - right.position);
}
