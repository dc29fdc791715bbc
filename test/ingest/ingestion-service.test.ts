import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Config, loadConfig } from '../../src/config.ts';
import type { Ingestion, IngestProgress } from '../../src/core/types.ts';
import { type ErrorCode, isRagentError } from '../../src/errors.ts';
import { createIngestion } from '../../src/ingest/ingestion-service.ts';
import { createLogger } from '../../src/logger.ts';
import { createEmbedder } from '../../src/models/create-models.ts';
import { encodeSparseQuery } from '../../src/retrieval/bm25.ts';
import type { ChunkIndex } from '../../src/retrieval/chunk-index.ts';
import { openChunkIndex } from '../../src/retrieval/open-chunk-index.ts';
import { type FakeOllama, startFakeOllama } from '../fakes/fake-ollama.ts';
import { readFixture } from './fixtures.ts';

const logger = createLogger({ level: 'silent' });
const directories: string[] = [];

async function setUp(environment: Record<string, string> = {}) {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'ragent-ingest-test-'));
  directories.push(dataDir);
  const config = loadConfig(
    { RAGENT_DATA_DIR: dataDir, RAGENT_EMBEDDINGS: 'none', RAGENT_MAX_FILE_MB: '1', ...environment },
    { envFile: false },
  );
  const index = await openChunkIndex(config, logger);
  const ingestion = createIngestion({ config, logger, index, embedder: createEmbedder(config) });
  return { config, index, ingestion };
}

async function codeOf(promise: Promise<unknown>): Promise<ErrorCode | 'none'> {
  try {
    await promise;
    return 'none';
  } catch (error) {
    if (!isRagentError(error)) throw error;
    expect(error.message).not.toContain('\n');
    return error.code;
  }
}

async function search(index: ChunkIndex, text: string, scopes: string[]) {
  return index.search({ text, sparse: encodeSparseQuery(text) }, { scopes, k: 5 });
}

afterAll(() => {
  for (const directory of directories) rmSync(directory, { recursive: true, force: true });
});

