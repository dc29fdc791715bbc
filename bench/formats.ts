/**
 * npm run bench:formats — ingests one generated file of each format through the real ingestion service
 * (BM25 only: RAGENT_EMBEDDINGS=none, temporary data dir, default limits unless set in the environment)
 * and prints per format: seconds, MB/s of the file, its units per second (rows, slides, pages), the
 * main thread's event-loop delay (readers run in worker threads) and the peak RSS. Each format runs in a
 * child process of its own, so its peak RSS is its own. The target: a 100,000-row XLSX ingests in at
 * most 60 s with at most 1 GiB RSS. The CPU seconds of the process (all threads) are printed too: on a
 * machine shared with other work the wall time says more about the machine than about the reader.
 *
 * Other formats add a row to `cases` (name, how to make the file, its unit and count, a target if any);
 * BENCH_FORMATS=xlsx-100k,csv-100k runs only those.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { loadConfig } from '../src/config.ts';
import { sharedScope } from '../src/core/types.ts';
import { isRagentError } from '../src/errors.ts';
import { createIngestion } from '../src/ingest/ingestion-service.ts';
import { createLogger } from '../src/logger.ts';
import { openChunkIndex } from '../src/retrieval/open-chunk-index.ts';
import {
  docx,
  makeDocx,
  makeOpenDocument,
  makePptx,
  makeXlsx,
  odf,
  type Slide,
  type XlsxCell,
} from '../test/support/make-office.ts';

interface BenchCase {
  name: string;
  file: string;
  unit: 'rows' | 'slides' | 'pages' | 'paragraphs';
  count: number;
  make: () => Uint8Array | Promise<Uint8Array>;
  /** Printed next to the figures. */
  target?: { seconds: number; rssMiB: number };
}

const words = [
  'budget',
  'travel',
  'hardware',
  'licences',
  'training',
  'facilities',
  'catering',
  'consulting',
];
const word = (index: number) => words[index % words.length] as string;

function ledgerRows(rows: number): XlsxCell[][] {
  const ledger: XlsxCell[][] = [
    ['Cost centre', 'Category', 'Owner', 'Amount', 'Booked', 'Share', 'Total', 'Note'],
  ];
  for (let row = 1; row < rows; row++) {
    ledger.push([
      { number: 4000 + (row % 900) },
      word(row),
      `Owner ${row % 311}`,
      { number: (row * 37) % 100_000, style: 1 },
      { number: 45_000 + (row % 1000), style: 2 },
      { number: (row % 100) / 100, style: 3 },
      { formula: `D${row + 1}*2`, cached: ((row * 37) % 100_000) * 2, style: 1 },
      `Invoice ${row} for ${word(row + 3)}`,
    ]);
  }
  return ledger;
}

function csvText(rows: number): string {
  const lines = ['Cost centre,Category,Owner,Amount,Booked,Note'];
  for (let row = 1; row < rows; row++) {
    lines.push(
      `${4000 + (row % 900)},${word(row)},Owner ${row % 311},"${((row * 37) % 100_000).toLocaleString('en-US')}",2026-0${1 + (row % 9)}-1${row % 10},Invoice ${row}`,
    );
  }
  return `${lines.join('\n')}\n`;
}

const paragraph = (index: number) =>
  `Paragraph ${index} explains how the ${word(index)} process works for team ${index % 17}, ` +
  `who approves it and which ${word(index + 1)} rules apply before the end of the quarter.`;

export const cases: BenchCase[] = [
  {
    name: 'xlsx-100k',
    file: 'ledger.xlsx',
    unit: 'rows',
    count: 100_000,
    make: () => makeXlsx([{ name: 'Ledger', rows: ledgerRows(100_000) }]),
    target: { seconds: 60, rssMiB: 1024 },
  },
  {
    name: 'csv-100k',
    file: 'ledger.csv',
    unit: 'rows',
    count: 100_000,
    make: () => new TextEncoder().encode(csvText(100_000)),
  },
  {
    name: 'ods-20k',
    file: 'ledger.ods',
    unit: 'rows',
    count: 20_000,
    make: () =>
      makeOpenDocument(
        'spreadsheet',
        `<table:table table:name="Ledger">${Array.from({ length: 20_000 }, (_, row) =>
          odf.sheetRow(
            row === 0 ? ['Cost centre', 'Category', 'Amount'] : [`${4000 + row}`, word(row), `${row * 3}.00`],
          ),
        ).join('')}</table:table>`,
      ),
  },
  {
    name: 'docx-5k',
    file: 'handbook.docx',
    unit: 'paragraphs',
    count: 5_000,
    make: () =>
      makeDocx(
        Array.from({ length: 5_000 }, (_, index) =>
          index % 50 === 0
            ? docx.heading(1 + ((index / 50) % 2), `Chapter ${index / 50}`) + docx.paragraph(paragraph(index))
            : index % 200 === 7
              ? docx.table([
                  ['Item', 'Owner', 'Cost'],
                  ...Array.from({ length: 20 }, (_, row) => [`Item ${row}`, `Owner ${row}`, `${row * 10}`]),
                ])
              : docx.paragraph(paragraph(index)),
        ).join(''),
      ),
  },
  {
    name: 'odt-5k',
    file: 'handbook.odt',
    unit: 'paragraphs',
    count: 5_000,
    make: () =>
      makeOpenDocument(
        'text',
        Array.from({ length: 5_000 }, (_, index) =>
          index % 50 === 0 ? odf.heading(1, `Chapter ${index / 50}`) : odf.paragraph(paragraph(index)),
        ).join(''),
      ),
  },
  {
    name: 'pptx-500',
    file: 'deck.pptx',
    unit: 'slides',
    count: 500,
    make: () =>
      makePptx(
        Array.from(
          { length: 500 },
          (_, index): Slide => ({
            title: `Topic ${index}: ${word(index)}`,
            bullets: [paragraph(index), paragraph(index + 1), paragraph(index + 2)],
            notes: `Remember to mention ${word(index + 4)} for slide ${index + 1}.`,
            ...(index % 10 === 0
              ? {
                  table: [
                    ['Quarter', 'Spend'],
                    ['Q1', `${index}`],
                    ['Q2', `${index * 2}`],
                  ],
                }
              : {}),
          }),
        ),
      ),
  },
  {
    name: 'odp-500',
    file: 'deck.odp',
    unit: 'slides',
    count: 500,
    make: () =>
      makeOpenDocument(
        'presentation',
        Array.from({ length: 500 }, (_, index) =>
          odf.slide(
            `Topic ${index}`,
            odf.list([paragraph(index), paragraph(index + 1)]),
            `Notes for ${index}`,
          ),
        ).join(''),
      ),
  },
  {
    // Read in a reader worker like the Office formats: the event-loop delay shows the main thread free.
    name: 'html-2k',
    file: 'handbook.html',
    unit: 'paragraphs',
    count: 2_000,
    make: () =>
      new TextEncoder().encode(
        `<!doctype html><html><head><title>Handbook</title></head><body><nav>Home | About</nav><main><h1>Handbook</h1>${Array.from(
          { length: 2_000 },
          (_, index) =>
            `${index % 50 === 0 ? `<h2>Chapter ${index / 50}</h2>` : ''}<p>${paragraph(index)}</p>${
              index % 200 === 7
                ? `<table><tr><th>Item</th><th>Cost</th></tr><tr><td>${word(index)}</td><td>${index}</td></tr></table>`
                : ''
            }`,
        ).join('\n')}</main><footer>© Example</footer></body></html>`,
      ),
  },
];

