/**
 * Synthetic children for the search benchmark: manual-like text (Zipf-distributed words from a technical
 * vocabulary) and clustered unit vectors (topics + noise), generated from a fixed seed.
 */
const vocabulary = (
  'shell command variable expansion parameter function loop while until case select array string pattern ' +
  'redirection pipeline job signal trap builtin option argument quote escape history readline prompt alias ' +
  'environment export subshell process substitution arithmetic integer test condition exit status file ' +
  'descriptor input output error directory path glob wildcard regex match replace vector matrix list frame ' +
  'factor formula model regression plot graphic device package library install namespace object class method ' +
  'generic attribute data import export csv table column row index subset merge apply lapply sapply mapply ' +
  'closure environment scope evaluation promise lazy default missing null na infinite complex numeric ' +
  'character logical date time zone locale encoding unicode font figure label axis legend colour size width ' +
  'height draw path picture pen transform scale rotate shift point pair triple guide surface label latex ' +
  'document compile option figure graph module import struct real int bool string file write read'
).split(' ');

export function createRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let value = state;
    value = Math.imul(value ^ (value >>> 15), value | 1);
    value ^= value + Math.imul(value ^ (value >>> 7), value | 61);
    return ((value ^ (value >>> 14)) >>> 0) / 4_294_967_296;
  };
}

/** The technical words plus `extra` pseudo-words: manuals use tens of thousands of distinct terms. */
function buildVocabulary(random: () => number, extra: number): string[] {
  const syllables = [
    'ka',
    'lo',
    're',
    'mi',
    'tu',
    'sa',
    'ne',
    'po',
    'di',
    'ga',
    've',
    'xo',
    'fi',
    'zu',
    'qa',
    'by',
  ];
  const words = new Set(vocabulary);
  while (words.size < vocabulary.length + extra) {
    const length = 2 + Math.floor(random() * 3);
    let word = '';
    for (let index = 0; index < length; index++) word += syllables[Math.floor(random() * syllables.length)];
    words.add(word);
  }
  // Interleave so that common ranks hold both real and invented words.
  return [...words].sort(() => random() - 0.5);
}

export function createTextGenerator(random: () => number, extraWords = 20_000): (words: number) => string {
  const vocabulary = buildVocabulary(random, extraWords);
  const weights = vocabulary.map((_word, rank) => 1 / (rank + 1));
  const total = weights.reduce((sum, weight) => sum + weight, 0);
  const cumulative: number[] = [];
  let running = 0;
  for (const weight of weights) {
    running += weight / total;
    cumulative.push(running);
  }
  const pick = () => {
    const target = random();
    let low = 0;
    let high = cumulative.length - 1;
    while (low < high) {
      const middle = (low + high) >> 1;
      if (cumulative[middle]! < target) low = middle + 1;
      else high = middle;
    }
    return vocabulary[low]!;
  };
  return (words) => {
    const parts: string[] = [];
    for (let index = 0; index < words; index++) parts.push(pick());
    return `${parts.join(' ')}.`;
  };
}

export function createVectorGenerator(
  random: () => number,
  dimension: number,
  topics = 256,
): () => Float32Array {
  const gaussian = () => {
    const u = Math.max(random(), 1e-12);
    return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * random());
  };
  const centroids = Array.from({ length: topics }, () => Float32Array.from({ length: dimension }, gaussian));
  return () => {
    const centroid = centroids[Math.floor(random() * topics)]!;
    const vector = new Float32Array(dimension);
    let norm = 0;
    for (let index = 0; index < dimension; index++) {
      const value = centroid[index]! + 0.8 * gaussian();
      vector[index] = value;
      norm += value * value;
    }
    const scale = 1 / Math.sqrt(norm);
    for (let index = 0; index < dimension; index++) vector[index]! *= scale;
    return vector;
  };
}