describe('ingestion service (BM25 only, embedded SQLite index)', () => {
  let index: ChunkIndex;
  let ingestion: Ingestion;
  let config: Config;
  beforeAll(async () => {
    ({ index, ingestion, config } = await setUp());
  });
  afterAll(async () => {
    await index.close();
  });
  const request = (name: string, bytes: Uint8Array, scope = 'shared') => ({
    name,
    bytes,
    scope,
    uploader: 'test',
  });

  it('gives every kind of bad input its own code and a one-line reason', async () => {
    const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]);
    const tooLarge = new Uint8Array(config.ingest.maxFileBytes + 1);
    tooLarge.set(new TextEncoder().encode('%PDF-1.7\n'));
    const cases: Array<[string, Uint8Array, ErrorCode]> = [
      ['empty.pdf', new Uint8Array(0), 'FILE_EMPTY'],
      ['picture.pdf', png, 'FILE_UNSUPPORTED'],
      ['huge.pdf', tooLarge, 'FILE_TOO_LARGE'],
      ['encrypted.pdf', readFixture('encrypted.pdf'), 'PDF_ENCRYPTED'],
      ['corrupt.pdf', readFixture('corrupt.pdf'), 'PDF_CORRUPT'],
      ['blank.md', new TextEncoder().encode('\n\n  \n'), 'FILE_EMPTY'],
      ['words.pdf', new TextEncoder().encode('plain words named .pdf'), 'FILE_UNSUPPORTED'],
      ['binary.txt', new Uint8Array([0x68, 0x69, 0x00, 0xff]), 'FILE_UNSUPPORTED'],
    ];
    for (const [name, bytes, code] of cases) {
      expect([name, await codeOf(ingestion.ingest(request(name, bytes)))]).toEqual([name, code]);
    }
    expect(await ingestion.listDocuments(['shared'])).toEqual([]);
  });

  it('refuses a scan with PDF_NO_TEXT where OCR is switched off, naming the variable', async () => {
    const off = await setUp({ RAGENT_OCR: 'off' });
    try {
      const refusal = off.ingestion.ingest(request('scan.pdf', readFixture('scan.pdf')));
      await expect(refusal).rejects.toMatchObject({ code: 'PDF_NO_TEXT' });
      await expect(refusal).rejects.toThrow(/no text layer .*OCR is switched off here \(RAGENT_OCR=off\)/);
      expect(await off.ingestion.listDocuments(['shared'])).toEqual([]);
    } finally {
      await off.index.close();
    }
  });

  it('ingests a PDF (by its bytes, whatever its name), reports progress, and makes it searchable', async () => {
    const bytes = readFixture('manual.pdf');
    const progress: IngestProgress[] = [];
    const report = await ingestion.ingest(request('widget-manual.bin', bytes), (event) =>
      progress.push(event),
    );
    expect(report.status).toBe('ingested');
    expect(report.document).toMatchObject({
      name: 'widget-manual.bin',
      scope: 'shared',
      pages: 3,
      bytes: bytes.byteLength,
      uploader: 'test',
      embeddingModel: null,
    });
    expect(report.document.id).toMatch(/^[0-9a-f]{64}$/);
    expect(report.document.parents).toBeGreaterThan(0);
    expect(report.document.children).toBeGreaterThan(report.document.parents);
    const stages = [...new Set(progress.map((event) => event.stage))];
    expect(stages).toEqual(['reading', 'extracting', 'chunking', 'indexing', 'done']);
    expect(progress.filter((event) => event.stage === 'extracting').at(-1)).toMatchObject({
      done: 3,
      total: 3,
    });

    const hits = await search(index, 'flux capacitor misaligned', ['shared']);
    expect(hits[0]?.child.text).toContain('Error E42 means the flux capacitor is misaligned');
    expect(hits[0]?.child.sectionPath).toEqual(['Widget Manual', 'Troubleshooting', 'Error codes']);
    expect(hits[0]?.child.text.startsWith('Widget Manual › Troubleshooting › Error codes\n')).toBe(true);
    expect([hits[0]?.child.pageStart, hits[0]?.child.pageEnd]).toEqual([2, 2]);
    const parent = await index.getParent(hits[0]!.child.parentId, ['shared']);
    expect(parent?.text).toContain('## Troubleshooting');
    expect(await search(index, 'flux capacitor misaligned', ['slack:T1'])).toEqual([]);
  });

  it('is a no-op that says so when the same bytes come again', async () => {
    const before = await ingestion.listDocuments(['shared']);
    const report = await ingestion.ingest(request('another-name.pdf', readFixture('manual.pdf')));
    expect(report.status).toBe('unchanged');
    expect(report.document).toEqual(before.find((document) => document.id === report.document.id));
    expect(await ingestion.listDocuments(['shared'])).toEqual(before);
  });

  it('ingests the same bytes again with force, replacing the stored version', async () => {
    const before = await ingestion.listDocuments(['shared']);
    const original = before.find((document) => document.name === 'widget-manual.bin')!;
    const report = await ingestion.ingest({
      ...request('widget-manual.bin', readFixture('manual.pdf')),
      force: true,
    });
    expect(report).toMatchObject({ status: 'replaced', replacedDocumentId: original.id });
    expect(report.document.id).toBe(original.id);
    expect(report.document.ingestedAt >= original.ingestedAt).toBe(true);
    expect((await ingestion.listDocuments(['shared'])).map((document) => document.id)).toEqual(
      before.map((document) => document.id),
    );
    expect(await search(index, 'flux capacitor misaligned', ['shared'])).not.toEqual([]);
  });

  it('replaces the older version of a file with the same name, in the same scope only', async () => {
    const first = await ingestion.ingest(
      request('notes.md', text('# Notes\n\nThe first version mentions apricots.')),
    );
    const elsewhere = await ingestion.ingest(
      request('notes.md', text('# Notes\n\nThe first version mentions apricots.'), 'discord:G1'),
    );
    const second = await ingestion.ingest(
      request('notes.md', text('# Notes\n\nThe second version mentions plums.')),
    );
    expect(first.status).toBe('ingested');
    expect(elsewhere.status).toBe('ingested');
    expect(second.status).toBe('replaced');
    expect(second.replacedDocumentId).toBe(first.document.id);
    const names = (await ingestion.listDocuments(['shared'])).filter(
      (document) => document.name === 'notes.md',
    );
    expect(names.map((document) => document.id)).toEqual([second.document.id]);
    expect(await search(index, 'apricots', ['shared'])).toEqual([]);
    expect((await search(index, 'plums', ['shared']))[0]?.child.documentId).toBe(second.document.id);
    expect((await search(index, 'apricots', ['discord:G1']))[0]?.child.documentId).toBe(
      elsewhere.document.id,
    );
  });

  it('reads Markdown structure and plain text', async () => {
    const markdown = await ingestion.ingest(
      request(
        'guide.md',
        text('# Guide\n\n## Setup\n\nInstall the gizmo.\n\n```\ngizmo --init\n```\n\n- one\n- two\n'),
      ),
    );
    expect(markdown.document).toMatchObject({ pages: 1, parents: 1 });
    const parent = await index.getParent(`${markdown.document.id.slice(0, 12)}-p1`, ['shared']);
    expect(parent?.text).toBe(
      '# Guide\n\n## Setup\n\nInstall the gizmo.\n\n```\ngizmo --init\n```\n\n- one\n- two',
    );
    const plain = await ingestion.ingest(
      request('readme.txt', text('# not a heading\nline two\n\nSecond paragraph.')),
    );
    const plainParent = await index.getParent(`${plain.document.id.slice(0, 12)}-p1`, ['shared']);
    expect(plainParent?.text).toBe('# not a heading line two\n\nSecond paragraph.');
  });

  it('finds documents by id, unique id prefix or name, and removes them', async () => {
    const { document } = await ingestion.ingest(request('remove-me.txt', text('Ephemeral quokka text.')));
    expect(await ingestion.findDocument({ idOrName: document.id, scope: 'shared' })).toEqual(document);
    expect(await ingestion.findDocument({ idOrName: document.id.slice(0, 8), scope: 'shared' })).toEqual(
      document,
    );
    expect(await ingestion.findDocument({ idOrName: 'remove-me.txt', scope: 'shared' })).toEqual(document);
    expect(await codeOf(ingestion.findDocument({ idOrName: 'remove-me.txt', scope: 'slack:T1' }))).toBe(
      'DOCUMENT_NOT_FOUND',
    );
    expect(await ingestion.removeDocument({ idOrName: 'remove-me.txt', scope: 'shared' })).toEqual(document);
    expect(await search(index, 'quokka', ['shared'])).toEqual([]);
    expect(await codeOf(ingestion.removeDocument({ idOrName: 'remove-me.txt', scope: 'shared' }))).toBe(
      'DOCUMENT_NOT_FOUND',
    );
  });
});

