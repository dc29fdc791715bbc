import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.ts';
import { createEmbedder } from '../../src/models/create-models.ts';
import { OpenAiEmbedder } from '../../src/models/openai-embedder.ts';
import { type FakeOpenAi, startFakeOpenAi } from '../fakes/fake-openai.ts';

describe('OpenAI-compatible embedder (real @langchain/openai against the fake server)', () => {
  let fake: FakeOpenAi | undefined;
  afterEach(async () => {
    await fake?.close();
    fake = undefined;
  });
  const embedder = (server: FakeOpenAi, environment: Record<string, string> = {}, attempts = 3) =>
    new OpenAiEmbedder({
      config: loadConfig(
        {
          OPENAI_BASE_URL: server.root,
          RAGENT_EMBEDDINGS: 'openai',
          OPENAI_EMBED_MODEL: 'fake-embed',
          ...environment,
        },
        { envFile: false },
      ),
      model: environment.OPENAI_EMBED_MODEL ?? 'fake-embed',
      batchSize: 2,
      timeoutMs: 2_000,
      attempts,
      backoffMs: 1,
    });

  it('is what RAGENT_EMBEDDINGS=openai picks, while the chat model may stay on Ollama', () => {
    const config = loadConfig(
      { RAGENT_EMBEDDINGS: 'openai', OPENAI_EMBED_MODEL: 'text-embedding-3-small' },
      { envFile: false },
    );
    expect(config.llmProvider).toBe('ollama');
    const created = createEmbedder(config);
    expect(created).toBeInstanceOf(OpenAiEmbedder);
    expect(created?.model).toBe('text-embedding-3-small');
  });

  it('batches through /v1/embeddings as floats, with the key, and returns unit vectors in order', async () => {
    fake = await startFakeOpenAi({ embedDimension: 16, apiKey: 'sk-embed-key' });
    const texts = ['one', 'two', 'three'];
    const vectors = await embedder(fake, { OPENAI_API_KEY: 'sk-embed-key' }).embed(texts);
    expect(vectors).toHaveLength(3);
    expect(vectors[0]).toHaveLength(16);
    expect(Math.hypot(...vectors[2]!)).toBeCloseTo(1, 5);
    expect(fake.embedRequests().map((request) => [request.input, request.encoding_format])).toEqual([
      [['one', 'two'], 'float'],
      [['three'], 'float'],
    ]);
  });

  it('retries 429 and 500, then fails with its own code and no address in the message', async () => {
    fake = await startFakeOpenAi({ embedDimension: 8 });
    fake.failNext('rate-limit', 1, '/v1/embeddings');
    fake.failNext('http-500', 1, '/v1/embeddings');
    expect(await embedder(fake).embed(['retry me'])).toHaveLength(1);
    expect(fake.embedRequests()).toHaveLength(3);

    fake.failAlways('http-500');
    const error = await embedder(fake, {}, 2)
      .embed(['x'])
      .catch((caught: unknown) => caught);
    expect(error).toMatchObject({
      code: 'OPENAI_FAILED',
      details: { service: 'openai', status: 500, attempts: 2 },
    });
    expect((error as Error).message).not.toContain(fake.root);
  });

  it('names OPENAI_EMBED_MODEL for a model the server does not have, without retrying', async () => {
    fake = await startFakeOpenAi();
    const error = await embedder(fake, { OPENAI_EMBED_MODEL: 'missing-model' })
      .embed(['x'])
      .catch((caught: unknown) => caught);
    expect(error).toMatchObject({ code: 'OPENAI_MODEL_MISSING' });
    expect((error as Error).message).toContain('OPENAI_EMBED_MODEL');
    expect(fake.embedRequests()).toHaveLength(1);
  });

  it('says the key was refused', async () => {
    fake = await startFakeOpenAi({ apiKey: 'sk-right' });
    const error = await embedder(fake, { OPENAI_API_KEY: 'sk-wrong' })
      .embed(['x'])
      .catch((caught: unknown) => caught);
    expect(error).toMatchObject({ code: 'MODEL_AUTH_FAILED' });
    expect((error as Error).message).toContain('OPENAI_API_KEY');
  });
});
