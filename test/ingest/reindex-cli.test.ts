/**
 * `ragent ingest --force`, `ragent reindex` and the mixed-index and older-weights warnings of
 * `ragent docs list`, `ragent doctor` and the ingest summary, run in this process through the real
 * program (real Ollama and Qdrant clients, fake Ollama and Qdrant), on the embedded index and on Qdrant.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type FakeOllama, startFakeOllama } from '../fakes/fake-ollama.ts';
import { startFakeQdrant } from '../fakes/fake-qdrant.ts';
import { runCli } from '../support/run-cli.ts';

let workDir: string;
let ollama: FakeOllama;
beforeAll(async () => {
  workDir = await mkdtemp(path.join(tmpdir(), 'ragent-reindex-cli-'));
  ollama = await startFakeOllama({ embedDimension: 16 });
  await writeFile(
    path.join(workDir, 'pumps.md'),
    '# Pumps\n\nThe pump primes itself when the inlet valve is open.\n\n## Seals\n\nReplace the seal yearly.\n',
  );
  await writeFile(
    path.join(workDir, 'valves.md'),
    '# Valves\n\nA check valve lets water flow one way.\n\n## Springs\n\nOil the spring monthly.\n',
  );
});
afterAll(async () => {
  await ollama.close();
  await rm(workDir, { recursive: true, force: true });
});
afterEach(() => {
  process.exitCode = undefined;
});

async function run(args: string[], environment: Record<string, string> = {}) {
  const { code, text, thrown } = await runCli(args, {
    RAGENT_DATA_DIR: path.join(workDir, 'data'),
    OLLAMA_BASE_URL: ollama.url,
    RAGENT_EMBEDDINGS: 'ollama',
    ...environment,
  });
  if (thrown) throw thrown;
  return { code, text };
}

describe('re-indexing from the CLI', () => {
  it('warns about a mixed index until `ragent reindex` embeds the BM25-only documents', async () => {
    const file = path.join(workDir, 'pumps.md');
    const bm25 = await run(['ingest', file], { RAGENT_EMBEDDINGS: 'none' });
    expect(bm25.text).toContain('✓ pumps.md: ingested');

    // Embeddings turned on: the same bytes are "unchanged", and the listing says the index is mixed.
    expect((await run(['ingest', file])).text).toContain('= pumps.md: unchanged');
    const listed = await run(['docs', 'list']);
    expect(listed.text).toContain('bm25 only');
    expect(listed.text).toMatch(
      /! 1 of 1 documents are not indexed with qwen3-embedding:0\.6b .*ragent reindex/,
    );
    const doctor = await run(['doctor']);
    expect(doctor.text).toMatch(/Index embeddings.*1 of 1 documents/);

    const reindexed = await run(['reindex']);
    expect(reindexed.code).toBe(0);
    expect(reindexed.text).toContain('Re-indexed 1 document with embeddings of qwen3-embedding:0.6b.');
    const after = await run(['docs', 'list']);
    expect(after.text).toContain('qwen3-embedding:0.6b');
    expect(after.text).not.toContain('!');

    // --force ingests the same bytes again and replaces the stored version.
    const forced = await run(['ingest', '--force', file]);
    expect(forced.text).toMatch(/✓ pumps\.md: replaced (\w{12}) → \1/);
    expect((await run(['docs', 'list'])).text).toContain('1 document in shared.');
  });

  it('re-indexes one document by name, and says when a name is unknown', async () => {
    const one = await run(['reindex', 'pumps.md', '--scope', 'shared']);
    expect(one.text).toContain('Re-indexed 1 document');
    await expect(run(['reindex', 'nothing.pdf'])).rejects.toMatchObject({ code: 'DOCUMENT_NOT_FOUND' });
  });

  it('flags documents indexed with older ranking weights until they are indexed again', async () => {
    const dataDir = path.join(workDir, 'older-weights');
    const bm25 = { RAGENT_DATA_DIR: dataDir, RAGENT_EMBEDDINGS: 'none' };
    const files = ['pumps.md', 'valves.md'].map((name) => path.join(workDir, name));
    expect((await run(['ingest', ...files], bm25)).code).toBe(0);
    // As an index written before the upgrade: no ranking weights' version on its documents.
    const raw = new Database(path.join(dataDir, 'index.sqlite'));
    raw.exec('UPDATE documents SET sparse_weights_version = NULL');
    raw.close();

    const older = (count: number) =>
      `${count} of 2 documents were indexed with the ranking weights of an older ragent, so searches rank ` +
      'them a little differently from the rest. Run `ragent reindex` to compute their weights again from ' +
      'the stored text.';
    expect((await run(['docs', 'list'], bm25)).text).toContain(`! ${older(2)}`);
    expect((await run(['doctor'], bm25)).text).toMatch(/Index ranking weights.*2 of 2 documents/);

    // Ingesting an unchanged file with older weights indexes it again; the summary names the rest.
    const ingested = await run(['ingest', files[1]!], bm25);
    expect(ingested.text).toMatch(
      /✓ valves\.md: re-indexed \w{12} \(it had the ranking weights of an older ragent\)/,
    );
    expect(ingested.text).toContain(`! ${older(1)}`);

    const reindexed = await run(['reindex'], bm25);
    expect(reindexed.code).toBe(0);
    expect((await run(['docs', 'list'], bm25)).text).not.toContain('!');
    expect((await run(['doctor'], bm25)).text).toMatch(
      /Index ranking weights.*2 documents, all with the current BM25 weights/,
    );
    expect((await run(['ingest', files[0]!], bm25)).text).toContain('= pumps.md: unchanged');
  });
});

describe('re-indexing from the CLI on Qdrant', () => {
  it('embeds BM25-only documents and current weights from the text Qdrant stores, and the warnings clear', async () => {
    const qdrant = await startFakeQdrant();
    try {
      const onQdrant = { RAGENT_DATA_DIR: path.join(workDir, 'on-qdrant'), QDRANT_URL: qdrant.url };
      const [pumps, valves] = ['pumps.md', 'valves.md'].map((name) => path.join(workDir, name));
      // The first ingest (embedded) creates the collection with dense vectors; the second is BM25 only.
      expect((await run(['ingest', pumps!], onQdrant)).code).toBe(0);
      expect((await run(['ingest', valves!], { ...onQdrant, RAGENT_EMBEDDINGS: 'none' })).code).toBe(0);
      // As a document written before the upgrade: no ranking weights' version on its point.
      for (const point of qdrant.collection('ragent')!.points.values()) {
        if (point.payload.kind === 'document' && point.payload.name === 'pumps.md') {
          delete point.payload.sparse_weights_version;
        }
      }

      const listed = (await run(['docs', 'list'], onQdrant)).text;
      expect(listed).toMatch(
        /! 1 of 2 documents are not indexed with qwen3-embedding:0\.6b \(1 with no embeddings \(BM25 only\)\).*ragent reindex/,
      );
      expect(listed).toContain('! 1 of 2 documents were indexed with the ranking weights of an older ragent');
      expect(listed).toContain('Run `ragent reindex` to compute their weights again from the stored text.');
      const doctor = (await run(['doctor'], onQdrant)).text;
      expect(doctor).toMatch(/Index embeddings.*1 of 2 documents/);
      expect(doctor).toMatch(/Index ranking weights.*1 of 2 documents/);
      expect(doctor).toMatch(/Index size.*Qdrant \(QDRANT_URL\) holds the index/);

      const reindexed = await run(['reindex'], onQdrant);
      expect(reindexed.code).toBe(0);
      expect(reindexed.text).toContain('Re-indexed 2 documents with embeddings of qwen3-embedding:0.6b.');
      const after = (await run(['docs', 'list'], onQdrant)).text;
      expect(after).not.toContain('!');
      expect(after).not.toContain('bm25 only');
      const healthy = (await run(['doctor'], onQdrant)).text;
      expect(healthy).toMatch(/Index embeddings.*2 documents, all embedded with qwen3-embedding:0\.6b/);
      expect(healthy).toMatch(/Index ranking weights.*2 documents, all with the current BM25 weights/);
      expect(qdrant.violations).toEqual([]);
    } finally {
      await qdrant.close();
    }
  });
});