async function runOne(benchCase: BenchCase): Promise<void> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'ragent-bench-formats-'));
  const { RAGENT_DATA_DIR: _ignored, ...environment } = process.env;
  const config = loadConfig(
    { ...environment, RAGENT_DATA_DIR: dataDir, RAGENT_EMBEDDINGS: 'none' },
    { envFile: false },
  );
  const logger = createLogger({ level: 'silent' });
  const index = await openChunkIndex(config, logger);
  const ingestion = createIngestion({ config, logger, index, embedder: undefined });
  try {
    const bytes = await benchCase.make();
    const delay = monitorEventLoopDelay({ resolution: 10 });
    delay.enable();
    const started = performance.now();
    const cpuBefore = process.cpuUsage();
    let outcome: string;
    try {
      const report = await ingestion.ingest({
        name: benchCase.file,
        bytes,
        scope: sharedScope,
        uploader: 'bench',
      });
      outcome = `${report.status}, ${report.document.children} children`;
    } catch (error) {
      if (!isRagentError(error)) throw error;
      outcome = `refused ${error.code}: ${error.message}`;
    }
    const seconds = (performance.now() - started) / 1000;
    // CPU of every thread of the process (the reader worker included): what the ingest costs whatever
    // else the machine runs; on an idle machine the wall time is about this, or less with idle cores.
    const cpu = process.cpuUsage(cpuBefore);
    const cpuSeconds = (cpu.user + cpu.system) / 1e6;
    delay.disable();
    const megabytes = bytes.byteLength / 1024 / 1024;
    const rssMiB = process.resourceUsage().maxRSS / 1024;
    const target = benchCase.target
      ? `  target ≤ ${benchCase.target.seconds} s and ≤ ${benchCase.target.rssMiB} MiB: ${
          seconds <= benchCase.target.seconds && rssMiB <= benchCase.target.rssMiB
            ? 'met'
            : cpuSeconds <= benchCase.target.seconds && rssMiB <= benchCase.target.rssMiB
              ? 'met in CPU time, not in wall time on this loaded machine'
              : 'NOT met'
        }`
      : '';
    console.log(
      `${benchCase.name.padEnd(10)} ${benchCase.file} ${(bytes.byteLength / 1024).toFixed(0)} kB, ${benchCase.count.toLocaleString('en-US')} ${benchCase.unit}: ${outcome}\n` +
        `           ${seconds.toFixed(1)} s (CPU ${cpuSeconds.toFixed(1)} s), ${(megabytes / seconds).toFixed(3)} MB/s ` +
        `(${(megabytes / cpuSeconds).toFixed(3)} per CPU second), ` +
        `${Math.round(benchCase.count / seconds).toLocaleString('en-US')} ${benchCase.unit}/s, ` +
        `event-loop delay max ${(delay.max / 1e6).toFixed(0)} ms, peak RSS ${rssMiB.toFixed(0)} MiB${target}`,
    );
  } finally {
    await index.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

const only = process.env.BENCH_FORMATS_CASE;
if (only) {
  const benchCase = cases.find((candidate) => candidate.name === only);
  if (!benchCase) throw new Error(`No bench case ${only}.`);
  await runOne(benchCase);
} else {
  const wanted = process.env.BENCH_FORMATS?.split(',');
  const script = fileURLToPath(import.meta.url);
  for (const benchCase of cases.filter((candidate) => !wanted || wanted.includes(candidate.name))) {
    // A child process per format: its peak RSS is that format's alone.
    const child = spawnSync(process.execPath, [...process.execArgv, script], {
      env: { ...process.env, BENCH_FORMATS_CASE: benchCase.name },
      stdio: 'inherit',
    });
    if (child.status !== 0) console.log(`${benchCase.name}: the bench process failed (exit ${child.status})`);
  }
  console.log(`load avg   ${loadavg()[0]?.toFixed(2)} (other work on this machine slows the figures down)`);
}
