/** The benches' A4 page of printed prose at 300 dpi (bench/ocr.ts, bench/ocr-variants.ts). */
import { type Canvas, createCanvas } from '@napi-rs/canvas';

const vocabulary = (
  'the valve pump schedule inspection warranty turbine harbour invoice quarterly engineer report ' +
  'maintenance pressure filter gasket replace monthly customer delivery contract section appendix ' +
  'temperature sensor calibration procedure safety manual operator battery charger voltage current ' +
  'network server backup restore archive policy budget council meeting minutes approved rejected'
).split(' ');

/** Deterministic prose: the same page on every run. */
export function proseLines(count: number, seed: number): string[] {
  let state = seed;
  const next = () => {
    state = (state * 1_103_515_245 + 12_345) % 2_147_483_648;
    return state;
  };
  return Array.from({ length: count }, () =>
    Array.from({ length: 11 }, () => vocabulary[next() % vocabulary.length]).join(' '),
  );
}

/** An A4 page at 300 dpi: 2480 × 3508 px, 11 pt text (46 px) with 1 in margins. */
export function a4Canvas(lines: string[]): Canvas {
  const canvas = createCanvas(2480, 3508);
  const context = canvas.getContext('2d');
  context.fillStyle = '#ffffff';
  context.fillRect(0, 0, canvas.width, canvas.height);
  context.fillStyle = '#000000';
  context.font = '46px serif';
  lines.forEach((line, index) => {
    context.fillText(line, 300, 300 + index * 66);
  });
  return canvas;
}

export function a4Page(lines: string[], format: 'png' | 'jpeg'): Uint8Array {
  const canvas = a4Canvas(lines);
  return new Uint8Array(format === 'png' ? canvas.toBuffer('image/png') : canvas.toBuffer('image/jpeg', 85));
}

/**
 * The share of the expected words (3 letters or more) found in the recognised text, each occurrence
 * counted once: a word the page has five times must be recognised five times (the page's vocabulary is
 * small, so counting distinct words would hide misreadings).
 */
export function wordsFound(expected: string, recognised: string): string {
  const words = (text: string) => text.toLowerCase().match(/[\p{L}\p{N}]{3,}/gu) ?? [];
  const available = new Map<string, number>();
  for (const word of words(recognised)) available.set(word, (available.get(word) ?? 0) + 1);
  const wanted = words(expected);
  let found = 0;
  for (const word of wanted) {
    const left = available.get(word) ?? 0;
    if (left > 0) {
      found++;
      available.set(word, left - 1);
    }
  }
  return `${((found / Math.max(1, wanted.length)) * 100).toFixed(1)} % of ${wanted.length} words`;
}

/**
 * CPU time of the whole process (every thread) since `from`, in ms. On a machine busy with other work,
 * wall-clock seconds mostly measure the wait for a core; the CPU seconds of a page are what it costs,
 * and about its wall-clock time on an idle core.
 */
export function cpuSince(from: NodeJS.CpuUsage): number {
  const used = process.cpuUsage(from);
  return (used.user + used.system) / 1000;
}
