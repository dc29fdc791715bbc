import { tool } from '@langchain/core/tools';
import { ChatOllama, OllamaEmbeddings } from '@langchain/ollama';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { type FakeOllama, startFakeOllama } from './fake-ollama.ts';

describe('fake Ollama through the real @langchain/ollama client', () => {
  let fake: FakeOllama;
  afterEach(async () => {
    await fake?.close();
  });

  it('streams a plain chat reply and records the request options', async () => {
    fake = await startFakeOllama({ chat: () => ({ content: 'Hello from the fake model.' }) });
    const model = new ChatOllama({ baseUrl: fake.url, model: 'granite4.1:8b', temperature: 0, seed: 42 });
    const reply = await model.invoke('Say hello');
    expect(reply.content).toBe('Hello from the fake model.');
    const [request] = fake.chatRequests();
    expect(request?.stream).toBe(true);
    expect(request?.options).toMatchObject({ temperature: 0, seed: 42 });
    expect(reply.usage_metadata?.input_tokens).toBeGreaterThan(0);
  });

  it('returns tool calls the client parses', async () => {
    fake = await startFakeOllama({
      chat: () => ({ toolCalls: [{ name: 'search_child_chunks', arguments: { query: 'loops', limit: 3 } }] }),
    });
    const search = tool(async () => 'none', {
      name: 'search_child_chunks',
      description: 'search',
      schema: z.object({ query: z.string(), limit: z.number() }),
    });
    const model = new ChatOllama({ baseUrl: fake.url, model: 'granite4.1:8b' }).bindTools([search]);
    const reply = await model.invoke('find loops');
    expect(reply.tool_calls?.[0]).toMatchObject({
      name: 'search_child_chunks',
      args: { query: 'loops', limit: 3 },
    });
    expect(fake.chatRequests()[0]?.tools?.[0]?.function.name).toBe('search_child_chunks');
  });

  it('serves structured output through the JSON-schema format', async () => {
    fake = await startFakeOllama({
      chat: () => ({ content: JSON.stringify({ isClear: true, questions: ['a'] }) }),
    });
    const schema = z.object({ isClear: z.boolean(), questions: z.array(z.string()) });
    const model = new ChatOllama({ baseUrl: fake.url, model: 'granite4.1:8b' }).withStructuredOutput(schema);
    const result = await model.invoke('rewrite');
    expect(result).toEqual({ isClear: true, questions: ['a'] });
    expect(fake.chatRequests()[0]?.format).toMatchObject({ type: 'object' });
  });

  it('embeds batches deterministically with the requested dimension', async () => {
    fake = await startFakeOllama({ embedDimension: 32 });
    const embeddings = new OllamaEmbeddings({ baseUrl: fake.url, model: 'qwen3-embedding:0.6b' });
    const [first, second] = await embeddings.embedDocuments(['while loops in bash', 'while loops in bash']);
    expect(first).toHaveLength(32);
    expect(first).toEqual(second);
    expect(fake.embedRequests()[0]?.input).toHaveLength(2);
  });

  it('fails on demand with an HTTP error the client surfaces', async () => {
    fake = await startFakeOllama();
    fake.failNext('http-500');
    const model = new ChatOllama({ baseUrl: fake.url, model: 'granite4.1:8b', maxRetries: 0 });
    await expect(model.invoke('hi')).rejects.toThrow(/internal error/);
    await expect(model.invoke('hi')).resolves.toMatchObject({ content: 'OK' });
  });

  it('reports a missing model like Ollama does', async () => {
    fake = await startFakeOllama({ models: ['qwen3-embedding:0.6b'] });
    const model = new ChatOllama({ baseUrl: fake.url, model: 'granite4.1:8b', maxRetries: 0 });
    await expect(model.invoke('hi')).rejects.toThrow(/not found/);
  });

  it('streams NDJSON word by word when a token delay is set, and answers 429 with Retry-After', async () => {
    fake = await startFakeOllama({
      chat: () => ({ content: 'one two three' }),
      tokenDelayMs: 1,
      retryAfter: '4',
    });
    const response = await fetch(`${fake.url}/api/chat`, {
      method: 'POST',
      body: JSON.stringify({
        model: 'granite4.1:8b',
        messages: [{ role: 'user', content: 'count' }],
        stream: true,
      }),
    });
    expect(response.headers.get('content-type')).toBe('application/x-ndjson');
    const lines = (await response.text())
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    expect(lines.map((line) => line.message.content)).toEqual(['one ', 'two ', 'three', '']);
    expect(lines.map((line) => line.done)).toEqual([false, false, false, true]);
    fake.failNext('rate-limit');
    const limited = await fetch(`${fake.url}/api/chat`, {
      method: 'POST',
      body: JSON.stringify({ model: 'granite4.1:8b', messages: [] }),
    });
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).toBe('4');
  });
});
