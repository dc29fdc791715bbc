/**
 * OCR end to end, on images and PDFs made in the test: text drawn with @napi-rs/canvas is read back
 * through the ingestion service (detected by its bytes, recognised, chunked, searchable, cited by
 * page). OCR takes a second or more per image, so the images are small and few.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.ts';
import type { Ingestion } from '../../src/core/types.ts';
import { checkOcr } from '../../src/doctor/check-ocr.ts';
import { extractDocument } from '../../src/ingest/extract-document.ts';
import { createIngestion } from '../../src/ingest/ingestion-service.ts';
import { readGreyscalePgm } from '../../src/ingest/ocr/greyscale-image.ts';
import { languageFile } from '../../src/ingest/ocr/language-data.ts';
import { OcrEngine } from '../../src/ingest/ocr/ocr-engine.ts';
import { defaultOcrSettings } from '../../src/ingest/ocr/ocr-settings.ts';
import { PageRenderer } from '../../src/ingest/ocr/render-page.ts';
import { extractPages } from '../../src/ingest/pdf/extract-pages.ts';
import { createLogger } from '../../src/logger.ts';
import { encodeSparseQuery } from '../../src/retrieval/bm25.ts';
import type { ChunkIndex } from '../../src/retrieval/chunk-index.ts';
import { openChunkIndex } from '../../src/retrieval/open-chunk-index.ts';
import { readFixture } from './fixtures.ts';
import { makePdf, pixelBombPng, textJpeg, textPng, textTiff } from './ocr-fixtures.ts';

const logger = createLogger({ level: 'silent' });
const directories: string[] = [];
const indexes: ChunkIndex[] = [];

async function setUp(environment: Record<string, string> = {}) {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'ragent-ocr-test-'));
  directories.push(dataDir);
  const config = loadConfig(
    { RAGENT_DATA_DIR: dataDir, RAGENT_EMBEDDINGS: 'none', ...environment },
    { envFile: false },
  );
  const index = await openChunkIndex(config, logger);
  indexes.push(index);
  return { config, index, ingestion: createIngestion({ config, logger, index, embedder: undefined }) };
}

const request = (name: string, bytes: Uint8Array) => ({ name, bytes, scope: 'shared', uploader: 'test' });

async function hitsFor(index: ChunkIndex, text: string) {
  const hits = await index.search({ text, sparse: encodeSparseQuery(text) }, { scopes: ['shared'], k: 5 });
  return hits.map(({ child }) => ({
    document: child.documentName,
    pages: [child.pageStart, child.pageEnd],
    text: child.text.toLowerCase(),
  }));
}

afterAll(async () => {
  for (const index of indexes) await index.close();
  for (const directory of directories) rmSync(directory, { recursive: true, force: true });
});

/** OCR takes seconds per image, many more on a machine busy with other work: a generous guard. */
const ocrTimeout = { timeout: 240_000 };

