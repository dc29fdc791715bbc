import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { createHarness, type Harness, requestText } from './graph-harness.ts';

describe('the answer graph end to end (fake Ollama over HTTP, real SQLite checkpoints)', () => {
  let harness: Harness;
  afterEach(async () => {
    await harness?.close();
  });

  it('answers a clear question with sources, contexts, counts and progress', async () => {
    harness = await createHarness();
    const result = await harness.ask('How does a while loop work?');
    expect(result.kind).toBe('answer');
    if (result.kind !== 'answer') return;
    const { answer } = result;
    expect(answer.markdown).toContain('A while loop runs commands');
    expect(answer.markdown.trim().endsWith('- bash.pdf (p. 12–13)')).toBe(true);
    expect(answer.markdown.match(/Sources/g)).toHaveLength(1);
    expect(answer.body).toContain('A while loop runs commands');
    expect(answer.body).not.toContain('Sources');
    expect(answer.markdown.startsWith(answer.body)).toBe(true);
    expect(answer.sources).toEqual([{ file: 'bash.pdf', docId: 'doc-bash', pages: [12, 13] }]);
    expect(answer.subQuestions).toEqual(['How does a while loop work?']);
    expect(answer.contexts[0]).toMatchObject({ parentId: 'bash-loops', file: 'bash.pdf' });
    expect(answer.counts.toolCalls).toBe(1);
    expect(answer.counts.llmCalls).toBe(3);
    expect(answer.counts.promptTokens).toBeGreaterThan(0);
    expect(answer.counts.completionTokens).toBeGreaterThan(0);
    const types = harness.events.map((event) => event.type);
    expect(types).toEqual([
      'rewriting',
      'planned',
      'sub-question-started',
      'searching',
      'sub-question-done',
      'aggregating',
      'done',
    ]);
    expect(await harness.conversations.hasThread('cli:test')).toBe(true);
    expect(await harness.conversations.hasThread('cli:never')).toBe(false);
    const orchestrator = harness.requestsOf('orchestrator')[0]!;
    expect(orchestrator.tools?.map((tool) => tool.function.name)).toEqual([
      'search_child_chunks',
      'retrieve_parent_chunks',
    ]);
    expect(JSON.stringify(orchestrator.tools)).not.toMatch(/scope/i);
    // Every chat request carries the configured sampling options.
    expect(harness.fake.chatRequests()[0]?.options).toMatchObject({
      temperature: 0,
      seed: 42,
      num_ctx: 16384,
    });
  });

  it('rewrites a follow-up with the conversation summary and the recent turns', async () => {
    harness = await createHarness();
    for (let turn = 1; turn <= 5; turn++) {
      const result = await harness.ask(`Question number ${turn} about loops?`);
      expect(result.kind).toBe('answer');
    }
    expect(harness.events.filter((event) => event.type === 'summarizing').length).toBeGreaterThan(0);
    const summaries = harness.requestsOf('summarize');
    expect(summaries.length).toBeGreaterThan(0);
    expect(requestText(summaries[0]!)).toContain('Question number 1');
    const lastRewrite = harness.requestsOf('rewrite').at(-1)!;
    const prompt = requestText(lastRewrite);
    expect(lastRewrite.format).toMatchObject({ type: 'object' });
    expect(prompt).toContain('Earlier the user asked about bash loops.');
    expect(prompt).toContain('Question number 4 about loops?');
    expect(prompt).toContain('A while loop runs commands');
    expect(prompt).toContain('User message:\nQuestion number 5 about loops?');
    // Folded turns are gone from the prompt: the history stays bounded.
    expect(prompt).not.toContain('Question number 1 about');
    // Only the latest checkpoint of the thread is kept.
    const database = new Database(path.join(harness.dataDir, 'checkpoints.sqlite'), { readonly: true });
    const rows = database
      .prepare("SELECT COUNT(*) AS count FROM checkpoints WHERE thread_id = 'cli:test'")
      .get();
    database.close();
    expect(rows).toEqual({ count: 1 });
  });

  it('forgets a thread, and forgetting an unknown thread on a fresh database is a no-op', async () => {
    harness = await createHarness();
    await harness.conversations.forgetThread?.('cli:unknown');
    await harness.ask('How does a while loop work?');
    await harness.conversations.forgetThread?.('cli:test');
    expect(await harness.conversations.hasThread('cli:test')).toBe(false);
    expect((await harness.ask('How does a while loop work?')).kind).toBe('answer');
  });

  it('never lets internal agent messages into the chat history', async () => {
    harness = await createHarness();
    await harness.ask('How does a while loop work?');
    await harness.ask('And the until loop?');
    const prompt = requestText(harness.requestsOf('rewrite').at(-1)!);
    expect(prompt).not.toContain('Parent ID:');
    expect(prompt).not.toContain('search_child_chunks');
    expect(prompt).toContain('User: How does a while loop work?');
  });
});
