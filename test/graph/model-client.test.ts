import { HumanMessage, SystemMessage } from '@langchain/core/messages';
import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.ts';
import { createModelClient, emptyUsage, type ModelClient, type Usage } from '../../src/graph/model-client.ts';
import { createLogger } from '../../src/logger.ts';
import { type ChatScript, type FakeOllama, startFakeOllama } from '../fakes/fake-ollama.ts';
import { type FakeOpenAi, startFakeOpenAi } from '../fakes/fake-openai.ts';

const reply = 'A while loop runs commands while a test succeeds.';
const script: ChatScript = (request) =>
  request.tools?.length
    ? { content: 'Searching.', toolCalls: [{ name: 'search_child_chunks', arguments: { query: 'loops' } }] }
    : { content: reply };
const searchTool = {
  type: 'function',
  function: {
    name: 'search_child_chunks',
    description: 'search',
    parameters: { type: 'object', properties: { query: { type: 'string' } }, required: ['query'] },
  },
};
const messages = [new SystemMessage('You answer.'), new HumanMessage('Loops?')];

function clientFor(environment: Record<string, string>): { client: ModelClient; usage: Usage } {
  const config = loadConfig({ RAGENT_EMBEDDINGS: 'none', ...environment }, { envFile: false });
  const usage = emptyUsage();
  const client = createModelClient({
    config,
    logger: createLogger({ level: 'silent' }),
    usage,
    acquire: async () => () => {},
    retry: { attempts: 2, baseDelayMs: 1 },
  });
  return { client, usage };
}

describe('model client: streaming tokens on both providers', () => {
  let ollama: FakeOllama | undefined;
  let openai: FakeOpenAi | undefined;
  afterEach(async () => {
    await ollama?.close();
    await openai?.close();
    ollama = undefined;
    openai = undefined;
  });

  it('streams Ollama NDJSON word by word and keeps tool calls and usage', async () => {
    ollama = await startFakeOllama({ chat: script, tokenDelayMs: 1 });
    const { client, usage } = clientFor({ OLLAMA_BASE_URL: ollama.url });
    const tokens: string[] = [];
    const answer = await client.chat({ purpose: 'answer', messages, onToken: (text) => tokens.push(text) });
    expect(tokens.length).toBe(reply.split(' ').length);
    expect(tokens.join('')).toBe(reply);
    expect(answer.content).toBe(reply);
    expect(ollama.chatRequests()[0]?.stream).toBe(true);

    const searching = await client.chat({
      purpose: 'orchestrator',
      messages,
      tools: [searchTool],
      onToken: () => {},
    });
    expect(searching.tool_calls?.[0]).toMatchObject({
      name: 'search_child_chunks',
      args: { query: 'loops' },
    });
    expect(usage.llmCalls).toBe(2);
    expect(usage.completionTokens).toBeGreaterThan(0);
  });

  it('streams OpenAI SSE word by word, joins tool-call deltas and counts usage', async () => {
    openai = await startFakeOpenAi({ chat: script });
    const { client, usage } = clientFor({
      RAGENT_LLM_PROVIDER: 'openai',
      OPENAI_BASE_URL: openai.url,
      OPENAI_MODEL: 'fake-chat',
    });
    const tokens: string[] = [];
    const answer = await client.chat({ purpose: 'answer', messages, onToken: (text) => tokens.push(text) });
    expect(tokens.join('')).toBe(reply);
    expect(tokens.length).toBe(reply.split(' ').length);
    expect(answer.content).toBe(reply);
    expect(openai.chatRequests()[0]).toMatchObject({ stream: true, stream_options: { include_usage: true } });

    const searching = await client.chat({
      purpose: 'orchestrator',
      messages,
      tools: [searchTool],
      onToken: () => {},
    });
    expect(searching.content).toBe('Searching.');
    expect(searching.tool_calls?.[0]).toMatchObject({
      name: 'search_child_chunks',
      args: { query: 'loops' },
    });
    expect(usage.promptTokens).toBeGreaterThan(0);

    const plain = await client.chat({ purpose: 'answer', messages });
    expect(plain.content).toBe(reply);
    expect(openai.chatRequests()[2]?.stream).toBeFalsy();
  });

  it('sends OLLAMA_API_KEY as a bearer token and OLLAMA_HEADERS on every Ollama request', async () => {
    ollama = await startFakeOllama({ chat: script });
    const { client } = clientFor({
      OLLAMA_BASE_URL: ollama.url,
      OLLAMA_API_KEY: 'proxy-secret-1',
      OLLAMA_HEADERS: '{"X-Team":"docs"}',
    });
    await client.chat({ purpose: 'answer', messages });
    const headers = ollama.requests[0]?.headers;
    expect(headers?.authorization).toBe('Bearer proxy-secret-1');
    expect(headers?.['x-team']).toBe('docs');
  });

  it('names OLLAMA_MODEL at first use when Ollama refuses tools for the model, without retrying', async () => {
    ollama = await startFakeOllama({ chat: script, refuseTools: true });
    const { client } = clientFor({ OLLAMA_BASE_URL: ollama.url });
    const error = await client
      .chat({ purpose: 'orchestrator', messages, tools: [searchTool] })
      .catch((caught: unknown) => caught);
    expect(error).toMatchObject({
      code: 'MODEL_FEATURE_UNSUPPORTED',
      details: { service: 'ollama', status: 400, failure: 'rejected' },
    });
    expect((error as Error).message).toContain('OLLAMA_MODEL');
    expect((error as Error).message).not.toContain(ollama.url);
    expect(ollama.chatRequests()).toHaveLength(1);
  });

  it('retries a silent OpenAI-compatible server once its attempt times out, then says it did not answer', async () => {
    openai = await startFakeOpenAi({ chat: script });
    openai.failAlways('timeout');
    const { client } = clientFor({
      RAGENT_LLM_PROVIDER: 'openai',
      OPENAI_BASE_URL: openai.url,
      OPENAI_MODEL: 'fake-chat',
      OPENAI_TIMEOUT_S: '1',
    });
    const error = await client.chat({ purpose: 'answer', messages }).catch((caught: unknown) => caught);
    expect(error).toMatchObject({
      code: 'OPENAI_FAILED',
      details: { failure: 'timeout', service: 'openai' },
    });
    expect((error as Error).message).toMatch(/did not answer in time/);
    expect(openai.chatRequests()).toHaveLength(2);
  });
});
