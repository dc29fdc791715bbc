import OpenAI from 'openai';
import { afterEach, describe, expect, it } from 'vitest';
import { type FakeOpenAi, startFakeOpenAi } from './fake-openai.ts';

const searchTool = {
  type: 'function' as const,
  function: {
    name: 'search_child_chunks',
    description: 'search',
    parameters: { type: 'object', properties: { query: { type: 'string' } }, required: ['query'] },
  },
};

describe('fake OpenAI-compatible server through the real openai client', () => {
  let fake: FakeOpenAi;
  const client = (options: { apiKey?: string } = {}) =>
    new OpenAI({ baseURL: fake.url, apiKey: options.apiKey ?? 'not-needed', maxRetries: 0 });
  afterEach(async () => {
    await fake?.close();
  });

  it('answers a chat completion with tool calls and usage, and lists its models', async () => {
    fake = await startFakeOpenAi({
      chat: (request) =>
        request.messages.some((message) => message.role === 'tool')
          ? { content: 'Done.' }
          : { toolCalls: [{ name: 'search_child_chunks', arguments: { query: 'loops' } }] },
    });
    const first = await client().chat.completions.create({
      model: 'fake-chat',
      messages: [{ role: 'user', content: 'find loops' }],
      tools: [searchTool],
      seed: 42,
      temperature: 0,
    });
    const call = first.choices[0]?.message.tool_calls?.[0];
    expect(first.choices[0]?.finish_reason).toBe('tool_calls');
    expect(call?.type === 'function' && call.function.name).toBe('search_child_chunks');
    expect(call?.type === 'function' && JSON.parse(call.function.arguments)).toEqual({ query: 'loops' });
    expect(first.usage?.prompt_tokens).toBeGreaterThan(0);
    const second = await client().chat.completions.create({
      model: 'fake-chat',
      messages: [
        { role: 'user', content: 'find loops' },
        { role: 'assistant', content: null, tool_calls: first.choices[0]?.message.tool_calls ?? [] },
        { role: 'tool', tool_call_id: call?.id ?? '', content: 'results' },
      ],
    });
    expect(second.choices[0]?.message.content).toBe('Done.');
    expect(fake.chatRequests()[0]).toMatchObject({ seed: 42, temperature: 0 });
    const models = await client().models.list();
    expect(models.data.map((model) => model.id)).toEqual(['fake-chat', 'fake-embed']);
  });

  it('streams text and tool-call deltas as SSE, with usage and [DONE]', async () => {
    fake = await startFakeOpenAi({
      chat: () => ({
        content: 'Looking it up now.',
        toolCalls: [{ name: 'search_child_chunks', arguments: { query: 'while loop' } }],
      }),
    });
    const stream = await client().chat.completions.create({
      model: 'fake-chat',
      messages: [{ role: 'user', content: 'loops?' }],
      tools: [searchTool],
      stream: true,
      stream_options: { include_usage: true },
    });
    const text: string[] = [];
    let argumentsText = '';
    let name = '';
    let usage: number | undefined;
    for await (const chunk of stream) {
      const delta = chunk.choices[0]?.delta;
      if (delta?.content) text.push(delta.content);
      for (const call of delta?.tool_calls ?? []) {
        name += call.function?.name ?? '';
        argumentsText += call.function?.arguments ?? '';
      }
      if (chunk.usage) usage = chunk.usage.total_tokens;
    }
    expect(text).toEqual(['Looking ', 'it ', 'up ', 'now.']);
    expect(name).toBe('search_child_chunks');
    expect(JSON.parse(argumentsText)).toEqual({ query: 'while loop' });
    expect(usage).toBeGreaterThan(0);
  });

  it('records response_format json_schema, and refuses it or tools with 400 when told to', async () => {
    fake = await startFakeOpenAi({
      chat: (request) => ({ content: JSON.stringify({ seen: request.format }) }),
    });
    const schema = { type: 'object', properties: { ok: { type: 'boolean' } } };
    const reply = await client().chat.completions.create({
      model: 'fake-chat',
      messages: [{ role: 'user', content: 'json please' }],
      response_format: { type: 'json_schema', json_schema: { name: 'rewrite', schema, strict: false } },
    });
    expect(JSON.parse(reply.choices[0]?.message.content ?? '')).toEqual({ seen: schema });
    expect(fake.chatRequests()[0]?.response_format).toEqual({
      type: 'json_schema',
      json_schema: { name: 'rewrite', schema, strict: false },
    });
    fake.refuse({ jsonSchema: true, tools: true });
    const refusedSchema = await client()
      .chat.completions.create({
        model: 'fake-chat',
        messages: [{ role: 'user', content: 'json please' }],
        response_format: { type: 'json_schema', json_schema: { name: 'rewrite', schema } },
      })
      .catch((error: unknown) => error);
    expect(refusedSchema).toBeInstanceOf(OpenAI.BadRequestError);
    const refusedTools = await client()
      .chat.completions.create({
        model: 'fake-chat',
        messages: [{ role: 'user', content: 'x' }],
        tools: [searchTool],
      })
      .catch((error: unknown) => error);
    expect((refusedTools as InstanceType<typeof OpenAI.APIError>).message).toMatch(/tool/);
  });

  it('embeds as floats or base64 and knows its models', async () => {
    fake = await startFakeOpenAi({ embedDimension: 8 });
    const floats = await client().embeddings.create({
      model: 'fake-embed',
      input: ['one', 'two'],
      encoding_format: 'float',
    });
    expect(floats.data).toHaveLength(2);
    expect(floats.data[0]?.embedding).toHaveLength(8);
    const decoded = await client().embeddings.create({ model: 'fake-embed', input: ['one'] });
    expect(decoded.data[0]?.embedding[0]).toBeCloseTo(floats.data[0]?.embedding[0] ?? Number.NaN, 5);
    const missing = await client()
      .embeddings.create({ model: 'nope', input: 'x' })
      .catch((error: unknown) => error);
    expect(missing).toBeInstanceOf(OpenAI.NotFoundError);
  });

  it('answers 429 with Retry-After, 500, and 401 for a wrong key', async () => {
    fake = await startFakeOpenAi({ apiKey: 'sk-right', retryAfter: '7' });
    fake.failNext('rate-limit');
    fake.failNext('http-500');
    const ask = () =>
      client({ apiKey: 'sk-right' })
        .chat.completions.create({ model: 'fake-chat', messages: [{ role: 'user', content: 'x' }] })
        .then(
          () => {
            throw new Error('expected an error');
          },
          (error: unknown) => error as InstanceType<typeof OpenAI.APIError>,
        );
    const limited = await ask();
    expect(limited.status).toBe(429);
    expect(limited.headers?.get('retry-after')).toBe('7');
    expect((await ask()).status).toBe(500);
    const wrongKey = await client({ apiKey: 'sk-wrong' })
      .models.list()
      .catch((error: unknown) => error);
    expect(wrongKey).toBeInstanceOf(OpenAI.AuthenticationError);
  });
});
