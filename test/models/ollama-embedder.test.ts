import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.ts';
import { RagentError } from '../../src/errors.ts';
import { createEmbedder } from '../../src/models/create-models.ts';
import { OllamaEmbedder } from '../../src/models/ollama-embedder.ts';
import { type FakeOllama, startFakeOllama } from '../fakes/fake-ollama.ts';
import { freePort } from '../support/free-port.ts';

const model = 'qwen3-embedding:0.6b';

describe('Ollama embedder (real @langchain/ollama against the fake server)', () => {
  let fake: FakeOllama | undefined;
  afterEach(async () => {
    await fake?.close();
    fake = undefined;
  });
  const embedder = (url: string, extra: Partial<ConstructorParameters<typeof OllamaEmbedder>[0]> = {}) =>
    new OllamaEmbedder({ baseUrl: url, model, batchSize: 3, timeoutMs: 2000, backoffMs: 1, ...extra });

  it('batches by the configured size and returns unit vectors in order', async () => {
    fake = await startFakeOllama({ embedDimension: 16 });
    const texts = ['one', 'two', 'three', 'four', 'five', 'one'];
    const vectors = await embedder(fake.url).embed(texts);
    expect(vectors).toHaveLength(6);
    expect(fake.embedRequests().map((request) => request.input)).toEqual([
      ['one', 'two', 'three'],
      ['four', 'five', 'one'],
    ]);
    expect(vectors[0]).toBeInstanceOf(Float32Array);
    expect(vectors[0]).toHaveLength(16);
    const norm = Math.hypot(...vectors[1]!);
    expect(norm).toBeCloseTo(1, 5);
    expect(vectors[5]).toEqual(vectors[0]);
    expect(vectors[0]).not.toEqual(vectors[1]);
  });

  it('is absent when RAGENT_EMBEDDINGS=none and uses the configured model otherwise', () => {
    expect(createEmbedder(loadConfig({ RAGENT_EMBEDDINGS: 'none' }, { envFile: false }))).toBeUndefined();
    const created = createEmbedder(
      loadConfig({ OLLAMA_EMBED_MODEL: 'nomic-embed-text' }, { envFile: false }),
    );
    expect(created?.model).toBe('nomic-embed-text');
  });

  it('retries transient failures with backoff', async () => {
    fake = await startFakeOllama({ embedDimension: 8 });
    fake.failNext('http-500', 1, '/api/embed');
    fake.failNext('disconnect', 1, '/api/embed');
    const vectors = await embedder(fake.url).embed(['retry me']);
    expect(vectors).toHaveLength(1);
    expect(fake.embedRequests()).toHaveLength(3);
  });

  it('gives up after bounded attempts with OLLAMA_FAILED', async () => {
    fake = await startFakeOllama({ embedDimension: 8 });
    fake.failAlways('malformed');
    const error = await embedder(fake.url, { attempts: 2 })
      .embed(['x'])
      .catch((caught) => caught);
    expect(error).toBeInstanceOf(RagentError);
    expect(error.code).toBe('OLLAMA_FAILED');
    expect(fake.embedRequests()).toHaveLength(2);
  });

  it('reports a missing model with the pull command, without retrying', async () => {
    fake = await startFakeOllama({ models: ['granite4.1:8b'] });
    const error = await embedder(fake.url)
      .embed(['x'])
      .catch((caught) => caught);
    expect(error.code).toBe('OLLAMA_MODEL_MISSING');
    expect(error.message).toContain(`ollama pull ${model}`);
    expect(fake.embedRequests()).toHaveLength(1);
  });

  it('reports an unreachable server with how to start it', async () => {
    const url = `http://127.0.0.1:${await freePort()}`;
    const error = await embedder(url)
      .embed(['x'])
      .catch((caught) => caught);
    expect(error.code).toBe('OLLAMA_UNREACHABLE');
    expect(error.message).not.toContain(url);
    expect(error.message).toContain('OLLAMA_BASE_URL');
    expect(error.message).toContain('ollama serve');
    expect(error.details).toMatchObject({ service: 'ollama', failure: 'unreachable', url });
  });

  it('times out a silent server', async () => {
    fake = await startFakeOllama();
    fake.failAlways('timeout');
    const error = await embedder(fake.url, { timeoutMs: 100, attempts: 2 })
      .embed(['x'])
      .catch((caught) => caught);
    expect(error.code).toBe('OLLAMA_FAILED');
    expect(error.message).toMatch(/did not answer/);
    fake.failAlways(undefined);
  });
});