describe('OCR (on by default)', ocrTimeout, () => {
  let index: ChunkIndex;
  let ingestion: Ingestion;
  beforeAll(async () => {
    ({ index, ingestion } = await setUp());
  });

  it('reads the text of PNG, JPEG and TIFF images, each cited as page 1, whatever the file is called', async () => {
    const images: Array<[string, Uint8Array, string]> = [
      [
        'invoice.png',
        textPng({ lines: ['The quarterly invoice lists', 'seventeen turbine blades.'] }),
        'turbine',
      ],
      ['receipt', textJpeg({ lines: ['Harbour office receipt', 'for mooring fees.'] }), 'mooring'],
      ['fax.tif', textTiff({ lines: ['Fax cover sheet about', 'the lighthouse repairs.'] }), 'lighthouse'],
    ];
    for (const [name, bytes, word] of images) {
      const report = await ingestion.ingest(request(name, bytes));
      expect([name, report.status, report.document.pages]).toEqual([name, 'ingested', 1]);
      const [hit] = await hitsFor(index, word);
      expect(hit).toMatchObject({ document: name, pages: [1, 1] });
      expect(hit?.text).toContain(word);
    }
    expect((await hitsFor(index, 'seventeen turbine blades'))[0]?.text).toContain(
      'the quarterly invoice lists seventeen turbine blades',
    );
  });

  it('reads English with the shipped fast model by default, and with the package model when asked', async () => {
    expect(languageFile('eng', 'fast')).toMatch(/ocr-models\/tessdata-fast\/eng\.traineddata\.gz$/);
    expect(languageFile('eng', 'best')).toMatch(
      /@tesseract\.js-data\/eng\/4\.0\.0_best_int\/eng\.traineddata\.gz$/,
    );
    // A language ragent ships no fast model for comes from its package either way.
    expect(() => languageFile('zzz', 'fast')).toThrow(/@tesseract\.js-data\/zzz/);
    const page = textPng({ lines: ['The harbour crane lifts', 'forty containers an hour.'] });
    for (const model of ['fast', 'best'] as const) {
      const engine = new OcrEngine({ ...defaultOcrSettings, model }, 'crane.png');
      try {
        expect((await engine.recognise(page)).toLowerCase()).toContain('forty containers an hour');
      } finally {
        await engine.close();
      }
    }
  });

  it('reads the scanned pages of a PDF by OCR and its text pages as text, each cited by its page', async () => {
    const pdf = await makePdf([
      { text: ['Chapter one covers the warranty of the pump.'] },
      { scan: textPng({ lines: ['The valve schedule is', 'checked every autumn.'] }) },
      { text: ['Chapter three lists the spare gaskets.'] },
    ]);
    const { pageCount, blocks } = await extractDocument(pdf, {
      name: 'mixed.pdf',
      kind: 'pdf',
      workers: 2,
      ocr: defaultOcrSettings,
    });
    expect(pageCount).toBe(3);
    expect(blocks.map(({ text, pageStart, pageEnd }) => [text.toLowerCase(), pageStart, pageEnd])).toEqual([
      ['chapter one covers the warranty of the pump.', 1, 1],
      ['the valve schedule is checked every autumn.', 2, 2],
      ['chapter three lists the spare gaskets.', 3, 3],
    ]);
  });

  it('reads a small scan on two threads once its first page turns out scanned, every page in order', async () => {
    const lines = [
      ['The pump is serviced', 'in spring.'],
      ['The filter is changed', 'in summer.'],
      ['The valve is checked', 'in autumn.'],
    ];
    const scan = await makePdf(lines.map((page) => ({ scan: textPng({ lines: page }) })));
    const text = await makePdf([{ text: ['A page with a text layer.'] }, { text: ['Another one.'] }]);
    expect(scan.byteLength).toBeLessThan(1024 * 1024);
    const read = async (bytes: Uint8Array, workers: number) => {
      const extracted = await extractPages(bytes, { name: 'small.pdf', workers, ocr: defaultOcrSettings });
      const pages: string[] = [];
      for await (const page of extracted.pages) {
        pages.push(
          (page.recognised ?? page.lines.map((line) => line.text).join(' '))
            .replace(/\s+/g, ' ')
            .trim()
            .toLowerCase(),
        );
      }
      return { pages, threads: extracted.readerThreads() };
    };
    // Under 1 MiB, a file starts with one thread; the scan's first page brings in the second one.
    expect(await read(scan, 2)).toEqual({
      pages: lines.map((page) => page.join(' ').toLowerCase()),
      threads: 2,
    });
    expect((await read(scan, 1)).threads).toBe(1);
    expect(await read(text, 2)).toEqual({ pages: ['a page with a text layer.', 'another one.'], threads: 1 });
  });

  it('refuses an image whose header declares too many pixels before decoding it, naming the variable', async () => {
    const bomb = pixelBombPng(100_000, 100_000);
    expect(bomb.byteLength).toBeLessThan(1_024);
    const refusal = ingestion.ingest(request('bomb.png', bomb));
    await expect(refusal).rejects.toMatchObject({ code: 'IMAGE_TOO_LARGE' });
    await expect(refusal).rejects.toThrow(/100,000 × 100,000 pixels .*RAGENT_OCR_MAX_MEGAPIXELS/);
    expect((await ingestion.listDocuments(['shared'])).map((document) => document.name)).not.toContain(
      'bomb.png',
    );
  });

  it('tells an image named .pdf what it is, and a damaged image that it is damaged', async () => {
    const png = textPng({ lines: ['Renamed'] });
    await expect(ingestion.ingest(request('report.pdf', png))).rejects.toMatchObject({
      code: 'FILE_UNSUPPORTED',
      message: expect.stringContaining('report.pdf is named .pdf but is a PNG image. Rename it to .png'),
    });
    await expect(ingestion.ingest(request('cut.png', png.subarray(0, 12)))).rejects.toMatchObject({
      code: 'IMAGE_CORRUPT',
    });
  });

  it('refuses a scanned page that takes longer than the OCR page limit, naming the page and the variable', async () => {
    const pdf = await makePdf([{ text: ['A text page.'] }, { scan: textPng({ lines: ['Slow page'] }) }]);
    const reading = extractDocument(pdf, {
      name: 'slow.pdf',
      kind: 'pdf',
      workers: 1,
      // Shorter than any engine takes to start: the limit is crossed on every machine.
      ocr: { ...defaultOcrSettings, pageTimeoutMs: 1 },
    });
    await expect(reading).rejects.toMatchObject({ code: 'OCR_PAGE_TIMEOUT' });
    await expect(reading).rejects.toThrow(/page 2 of slow\.pdf took longer than .*RAGENT_OCR_PAGE_SECONDS/);
  });

  it('refuses a small scan whose page runs past the limit while a second thread joins, and reads the next file', async () => {
    const pages = ['First slow page', 'Second slow page', 'Third slow page'];
    const pdf = await makePdf(pages.map((line) => ({ scan: textPng({ lines: [line] }) })));
    const reading = extractPages(pdf, {
      name: 'small-slow.pdf',
      workers: 2,
      ocr: { ...defaultOcrSettings, pageTimeoutMs: 1 },
    }).then(async ({ pages: stream }) => {
      for await (const _ of stream);
    });
    await expect(reading).rejects.toMatchObject({ code: 'OCR_PAGE_TIMEOUT' });
    await expect(reading).rejects.toThrow(/page \d of small-slow\.pdf took longer than/);
    // Every thread of the refused file was ended: the next file is read as usual.
    const next = await extractDocument(await makePdf([{ text: ['After the refusal.'] }]), {
      name: 'next.pdf',
      kind: 'pdf',
      workers: 2,
      ocr: defaultOcrSettings,
    });
    expect(next.blocks.map((block) => block.text)).toEqual(['After the refusal.']);
  });
});

