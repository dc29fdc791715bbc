/**
 * npm run bench:ocr-variants — what the engine's options and the image handed over cost on one dense A4
 * page at 300 dpi (the page of bench/ocr.ts): CPU seconds per page and the share of its words found, for
 * each variant, measured in turns on one engine after two warm-up pages (BENCH_OCR_ROUNDS rounds,
 * default 2), so that every variant sees the same load. These are the measurements behind the choices
 * in docs/ocr.md (Speed); ragent itself runs the "grey PGM" variant for scanned PDF pages.
 */

import path from 'node:path';
import { createCanvas } from '@napi-rs/canvas';
import Tesseract from 'tesseract.js';
import { greyscalePgm } from '../src/ingest/ocr/greyscale-image.ts';
import { languageFile } from '../src/ingest/ocr/language-data.ts';
import { a4Canvas, cpuSince, proseLines, wordsFound } from './ocr-page.ts';

const lines = proseLines(45, 7);
const page = a4Canvas(lines);
const timed = <T>(make: () => T): { value: T; cpu: number } => {
  const cpu = process.cpuUsage();
  const value = make();
  return { value, cpu: cpuSince(cpu) };
};
const pgmOf = (scale: number) => {
  const width = Math.round(page.width * scale);
  const height = Math.round(page.height * scale);
  const canvas = createCanvas(width, height);
  const context = canvas.getContext('2d');
  context.drawImage(page, 0, 0, width, height);
  return greyscalePgm(context.getImageData(0, 0, width, height).data, width, height);
};
const png = timed(() => new Uint8Array(page.toBuffer('image/png')));
const pgm = timed(() => pgmOf(1));
console.log(
  `encoding    colour PNG ${(png.cpu / 1000).toFixed(2)} CPU s (${(png.value.byteLength / 1e6).toFixed(1)} MB), ` +
    `grey PGM ${(pgm.cpu / 1000).toFixed(2)} CPU s (${(pgm.value.byteLength / 1e6).toFixed(1)} MB)`,
);

const variants: { name: string; image: Uint8Array; options?: Record<string, string> }[] = [
  { name: 'colour PNG (before)', image: png.value },
  { name: 'grey PGM (now)', image: pgm.value },
  { name: 'grey PGM, tessedit_do_invert=0', image: pgm.value, options: { tessedit_do_invert: '0' } },
  {
    name: 'grey PGM, page segmentation 6 (one block)',
    image: pgm.value,
    options: { tessedit_pageseg_mode: '6' },
  },
  { name: 'grey PGM, user_defined_dpi=300', image: pgm.value, options: { user_defined_dpi: '300' } },
  { name: 'grey PGM rendered at 200 dpi', image: pgmOf(2 / 3) },
];
const worker = await Tesseract.createWorker('eng', Tesseract.OEM.LSTM_ONLY, {
  langPath: path.dirname(languageFile('eng')),
  gzip: true,
  cacheMethod: 'none',
  logger: () => {},
  errorHandler: () => {},
});
const recognise = async (image: Uint8Array, options: Record<string, string> = {}) => {
  const cpu = process.cpuUsage();
  const result = await worker.recognize(Buffer.from(image), options, { text: true });
  return { text: result.data.text ?? '', cpu: cpuSince(cpu) };
};
for (let warm = 0; warm < 2; warm++) {
  console.log(`warm-up     page ${warm + 1}: ${((await recognise(pgm.value)).cpu / 1000).toFixed(2)} CPU s`);
}
const results = variants.map(() => ({ cpu: [] as number[], found: '' }));
for (let round = 0; round < Number(process.env.BENCH_OCR_ROUNDS ?? 2); round++) {
  for (const [index, variant] of variants.entries()) {
    const { text, cpu } = await recognise(variant.image, variant.options);
    const result = results[index];
    if (!result) continue;
    result.cpu.push(cpu);
    result.found = wordsFound(lines.join(' '), text);
  }
}
await worker.terminate();
for (const [index, variant] of variants.entries()) {
  const result = results[index];
  if (!result) continue;
  const mean = result.cpu.reduce((sum, value) => sum + value, 0) / result.cpu.length / 1000;
  console.log(
    `${variant.name.padEnd(44)} ${mean.toFixed(2)} CPU s per page (${result.cpu.map((value) => (value / 1000).toFixed(2)).join(', ')}); ${result.found} found`,
  );
}