describe('ingestion service with dense embeddings (real Ollama client, fake Ollama server)', () => {
  let fake: FakeOllama;
  beforeAll(async () => {
    fake = await startFakeOllama({ embedDimension: 16 });
  });
  afterAll(async () => {
    await fake.close();
  });

  it('embeds every child in batches and records the model', async () => {
    const { index, ingestion } = await setUp({
      RAGENT_EMBEDDINGS: 'ollama',
      OLLAMA_BASE_URL: fake.url,
      RAGENT_EMBED_BATCH: '4',
    });
    try {
      const progress: IngestProgress[] = [];
      const report = await ingestion.ingest(
        { name: 'manual.pdf', bytes: readFixture('manual.pdf'), scope: 'shared', uploader: 'test' },
        (event) => progress.push(event),
      );
      expect(report.document.embeddingModel).toBe('qwen3-embedding:0.6b');
      // One probe (before extracting, to fail fast), then every child.
      const embedded = fake.embedRequests().flatMap((request) => request.input);
      expect(embedded).toHaveLength(report.document.children + 1);
      expect(embedded[0]).toBe('manual.pdf');
      expect(fake.embedRequests().every((request) => (request.input as string[]).length <= 4)).toBe(true);
      expect(progress.some((event) => event.stage === 'embedding')).toBe(true);
    } finally {
      await index.close();
    }
  });

  it('fails cleanly, writing nothing, when the embedder fails', async () => {
    const { index, ingestion } = await setUp({ RAGENT_EMBEDDINGS: 'ollama', OLLAMA_BASE_URL: fake.url });
    try {
      fake.failAlways('http-500');
      const code = await codeOf(
        ingestion.ingest({
          name: 'manual.pdf',
          bytes: readFixture('manual.pdf'),
          scope: 'shared',
          uploader: 'test',
        }),
      );
      expect(code).not.toBe('none');
      expect(await ingestion.listDocuments(['shared'])).toEqual([]);
    } finally {
      fake.failAlways(undefined);
      await index.close();
    }
  });
});

function text(value: string): Uint8Array {
  return new TextEncoder().encode(value);
}