describe('OCR settings', ocrTimeout, () => {
  it('with OCR off, refuses images (OCR_OFF) and scans (PDF_NO_TEXT), saying so', async () => {
    const { ingestion } = await setUp({ RAGENT_OCR: 'off' });
    await expect(ingestion.ingest(request('note.png', textPng({ lines: ['A note'] })))).rejects.toMatchObject(
      {
        code: 'OCR_OFF',
        message: expect.stringContaining('RAGENT_OCR=off'),
      },
    );
    const scan = await makePdf([{ scan: textPng({ lines: ['A scanned note'] }) }]);
    await expect(ingestion.ingest(request('scan.pdf', scan))).rejects.toMatchObject({
      code: 'PDF_NO_TEXT',
      message: expect.stringContaining('OCR is switched off here (RAGENT_OCR=off)'),
    });
    expect(await ingestion.listDocuments(['shared'])).toEqual([]);
  });

  it('reads the OCR variables: on by default, languages joined by + or comma, no paths', () => {
    const read = (environment: Record<string, string>) => loadConfig(environment, { envFile: false }).ocr;
    expect(read({})).toEqual({
      enabled: true,
      languages: ['eng'],
      model: 'fast',
      pageTimeoutMs: 60_000,
      maxPixels: 50_000_000,
    });
    expect(read({ RAGENT_OCR_MODEL: 'BEST' }).model).toBe('best');
    expect(() => read({ RAGENT_OCR_MODEL: 'tiny' })).toThrow(/RAGENT_OCR_MODEL/);
    expect(
      read({ RAGENT_OCR: 'off', RAGENT_OCR_LANGS: 'ENG, deu+eng', RAGENT_OCR_PAGE_SECONDS: '5' }),
    ).toMatchObject({ enabled: false, languages: ['eng', 'deu'], pageTimeoutMs: 5_000 });
    // A code becomes part of a package name: nothing but letters and underscores.
    expect(() => read({ RAGENT_OCR_LANGS: '../../etc/eng' })).toThrow(/RAGENT_OCR_LANGS/);
  });

  it('has the doctor check that every OCR language has its package, without starting the engine', () => {
    const check = (environment: Record<string, string>) =>
      checkOcr(loadConfig(environment, { envFile: false }));
    expect(check({})).toEqual({ title: 'OCR', status: 'pass', detail: 'eng, offline' });
    expect(check({ RAGENT_OCR: 'off' })).toMatchObject({ status: 'skip' });
    expect(check({ RAGENT_OCR_LANGS: 'eng+zzz' })).toMatchObject({
      status: 'fail',
      detail: expect.stringContaining('needs the npm package @tesseract.js-data/zzz'),
    });
  });

  it('names the package a language of RAGENT_OCR_LANGS needs when it is not installed', async () => {
    const { ingestion, config } = await setUp({ RAGENT_OCR_LANGS: 'eng+zzz' });
    expect(config.ocr.languages).toEqual(['eng', 'zzz']);
    const message = 'OCR language "zzz" (RAGENT_OCR_LANGS) needs the npm package @tesseract.js-data/zzz';
    await expect(ingestion.ingest(request('note.png', textPng({ lines: ['A note'] })))).rejects.toMatchObject(
      {
        code: 'OCR_LANGUAGE_MISSING',
        message: expect.stringContaining(message),
      },
    );
    const scan = await makePdf([{ scan: textPng({ lines: ['A scanned note'] }) }]);
    await expect(ingestion.ingest(request('scan.pdf', scan))).rejects.toMatchObject({
      code: 'OCR_LANGUAGE_MISSING',
      message: expect.stringContaining(message),
    });
  });

  it('stops reading an image when the ingest is cancelled, without waiting for the engine', async () => {
    const controller = new AbortController();
    const reading = extractDocument(textPng({ lines: ['Cancelled'] }), {
      name: 'cancelled.png',
      kind: 'image',
      workers: 1,
      // Ten minutes: only the abort can end this reading within the test's time.
      ocr: { ...defaultOcrSettings, pageTimeoutMs: 600_000 },
      signal: controller.signal,
    });
    controller.abort();
    await expect(reading).rejects.toMatchObject({ code: 'INGEST_CANCELLED' });
  });

  it('renders text set in fonts as a greyscale image, within the pixel limit (Node 20 lacks a method pdf.js draws glyphs with)', async () => {
    const renderer = new PageRenderer(readFixture('asy-latex.pdf'), 1_000_000);
    try {
      const { width, height, pixels } = readGreyscalePgm(await renderer.render(1));
      expect(width * height).toBeLessThanOrEqual(1_000_000);
      expect(width * height).toBeGreaterThan(900_000);
      expect(pixels.byteLength).toBe(width * height);
      let dark = 0;
      for (const level of pixels) if (level < 128) dark++;
      // The page is text only (its one drawing is a rule): dark pixels are glyphs, and most of it is white.
      expect(dark).toBeGreaterThan(1_000);
      expect(dark).toBeLessThan((width * height) / 4);
    } finally {
      await renderer.close();
    }
  });

  it('refuses a scan on which OCR finds no text with PDF_NO_TEXT, saying OCR found none', async () => {
    const blank = await makePdf([{ scan: textPng({ lines: [] }) }]);
    await expect(
      extractDocument(blank, { name: 'blank.pdf', kind: 'pdf', workers: 1, ocr: defaultOcrSettings }),
    ).rejects.toMatchObject({
      code: 'PDF_NO_TEXT',
      message: expect.stringContaining('OCR found no text on its pages (read as eng)'),
    });
  });
});
