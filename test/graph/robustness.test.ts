import { afterEach, describe, expect, it, vi } from 'vitest';
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

describe('robustness', () => {
  let harness: Harness;
  afterEach(async () => {
    await harness?.close();
  });

  it('never searches outside the thread scopes, whatever the model asks for', async () => {
    harness = await createHarness();
    harness.scripts.orchestrator = (request) => {
      if (!request.messages.some((message) => message.role === 'tool')) {
        return {
          toolCalls: [
            {
              name: 'search_child_chunks',
              arguments: { query: 'while loop confidential', limit: 500, scopes: ['slack:T-OTHER'] },
            },
            {
              name: 'retrieve_parent_chunks',
              arguments: { parent_id: 'secret-loops', scope: 'slack:T-OTHER' },
            },
          ],
        };
      }
      return { content: 'Only shared documents.' };
    };
    const result = await harness.ask('Tell me the secret loops', { scopes: ['shared'] });
    expect(result.kind).toBe('answer');
    expect(harness.retriever.searches.every((search) => search.options.scopes.join() === 'shared')).toBe(
      true,
    );
    expect(harness.retriever.searches[0]?.options.k).toBe(10);
    expect(harness.retriever.parentReads).toEqual([{ parentId: 'secret-loops', scopes: ['shared'] }]);
    const toolResults = harness
      .requestsOf('orchestrator')
      .at(-1)!
      .messages.filter((message) => message.role === 'tool')
      .map((message) => message.content)
      .join('\n');
    expect(toolResults).not.toContain('confidential');
    expect(toolResults).toContain('NO_PARENT_DOCUMENT');
    if (result.kind === 'answer')
      expect(result.answer.sources.every((source) => source.file === 'bash.pdf')).toBe(true);
  });

  it('answers unknown tools, bad arguments and retrieval errors with text the model can act on', async () => {
    harness = await createHarness();
    harness.retriever.failNext(1);
    harness.scripts.orchestrator = (request) => {
      if (!request.messages.some((message) => message.role === 'tool')) {
        return {
          toolCalls: [
            { name: 'search_child_chunks', arguments: { query: 'while loop' } },
            { name: 'delete_everything', arguments: {} },
            { name: 'retrieve_parent_chunks', arguments: {} },
          ],
        };
      }
      return { content: 'Recovered.' };
    };
    const result = await harness.ask('Loops?');
    expect(result.kind).toBe('answer');
    const tools = harness
      .requestsOf('orchestrator')
      .at(-1)!
      .messages.filter((message) => message.role === 'tool')
      .map((message) => message.content);
    expect(tools[0]).toBe('RETRIEVAL_ERROR: index unavailable');
    expect(tools[1]).toMatch(/^ERROR: unknown tool "delete_everything"/);
    expect(tools[2]).toMatch(/^ERROR: invalid arguments for retrieve_parent_chunks/);
    if (result.kind === 'answer') expect(result.answer.counts.toolCalls).toBe(3);
  });

  it('corrects malformed structured output once, then searches for the message as it stands', async () => {
    harness = await createHarness();
    const original = harness.scripts.rewrite;
    let calls = 0;
    harness.scripts.rewrite = (request, call) => {
      calls++;
      return calls === 1 ? { content: 'not json at all' } : original(request, call);
    };
    expect((await harness.ask('Loops?')).kind).toBe('answer');
    expect(calls).toBe(2);
    expect(harness.requestsOf('rewrite')[1]?.messages.at(-1)?.content).toMatch(/not valid/);

    harness.scripts.rewrite = () => ({ content: '{"isClear": "maybe"}' });
    const degraded = await harness.ask('Loops again?');
    expect(degraded.kind).toBe('answer');
    if (degraded.kind === 'answer') expect(degraded.answer.subQuestions).toEqual(['Loops again?']);
    expect(harness.requestsOf('rewrite')).toHaveLength(4);
    expect(harness.requestsOf('orchestrator').at(-2)?.messages[1]?.content).toBe('Loops again?');

    harness.scripts.rewrite = original;
    expect((await harness.ask('Loops once more?')).kind).toBe('answer');
  });

  it('retries a failing Ollama, then reports it unreachable or failed, and the thread works afterwards', async () => {
    harness = await createHarness();
    harness.fake.failNext('http-500', 1, '/api/chat');
    expect((await harness.ask('Loops?')).kind).toBe('answer');

    harness.fake.failAlways('http-500');
    const failed = await failure(harness.ask('Loops again?'));
    expect(failed.code).toBe('OLLAMA_FAILED');
    expect(failed.message).toMatch(/try again/i);

    harness.fake.failAlways('disconnect');
    const unreachable = await failure(harness.ask('Loops again?'));
    expect(unreachable.code).toBe('OLLAMA_UNREACHABLE');
    expect(unreachable.message).toMatch(/ollama serve|OLLAMA_BASE_URL/);

    harness.fake.failAlways(undefined);
    harness.fake.setModels(['qwen3-embedding:0.6b']);
    const missing = await failure(harness.ask('Loops again?'));
    expect(missing.code).toBe('OLLAMA_MODEL_MISSING');
    expect(missing.message).toContain('ollama pull granite4.1:8b');

    harness.fake.setModels(['granite4.1:8b']);
    const after = await harness.ask('Loops at last?');
    expect(after.kind).toBe('answer');
  });

  it('ends a hung model call with a timeout error, and the thread works afterwards', async () => {
    harness = await createHarness({ environment: { RAGENT_NODE_TIMEOUT_S: '2', OLLAMA_TIMEOUT_S: '2' } });
    harness.fake.failNext('timeout', 1, '/api/chat');
    const error = await failure(harness.ask('Loops?'));
    expect(error.code).toBe('ANSWER_TIMEOUT');
    expect(error.message).toMatch(/RAGENT_NODE_TIMEOUT_S/);
    // The hung request was aborted, not left open.
    await vi.waitFor(() => expect(harness.fake.inFlight()).toBe(0), { timeout: 500 });
    expect((await harness.ask('Loops again?')).kind).toBe('answer');
  });

  it('stops an answer at its deadline with a clear error, and the thread works afterwards', async () => {
    harness = await createHarness({ limits: { answerTimeoutMs: 2_500 } });
    const original = harness.scripts.orchestrator;
    harness.scripts.orchestrator = async (request, call) => ({
      ...(await original(request, call)),
      delayMs: 3_000,
    });
    const error = await failure(harness.ask('Loops?'));
    expect(error.code).toBe('ANSWER_TIMEOUT');
    expect(error.message).toMatch(/RAGENT_ANSWER_TIMEOUT_S/);
    await vi.waitFor(() => expect(harness.fake.inFlight()).toBe(0), { timeout: 1_000 });
    harness.scripts.orchestrator = original;
    expect((await harness.ask('Loops again?')).kind).toBe('answer');
  });

  it('queues a second message on a busy thread and answers both, in order', async () => {
    harness = await createHarness();
    const original = harness.scripts.orchestrator;
    harness.scripts.orchestrator = async (request, call) => ({
      ...(await original(request, call)),
      delayMs: 100,
    });
    const first = harness.ask('First question about loops?');
    const second = harness.ask('Second question about arrays?');
    const [one, two] = await Promise.all([first, second]);
    expect(one.kind).toBe('answer');
    expect(two.kind).toBe('answer');
    expect(harness.events).toContainEqual({ type: 'queued', reason: 'thread-busy', position: 1 });
    const rewrites = harness.requestsOf('rewrite').map((request) => request.messages.at(-1)?.content ?? '');
    expect(rewrites[0]).toContain('First question');
    expect(rewrites[1]).toContain('Second question');
    // The second turn saw the first one's answer: no update was lost.
    expect(rewrites[1]).toContain('User: First question about loops?');
  });

  it('shares the LLM limit across threads and reports waiting as queued', async () => {
    harness = await createHarness({ environment: { RAGENT_LLM_CONCURRENCY: '1' } });
    const original = harness.scripts.rewrite;
    harness.scripts.rewrite = async (request, call) => ({ ...(await original(request, call)), delayMs: 50 });
    const results = await Promise.all([
      harness.ask('Loops one?', { threadId: 'cli:a' }),
      harness.ask('Loops two?', { threadId: 'cli:b' }),
    ]);
    expect(results.map((result) => result.kind)).toEqual(['answer', 'answer']);
    expect(harness.fake.maxConcurrentChats()).toBe(1);
    expect(harness.events).toContainEqual({ type: 'queued', reason: 'llm-busy' });
  });

  it('rejects a missing scope with a clear error', async () => {
    harness = await createHarness();
    expect((await failure(harness.ask('Loops?', { scopes: [] }))).code).toBe('INVALID_INPUT');
  });
});
