/**
 * npm run bench:ocr — seconds per A4 page at 300 dpi, on this machine:
 * 1. image: a page of printed prose (2480 × 3508 px, 11 pt text) recognised by one OCR engine: its
 *    start, its first page (slower: V8 is still optimising tesseract's WebAssembly), then BENCH_OCR_ROUNDS
 *    (default 2) rounds of the page as PNG (an uploaded image) and as the greyscale PGM a rendered scan
 *    page is handed over as, with the share of the page's words found;
 * 2. scanned PDF: BENCH_OCR_PAGES (default 4) such pages as JPEG scans in one PDF, read the way the
 *    ingest reads it (reader threads per RAGENT_INGEST_WORKERS render each page and recognise it), with
 *    the longest event-loop delay of the main thread meanwhile (the thread that serves chats);
 * 3. corpus (when ../shared/corpus or BENCH_CORPUS has PDFs, or BENCH_OCR_PDF names one): its first
 *    BENCH_OCR_CORPUS_PAGES (default 2) pages rendered at 300 dpi and recognised, with the share of
 *    the words of pdf.js's text layer that OCR found.
 * Then the peak RSS of the process (threads included). Target: ≤ 3 s per page. Each time is printed
 * with the CPU seconds it took (all threads): on a busy machine those, not the wall-clock ones, tell
 * what a page costs.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import path from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { createCanvas } from '@napi-rs/canvas';
import { PDFDocument } from 'pdf-lib';
import { loadConfig } from '../src/config.ts';
import { extractDocument } from '../src/ingest/extract-document.ts';
import { greyscalePgm } from '../src/ingest/ocr/greyscale-image.ts';
import { OcrEngine } from '../src/ingest/ocr/ocr-engine.ts';
import { PageRenderer } from '../src/ingest/ocr/render-page.ts';
import { openPdf } from '../src/ingest/pdf/open-pdf.ts';
import { readPage } from '../src/ingest/pdf/read-page.ts';
import { corpusDirectory } from './corpus-path.ts';
import { a4Canvas, a4Page, cpuSince, proseLines, wordsFound } from './ocr-page.ts';

const config = loadConfig(process.env, { envFile: false });
// The bench measures speed: the page limit is RAGENT_OCR_PAGE_SECONDS only when set (else 10 minutes).
const ocr = {
  ...config.ocr,
  enabled: true,
  pageTimeoutMs: process.env.RAGENT_OCR_PAGE_SECONDS ? config.ocr.pageTimeoutMs : 600_000,
};
const pdfPages = Number(process.env.BENCH_OCR_PAGES ?? 4);
const corpusPages = Number(process.env.BENCH_OCR_CORPUS_PAGES ?? 2);
const seconds = (milliseconds: number) => `${(milliseconds / 1000).toFixed(2)} s`;
console.log(
  `machine     ${cpus().length} cores, load ${loadavg()
    .map((value) => value.toFixed(1))
    .join(' ')}; languages ${ocr.languages.join('+')}, reader threads ${config.ingest.workers}`,
);

// 1. One image, one engine: its start, its first page (its WebAssembly still being optimised), then
// the page as a PNG (an uploaded image) and as the greyscale PGM a rendered scan page is handed over as,
// in turns, so that both see the same load.
const lines = proseLines(45, 7);
const engine = new OcrEngine(ocr, 'bench');
let started = performance.now();
let cpu = process.cpuUsage();
await engine.recognise(new Uint8Array(createCanvas(64, 32).toBuffer('image/png')));
console.log(
  `engine      started in ${seconds(performance.now() - started)} (CPU ${seconds(cpuSince(cpu))}; once per file and thread)`,
);
const canvas = a4Canvas(lines);
const png = new Uint8Array(canvas.toBuffer('image/png'));
const rgba = canvas.getContext('2d').getImageData(0, 0, canvas.width, canvas.height).data;
const pgm = greyscalePgm(rgba, canvas.width, canvas.height);
const recogniseTimed = async (image: Uint8Array) => {
  started = performance.now();
  cpu = process.cpuUsage();
  const text = await engine.recognise(image);
  return { text, wall: performance.now() - started, cpu: cpuSince(cpu) };
};
const first = await recogniseTimed(png);
console.log(
  `first page  A4 300 dpi PNG: ${seconds(first.wall)} (CPU ${seconds(first.cpu)}); ${wordsFound(lines.join(' '), first.text)} found`,
);
const rounds = Number(process.env.BENCH_OCR_ROUNDS ?? 2);
const measured = { png: [] as number[], pgm: [] as number[] };
const found = { png: '', pgm: '' };
for (let round = 0; round < rounds; round++) {
  for (const format of ['png', 'pgm'] as const) {
    const result = await recogniseTimed(format === 'png' ? png : pgm);
    measured[format].push(result.cpu);
    found[format] = wordsFound(lines.join(' '), result.text);
  }
}
await engine.close();
const cpuList = (values: number[]) => values.map((value) => seconds(value)).join(', ');
console.log(
  `image       A4 300 dpi PNG (an uploaded image): CPU ${cpuList(measured.png)} per page; ${found.png} found`,
);
console.log(
  `image       the same page as grey PGM (a rendered scan page): CPU ${cpuList(measured.pgm)} per page; ${found.pgm} found`,
);

// 2. A scanned PDF, read as the ingest reads it.
const document = await PDFDocument.create();
for (let index = 0; index < pdfPages; index++) {
  const image = await document.embedJpg(a4Page(proseLines(45, 100 + index), 'jpeg'));
  document.addPage([595.3, 841.9]).drawImage(image, { x: 0, y: 0, width: 595.3, height: 841.9 });
}
const pdf = await document.save();
const delay = monitorEventLoopDelay({ resolution: 10 });
delay.enable();
started = performance.now();
const pdfCpu = process.cpuUsage();
const extracted = await extractDocument(pdf, {
  name: 'scan.pdf',
  kind: 'pdf',
  workers: config.ingest.workers,
  limits: { ...config.ingest, timeoutMs: 3_600_000 },
  ocr,
});
const elapsed = performance.now() - started;
const cpuPerPage = cpuSince(pdfCpu) / pdfPages;
delay.disable();
console.log(
  `scanned pdf ${pdfPages} A4 pages (${(pdf.byteLength / 1024 / 1024).toFixed(1)} MB, JPEG): ${seconds(elapsed)}, ` +
    `${seconds(elapsed / pdfPages)} per page (render + OCR, ${config.ingest.workers} thread(s); ` +
    `CPU ${seconds(cpuPerPage)} per page, engine starts included); ` +
    `${extracted.blocks.length} blocks; main-thread delay max ${(delay.max / 1e6).toFixed(0)} ms`,
);

// 3. Real PDFs, rendered as if scanned.
const corpusPdf =
  process.env.BENCH_OCR_PDF ??
  (existsSync(corpusDirectory())
    ? readdirSync(corpusDirectory())
        .filter((name) => name.endsWith('.pdf'))
        .map((name) => path.join(corpusDirectory(), name))
        .sort()[0]
    : undefined);
if (corpusPdf) {
  const bytes = new Uint8Array(readFileSync(corpusPdf));
  const opened = await openPdf(bytes);
  const renderer = new PageRenderer(bytes, ocr.maxPixels);
  const corpusEngine = new OcrEngine(ocr, path.basename(corpusPdf));
  for (let number = 1; number <= Math.min(corpusPages, opened.numPages); number++) {
    const text = (await readPage(opened, number)).text.lines.map((line) => line.text).join(' ');
    const renderStarted = performance.now();
    const renderCpu = process.cpuUsage();
    const image = await renderer.render(number);
    const rendered = `${seconds(performance.now() - renderStarted)} (CPU ${seconds(cpuSince(renderCpu))})`;
    const ocrStarted = performance.now();
    const ocrCpu = process.cpuUsage();
    const result = await corpusEngine.recognise(image, number);
    console.log(
      `corpus      ${path.basename(corpusPdf)} page ${number}: render ${rendered}, OCR ` +
        `${seconds(performance.now() - ocrStarted)} (CPU ${seconds(cpuSince(ocrCpu))})` +
        `${number === 1 ? ' (engine start included)' : ''}; ` +
        `${wordsFound(text, result)} of its text layer found`,
    );
  }
  await corpusEngine.close();
  await renderer.close();
  await opened.destroy();
} else {
  console.log('corpus      skipped (no ../shared/corpus; set BENCH_CORPUS or BENCH_OCR_PDF)');
}
console.log(
  `peak RSS    ${(process.resourceUsage().maxRSS / 1024).toFixed(0)} MB (process, threads included)`,
);
