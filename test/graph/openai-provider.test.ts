import { afterEach, describe, expect, it } from 'vitest';
import type { TurnResult } from '../../src/core/types.ts';
import { isRagentError, type RagentError } from '../../src/errors.ts';
import { createHarness, type Harness } from './graph-harness.ts';

async function failure(promise: Promise<TurnResult>): Promise<RagentError> {
  try {
    await promise;
  } catch (error) {
    if (isRagentError(error)) return error;
    throw error;
  }
  throw new Error('expected the turn to fail');
}

describe('the answer graph on the openai provider (real @langchain/openai against the fake server)', () => {
  let harness: Harness;
  afterEach(async () => {
    await harness?.close();
  });

  it('rewrites with a JSON schema, calls the tools and answers, with temperature 0 and seed 42', async () => {
    harness = await createHarness({ provider: 'openai' });
    const result = await harness.ask('How does a while loop work?');
    expect(result.kind).toBe('answer');
    if (result.kind !== 'answer') return;
    expect(result.answer.markdown).toContain('A while loop runs commands');
    expect(result.answer.sources).toEqual([{ file: 'bash.pdf', docId: 'doc-bash', pages: [12, 13] }]);
    expect(result.answer.counts.toolCalls).toBe(1);
    expect(result.answer.counts.promptTokens).toBeGreaterThan(0);
    const wire = harness.openai?.chatRequests() ?? [];
    expect(wire.length).toBe(3);
    for (const request of wire)
      expect(request).toMatchObject({ model: 'fake-chat', temperature: 0, seed: 42 });
    const rewrite = wire[0];
    expect(rewrite?.response_format).toMatchObject({
      type: 'json_schema',
      json_schema: { name: 'rewrite', strict: false },
    });
    expect(rewrite?.response_format?.json_schema?.schema).toMatchObject({ type: 'object' });
    const orchestrator = harness.requestsOf('orchestrator');
    expect(orchestrator[0]?.tools?.map((tool) => tool.function.name)).toEqual([
      'search_child_chunks',
      'retrieve_parent_chunks',
    ]);
    expect(orchestrator[1]?.messages.some((message) => message.role === 'tool')).toBe(true);
    expect(harness.fake.chatRequests()).toHaveLength(0);
  });

  it('retries 429 and 500 under the one policy, then says the server failed without its address', async () => {
    harness = await createHarness({ provider: 'openai' });
    harness.openai?.failNext('rate-limit', 1, '/v1/chat/completions');
    expect((await harness.ask('Loops?')).kind).toBe('answer');
    expect(harness.openai?.chatRequests()).toHaveLength(4);
    harness.openai?.failNext('http-500', 1, '/v1/chat/completions');
    expect((await harness.ask('Loops?')).kind).toBe('answer');

    harness.openai?.failAlways('rate-limit');
    const limited = await failure(harness.ask('Loops again?'));
    expect(limited.code).toBe('MODEL_RATE_LIMITED');
    expect(limited.details).toMatchObject({ service: 'openai', status: 429, attempts: 2 });
    expect(limited.message).toContain('after 2 tries');

    harness.openai?.failAlways('http-500');
    const failed = await failure(harness.ask('Loops again?'));
    expect(failed.code).toBe('OPENAI_FAILED');
    expect(failed.message).not.toContain(harness.openai?.root ?? 'unset');
    expect(failed.details).toMatchObject({ service: 'openai', status: 500, url: harness.openai?.url });

    harness.openai?.failAlways(undefined);
    harness.openai?.setModels(['other']);
    const missing = await failure(harness.ask('Loops again?'));
    expect(missing.code).toBe('OPENAI_MODEL_MISSING');
    expect(missing.message).toContain('OPENAI_MODEL');
  });

  it('names the setting when the server refuses JSON schema or tools, and works again after', async () => {
    harness = await createHarness({ provider: 'openai' });
    harness.openai?.refuse({ jsonSchema: true });
    const schema = await failure(harness.ask('Loops?'));
    expect(schema.code).toBe('MODEL_FEATURE_UNSUPPORTED');
    expect(schema.message).toMatch(/JSON-schema/);
    expect(schema.message).toContain('RAGENT_LLM_PROVIDER');

    harness.openai?.refuse({ jsonSchema: false, tools: true });
    const tools = await failure(harness.ask('Loops?'));
    expect(tools.code).toBe('MODEL_FEATURE_UNSUPPORTED');
    expect(tools.message).toMatch(/tool calling/);
    expect(tools.message).toContain('OPENAI_MODEL');
    expect(tools.message).toContain('--enable-auto-tool-choice');

    harness.openai?.refuse({ tools: false });
    expect((await harness.ask('Loops at last?')).kind).toBe('answer');
  });
});
