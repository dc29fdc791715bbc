import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PassThrough, Readable } from 'node:stream';
import Database from 'better-sqlite3';
import { Command } from 'commander';
import { afterEach, describe, expect, it } from 'vitest';
import type { CliContext } from '../../src/adapters/cli/cli-context.ts';
import { registerAskCommand } from '../../src/adapters/cli/commands/ask-command.ts';
import { registerChatCommand } from '../../src/adapters/cli/commands/chat-command.ts';
import type { ModelCallRecord } from '../../src/core/types.ts';
import { createLogger } from '../../src/logger.ts';
import type { AppServices } from '../../src/main.ts';
import { createHarness, type Harness, requestText } from './graph-harness.ts';

function collect(): { stream: PassThrough; text: () => string; writes: () => number } {
  const stream = new PassThrough();
  let text = '';
  let writes = 0;
  stream.on('data', (chunk: Buffer) => {
    text += chunk.toString('utf8');
    writes++;
  });
  return { stream, text: () => text, writes: () => writes };
}

function contextFor(harness: Harness, output: NodeJS.WritableStream): CliContext {
  return {
    config: () => {
      throw new Error('not needed');
    },
    logger: () => {
      throw new Error('not needed');
    },
    // `ask` first checks that the scope has documents (the harness's retriever serves bash.pdf).
    services: async () =>
      ({
        conversations: harness.conversations,
        ingestion: { listDocuments: async () => [{ name: 'bash.pdf' }] },
        turnHistory: harness.turnHistory,
        logger: createLogger({ level: 'silent' }),
      }) as unknown as AppServices,
    close: async () => {},
    output,
  };
}

