import { afterEach, describe, expect, it } from 'vitest';
import { alreadyExecutedHeading } from '../../src/graph/nodes/orchestrator.ts';
import { createHarness, type Harness, requestText } from './graph-harness.ts';

const question = (request: { messages: Array<{ role: string; content: string }> }) =>
  request.messages.find((message) => message.role === 'user')?.content ?? '';

describe('agent runs', () => {
  let harness: Harness;
  afterEach(async () => {
    await harness?.close();
  });

  it('runs one agent per sub-question in parallel and aggregates in question order', async () => {
    harness = await createHarness({ environment: { RAGENT_LLM_CONCURRENCY: '4' } });
    harness.scripts.rewrite = () => ({
      content: JSON.stringify({
        isClear: true,
        questions: ['What is a while loop?', 'What is an associative array?'],
        clarificationNeeded: '',
      }),
    });
    harness.scripts.orchestrator = (request) => {
      const first = question(request) === 'What is a while loop?';
      if (!request.messages.some((message) => message.role === 'tool')) {
        // The first sub-question is slower, so it finishes last.
        return {
          delayMs: first ? 300 : 50,
          toolCalls: [
            {
              name: 'search_child_chunks',
              arguments: { query: first ? 'while loop' : 'associative array', limit: 2 },
            },
          ],
        };
      }
      return {
        delayMs: first ? 200 : 0,
        content: first ? 'ANSWER-ONE about loops.' : 'ANSWER-TWO about arrays.',
      };
    };
    const result = await harness.ask('Explain while loops and associative arrays');
    expect(harness.fake.maxConcurrentChats()).toBeGreaterThanOrEqual(2);
    expect(result.kind).toBe('answer');
    if (result.kind !== 'answer') return;
    const aggregate = requestText(harness.requestsOf('aggregate')[0]!);
    expect(aggregate.indexOf('ANSWER-ONE')).toBeGreaterThan(-1);
    expect(aggregate.indexOf('ANSWER-ONE')).toBeLessThan(aggregate.indexOf('ANSWER-TWO'));
    expect(result.answer.markdown.indexOf('ANSWER-ONE')).toBeLessThan(
      result.answer.markdown.indexOf('ANSWER-TWO'),
    );
    expect(result.answer.subQuestions).toEqual(['What is a while loop?', 'What is an associative array?']);
    expect(result.answer.sources.map((source) => source.file)).toEqual(['bash.pdf', 'bash.pdf']);
    expect(result.answer.counts.toolCalls).toBe(2);
    const started = harness.events.filter((event) => event.type === 'sub-question-started');
    expect(started).toHaveLength(2);
  });

  it('falls back to an answer from what was found when the tool budget is spent', async () => {
    harness = await createHarness({ environment: { RAGENT_MAX_TOOL_CALLS: '3' } });
    let count = 0;
    harness.scripts.orchestrator = () => ({
      toolCalls: [{ name: 'search_child_chunks', arguments: { query: `loop variant ${count++}` } }],
    });
    const result = await harness.ask('Tell me everything about loops');
    expect(result.kind).toBe('answer');
    if (result.kind !== 'answer') return;
    expect(result.answer.markdown).toContain('Partial answer from what was found');
    expect(result.answer.counts.toolCalls).toBe(3);
    expect(harness.events.map((event) => event.type)).toContain('falling-back');
    expect(requestText(harness.requestsOf('fallback')[0]!)).toContain('The while loop runs commands');
  });

  it('stops a model that loops on the same call, within the iteration budget', async () => {
    harness = await createHarness({
      environment: { RAGENT_MAX_ITERATIONS: '4', RAGENT_MAX_TOOL_CALLS: '20' },
    });
    harness.scripts.orchestrator = () => ({
      toolCalls: [{ name: 'search_child_chunks', arguments: { query: 'while loop' } }],
    });
    const result = await harness.ask('Loops?');
    expect(result.kind).toBe('answer');
    const toolResults = harness
      .requestsOf('orchestrator')
      .at(-1)!
      .messages.filter((message) => message.role === 'tool')
      .map((message) => message.content);
    expect(toolResults.slice(1).every((content) => content.startsWith('ALREADY_EXECUTED'))).toBe(true);
    expect(harness.retriever.searches).toHaveLength(1);
    expect(harness.requestsOf('orchestrator')).toHaveLength(4);
  });

  it('compresses past the threshold and the next prompt carries the already-executed list', async () => {
    // A 2,048-token window of which 10 % may be used: any tool result pushes the prompt past it.
    harness = await createHarness({
      environment: { OLLAMA_NUM_CTX: '2048', RAGENT_COMPRESSION_CONTEXT_SHARE: '0.1' },
    });
    harness.scripts.orchestrator = (request) => {
      const tools = request.messages.filter((message) => message.role === 'tool').length;
      const compressed = requestText(request).includes(alreadyExecutedHeading);
      if (!compressed && tools === 0) {
        return {
          toolCalls: [
            { name: 'search_child_chunks', arguments: { query: 'while loop' } },
            { name: 'retrieve_parent_chunks', arguments: { parent_id: 'bash-loops' } },
            { name: 'retrieve_parent_chunks', arguments: { parent_id: 'bash-arrays' } },
          ],
        };
      }
      return { content: 'A while loop runs commands while a test succeeds.' };
    };
    const result = await harness.ask('How does a while loop work?');
    expect(result.kind).toBe('answer');
    expect(harness.events.map((event) => event.type)).toContain('compressing');
    expect(harness.events).toContainEqual({
      type: 'reading',
      index: 0,
      parentId: 'bash-loops',
      section: 'Looping Constructs',
    });
    const compress = harness.requestsOf('compress')[0]!;
    expect(requestText(compress)).toContain('Looping Constructs');
    const next = requestText(harness.requestsOf('orchestrator').at(-1)!);
    expect(next).toContain(alreadyExecutedHeading);
    expect(next).toContain('- search_child_chunks: "while loop"');
    expect(next).toContain('- retrieve_parent_chunks: bash-loops');
    expect(next).toContain('Notes: the while loop runs while a test succeeds');
    // The raw tool results were folded away.
    expect(
      harness
        .requestsOf('orchestrator')
        .at(-1)!
        .messages.some((message) => message.role === 'tool'),
    ).toBe(false);
    if (result.kind === 'answer') {
      expect(result.answer.sources).toEqual([
        { file: 'bash.pdf', docId: 'doc-bash', pages: [12, 13] },
        { file: 'bash.pdf', docId: 'doc-bash', pages: [40, 40] },
      ]);
    }
  });

  it('makes the first call search even when the model answers straight away', async () => {
    harness = await createHarness();
    harness.scripts.orchestrator = (request) =>
      request.messages.some((message) => message.role === 'tool')
        ? { content: 'From the documents: loops.' }
        : { content: 'I know this without searching.' };
    const result = await harness.ask('How does a while loop work?');
    expect(result.kind).toBe('answer');
    expect(harness.retriever.searches[0]?.text).toBe('How does a while loop work?');
    if (result.kind === 'answer') expect(result.answer.markdown).toContain('From the documents');
  });
});
