/**
 * `ragent ingest --force`, `ragent reindex` and the mixed-index warnings of `ragent docs list` and
 * `ragent doctor`, run in this process through the real program (real Ollama client, fake Ollama).
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type FakeOllama, startFakeOllama } from '../fakes/fake-ollama.ts';
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
});