describe('ragent chat and ragent ask', () => {
  let harness: Harness;
  afterEach(async () => {
    await harness?.close();
    process.exitCode = undefined;
  });

  it('chats with progress lines, takes the clarification reply on the next line, and resumes by thread name', async () => {
    harness = await createHarness();
    harness.scripts.rewrite = (request) =>
      requestText(request).includes('Clarification 1')
        ? {
            content: JSON.stringify({
              isClear: true,
              questions: ['How does the while loop work?'],
              clarificationNeeded: '',
            }),
          }
        : {
            content: JSON.stringify({
              isClear: false,
              questions: [],
              clarificationNeeded: 'Which loop do you mean?',
            }),
          };
    const output = collect();
    const program = new Command().exitOverride();
    registerChatCommand(program, contextFor(harness, output.stream), {
      input: Readable.from(['How does it loop?\n', 'the while loop\n', 'exit\n']),
    });
    await program.parseAsync(['node', 'ragent', 'chat', '--thread', 'work', '--scope', 'shared']);
    const text = output.text();
    expect(text).toContain('Starting thread "work" (documents: shared)');
    // The question prints as the model writes it, once, after "? " like a question that is not streamed.
    expect(text.split('Which loop do you mean?')).toHaveLength(2);
    expect(text).toContain('? Which loop do you mean?');
    expect(text).toContain('· Searching the documents for “while loop”');
    expect(text).toContain('A while loop runs commands');
    expect(text).toContain('- bash.pdf (p. 12–13)');
    expect(await harness.conversations.hasThread('cli:work')).toBe(true);
    // Both turns are recorded for the report, as platform cli.
    expect(
      (await harness.turnHistory.listTurns()).map((turn) => [
        turn.platform,
        turn.threadId,
        turn.question,
        turn.outcome,
      ]),
    ).toEqual([
      ['cli', 'cli:work', 'How does it loop?', 'clarification'],
      ['cli', 'cli:work', 'the while loop', 'answered'],
    ]);

    await harness.restart();
    const again = collect();
    const second = new Command().exitOverride();
    registerChatCommand(second, contextFor(harness, again.stream), { input: Readable.from([]) });
    await second.parseAsync(['node', 'ragent', 'chat', '--thread', 'work']);
    expect(again.text()).toContain('Resuming thread "work"');
  });

  it('prints one answer, or the whole result as JSON', async () => {
    harness = await createHarness();
    const output = collect();
    const progress = collect();
    const program = new Command().exitOverride();
    registerAskCommand(program, contextFor(harness, output.stream), { progress: progress.stream });
    await program.parseAsync(['node', 'ragent', 'ask', 'How does a while loop work?']);
    expect(output.text()).toMatch(/^A while loop runs commands[\s\S]*- bash\.pdf \(p\. 12–13\)\n$/);
    // Printed as it was written: piece by piece, then the sources.
    expect(output.writes()).toBeGreaterThan(2);
    expect(progress.text()).toContain('· Searching the documents for');

    const json = collect();
    const jsonProgram = new Command().exitOverride();
    registerAskCommand(jsonProgram, contextFor(harness, json.stream), { progress: progress.stream });
    await jsonProgram.parseAsync(['node', 'ragent', 'ask', 'How does a while loop work?', '--json']);
    // One JSON object, nothing streamed before it.
    expect(json.writes()).toBe(1);
    const parsed = JSON.parse(json.text());
    expect(parsed.kind).toBe('answer');
    expect(parsed.answer.sources).toEqual([{ file: 'bash.pdf', docId: 'doc-bash', pages: [12, 13] }]);
    expect(parsed.answer.counts.toolCalls).toBe(1);
    // Each ask used a one-off thread and forgot it afterwards.
    const database = new Database(path.join(harness.dataDir, 'checkpoints.sqlite'), { readonly: true });
    const threads = database.prepare('SELECT COUNT(DISTINCT thread_id) AS count FROM checkpoints').get() as {
      count: number;
    };
    database.close();
    expect(threads.count).toBe(0);
  });

  it('ask --trace writes every model call of the turn as JSON lines: messages, tools, schema, options, reply', async () => {
    harness = await createHarness();
    const directory = mkdtempSync(path.join(tmpdir(), 'ragent-trace-'));
    const file = path.join(directory, 'trace.jsonl');
    try {
      const program = new Command().exitOverride();
      registerAskCommand(program, contextFor(harness, collect().stream), { progress: collect().stream });
      await program.parseAsync(['node', 'ragent', 'ask', 'How does a while loop work?', '--trace', file]);
      const calls = readFileSync(file, 'utf8')
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line) as ModelCallRecord);
      expect(calls.map((call) => call.purpose)).toEqual(['rewrite', 'orchestrator', 'orchestrator']);
      expect(calls.length).toBe(harness.fake.chatRequests().length);
      const [rewrite, search, answer] = calls;
      expect(rewrite?.format).toMatchObject({ type: 'object' });
      expect(rewrite?.options).toEqual({ model: 'granite4.1:8b', temperature: 0, seed: 42, numCtx: 16384 });
      expect(rewrite?.messages.map((message) => message.role)).toEqual(['system', 'user']);
      expect(rewrite?.messages[1]?.content).toContain('User message:\nHow does a while loop work?');
      expect(search?.tools?.length).toBe(2);
      expect(search?.reply?.toolCalls?.[0]?.name).toBe('search_child_chunks');
      expect(answer?.messages.map((message) => message.role)).toEqual([
        'system',
        'user',
        'assistant',
        'tool',
      ]);
      expect(answer?.messages[3]?.content).toContain('Parent ID: bash-loops');
      expect(answer?.reply?.content).toContain('A while loop runs commands');
      // Exactly what went over the wire.
      expect(answer?.messages.map((message) => message.content)).toEqual(
        harness.fake.chatRequests()[2]?.messages.map((message) => message.content),
      );
    } finally {
      rmSync(directory, { recursive: true, force: true });
    }
  });

  it('rejects a bad thread name with a clear error', async () => {
    harness = await createHarness();
    const program = new Command().exitOverride();
    registerChatCommand(program, contextFor(harness, collect().stream), { input: Readable.from([]) });
    await expect(
      program.parseAsync(['node', 'ragent', 'chat', '--thread', 'no spaces please']),
    ).rejects.toThrow(/thread name/);
  });
});
