/**
 * Numbered citations and "not found" answers, through the real graph with the scripted fake model:
 * the answer cites the sections by the numbers of their "Cite as" lines; the sources list exactly what
 * it cites, renumbered in order; an answer without markers keeps the sources that were read; an
 * answer saying the documents do not cover the question is not found, without sources.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import { Command } from 'commander';
import { afterEach, describe, expect, it } from 'vitest';
import type { CliContext } from '../../src/adapters/cli/cli-context.ts';
import { registerAskCommand } from '../../src/adapters/cli/commands/ask-command.ts';
import { renumberCitations, saysNotFound, takeNotFoundLine } from '../../src/graph/citations.ts';
import { createLogger } from '../../src/logger.ts';
import type { AppServices } from '../../src/main.ts';
import { openSqliteTurnHistory } from '../../src/stores/sqlite-turn-history.ts';
import type { FakeChatRequest } from '../fakes/fake-ollama.ts';
import { createHarness, type Harness } from './graph-harness.ts';
import type { SampleDocument } from './sample-index.ts';

/** Three sections of one manual that all mention backups, each on its own pages. */
function backupManual(): SampleDocument[] {
  return [
    {
      id: 'doc-ops',
      name: 'operations.pdf',
      scope: 'shared',
      sections: [
        {
          id: 'ops-schedule',
          pages: [3, 3],
          heading: 'Backup schedule',
          text: 'The backup runs every night at two o clock and keeps seven copies.',
        },
        {
          id: 'ops-restore',
          pages: [7, 8],
          heading: 'Restoring a backup',
          text: 'To restore a backup, stop the service and copy the backup files back.',
        },
        {
          id: 'ops-storage',
          pages: [11, 11],
          heading: 'Backup storage',
          text: 'Backup copies are stored on the second disk, never on the system disk.',
        },
      ],
    },
  ];
}

const toolResults = (request: FakeChatRequest) =>
  request.messages.filter((message) => message.role === 'tool').map((message) => message.content ?? '');

/** The citation number each section was given in the tool results the model saw. */
function numbersBySection(request: FakeChatRequest): Map<string, number> {
  const numbers = new Map<string, number>();
  for (const result of toolResults(request)) {
    for (const match of result.matchAll(/Cite as: \[(\d+)\]\nParent ID: (\S+)/g))
      numbers.set(match[2] ?? '', Number(match[1]));
  }
  return numbers;
}

/** The orchestrator searches once, then answers with `write(numbers)`. */
function answerAfterSearch(harness: Harness, write: (numbers: Map<string, number>) => string): void {
  harness.scripts.orchestrator = (request) =>
    toolResults(request).length === 0
      ? { toolCalls: [{ name: 'search_child_chunks', arguments: { query: 'backup', limit: 5 } }] }
      : { content: write(numbersBySection(request)) };
}

describe('numbered citations', () => {
  let harness: Harness;
  afterEach(async () => {
    await harness?.close();
  });

  it('lists only the cited sections, in the order of first citation, renumbered 1, 2 (unknown numbers dropped)', async () => {
    harness = await createHarness({ documents: backupManual() });
    let given = new Map<string, number>();
    answerAfterSearch(harness, (numbers) => {
      given = numbers;
      const storage = numbers.get('ops-storage');
      const schedule = numbers.get('ops-schedule');
      return `Copies live on the second disk [${storage}]. The backup runs nightly [${schedule}][${storage}]. It is safe [42].`;
    });
    const result = await harness.ask('Where are backups kept and when do they run?');
    // All three sections were shown to the model, each with its own number.
    expect([...given.keys()].sort()).toEqual(['ops-restore', 'ops-schedule', 'ops-storage']);
    expect(new Set(given.values()).size).toBe(3);
    expect(result.kind).toBe('answer');
    if (result.kind !== 'answer') return;
    expect(result.answer.outcome).toBe('answered');
    expect(result.answer.body).toBe(
      'Copies live on the second disk [1]. The backup runs nightly [2][1]. It is safe.',
    );
    expect(result.answer.sources.map((source) => [source.file, source.pages, source.section])).toEqual([
      ['operations.pdf', [11, 11], ['Backup storage']],
      ['operations.pdf', [3, 3], ['Backup schedule']],
    ]);
    expect(result.answer.citesByNumber).toBe(true);
    expect(result.answer.markdown).toBe(
      `${result.answer.body}\n\nSources:\n- [1] operations.pdf (p. 11, Backup storage)\n- [2] operations.pdf (p. 3, Backup schedule)`,
    );
  });

  it('keeps the numbers through the aggregation of two sub-questions: one list for the whole answer', async () => {
    harness = await createHarness({ documents: backupManual() });
    harness.scripts.rewrite = () => ({
      content: JSON.stringify({
        isClear: true,
        questions: ['Where are backups stored?', 'How is a backup restored?'],
        clarificationNeeded: '',
      }),
    });
    answerAfterSearch(harness, (numbers) => `Sub-answer citing [${numbers.get('ops-restore')}].`);
    let restore = 0;
    harness.scripts.aggregate = (request) => {
      restore = Number(/citing \[(\d+)\]/.exec(request.messages.at(-1)?.content ?? '')?.[1]);
      return { content: `Restore by copying the files back [${restore}].` };
    };
    const result = await harness.ask('Where are backups stored and how do I restore one?');
    expect(restore).toBeGreaterThan(0);
    expect(result.kind === 'answer' && result.answer.body).toBe('Restore by copying the files back [1].');
    expect(result.kind === 'answer' && result.answer.sources.map((source) => source.pages)).toEqual([[7, 8]]);
  });

  it('falls back to the sections that were read when the model writes no markers but answers', async () => {
    harness = await createHarness({ documents: backupManual() });
    answerAfterSearch(harness, () => 'The backup runs every night and keeps seven copies.');
    const result = await harness.ask('When does the backup run?');
    if (result.kind !== 'answer') throw new Error(`expected an answer, got ${result.kind}`);
    expect(result.answer.outcome).toBe('answered');
    // No section was read in full: the best three hits, as before citations existed (merged per file).
    expect(result.answer.sources.length).toBeGreaterThan(0);
    expect(result.answer.markdown).toMatch(/\n\nSources:\n- operations\.pdf \(p\. /);
    expect(result.answer.markdown).not.toContain('[1]');
    expect(result.answer.citesByNumber).toBeUndefined();
  });

  it.each([
    'NOT_FOUND\nThe documents do not say how to encrypt a backup.',
    '**NOT_FOUND:** the manual has nothing on encrypting backups.',
    "I couldn't find anything about encrypting backups in the documents.",
    'The documents do not cover backup encryption; they only describe the schedule.',
    'The retrieved text does not mention encryption at all.',
    'There is no information about encryption in the documents.',
    'I was unable to find how backups are encrypted.',
    'Backup encryption is not covered in the documents I can search.',
  ])(
    'a "not covered" answer is not found, shows no sources and says what was searched: %s',
    async (reply) => {
      harness = await createHarness({ documents: backupManual() });
      answerAfterSearch(
        harness,
        (numbers) => `${reply}${reply.startsWith('NOT') ? ` [${numbers.get('ops-storage')}]` : ''}`,
      );
      const result = await harness.ask('How are backups encrypted?');
      if (result.kind !== 'answer') throw new Error(`expected an answer, got ${result.kind}`);
      expect(result.answer.outcome).toBe('not-found');
      expect(result.answer.sources).toEqual([]);
      expect(result.answer.markdown).not.toMatch(/Sources|NOT_FOUND|\[\d\]/);
      expect(result.answer.markdown).toMatch(
        /\n\nSearched the documents for “backup”; nothing found answers the question\.$/,
      );
      expect(result.answer.body.length).toBeGreaterThan(10);
    },
  );

  it('a partial answer that cites what it found stays answered even when it says what is missing', async () => {
    harness = await createHarness({ documents: backupManual() });
    answerAfterSearch(
      harness,
      (numbers) =>
        `The backup keeps seven copies [${numbers.get('ops-schedule')}]. The documents do not cover encryption.`,
    );
    const result = await harness.ask('How many copies are kept, and are they encrypted?');
    expect(result.kind === 'answer' && result.answer.outcome).toBe('answered');
    expect(result.kind === 'answer' && result.answer.sources.map((source) => source.pages)).toEqual([[3, 3]]);
  });

  it('streams the answer with the final numbers and without a NOT_FOUND line: every text shown is a prefix of the answer', async () => {
    harness = await createHarness({ documents: backupManual() });
    const streamed: string[] = [];
    const ask = (text: string) =>
      harness.conversations.handle(
        { threadId: `cli:stream-${streamed.length}`, scopes: ['shared'], user: 'tester', text },
        () => {},
        { onText: (soFar) => streamed.push(soFar) },
      );
    // Cited in the reverse of the order the sections were given: the stream must renumber as the end does.
    harness.scripts.orchestrator = (request) => {
      if (toolResults(request).length === 0)
        return { toolCalls: [{ name: 'search_child_chunks', arguments: { query: 'backup', limit: 5 } }] };
      const numbers = numbersBySection(request);
      const order = [...numbers.entries()].sort((a, b) => b[1] - a[1]).map(([, number]) => number);
      return {
        content: `First fact [${order[0]}]. Second fact [${order[1]}, ${order[0]}]. Third fact [${order[2]}].`,
        tokenDelayMs: 1,
      };
    };
    const answered = await ask('Tell me about backups.');
    if (answered.kind !== 'answer') throw new Error(`expected an answer, got ${answered.kind}`);
    expect(answered.answer.body).toBe('First fact [1]. Second fact [2][1]. Third fact [3].');
    expect(streamed.length).toBeGreaterThan(3);
    for (const text of streamed.filter(Boolean))
      expect(answered.answer.body.startsWith(text), text).toBe(true);

    streamed.length = 0;
    harness.scripts.orchestrator = (request) =>
      toolResults(request).length === 0
        ? { toolCalls: [{ name: 'search_child_chunks', arguments: { query: 'backup', limit: 5 } }] }
        : { content: 'NOT_FOUND\nThe documents do not cover encryption.', tokenDelayMs: 1 };
    const notFound = await ask('Are backups encrypted?');
    if (notFound.kind !== 'answer') throw new Error(`expected an answer, got ${notFound.kind}`);
    expect(notFound.answer.outcome).toBe('not-found');
    expect(streamed.filter(Boolean).length).toBeGreaterThan(0);
    for (const text of streamed.filter(Boolean)) {
      expect(text).not.toMatch(/^\s*N/);
      expect(notFound.answer.markdown.startsWith(text), text).toBe(true);
    }
  }, 60_000);

  it('ragent ask --json carries the outcome: answered, then not-found', async () => {
    harness = await createHarness({ documents: backupManual() });
    const turnHistory = openSqliteTurnHistory(mkdtempSync(path.join(tmpdir(), 'ragent-citations-')));
    const ask = async (question: string) => {
      const output = new PassThrough();
      let text = '';
      output.on('data', (chunk: Buffer) => {
        text += chunk.toString('utf8');
      });
      const context = {
        config: () => {
          throw new Error('not needed');
        },
        logger: () => {
          throw new Error('not needed');
        },
        services: async () =>
          ({
            conversations: harness.conversations,
            ingestion: { listDocuments: async () => [{ name: 'operations.pdf' }] },
            // The turn is recorded as platform cli, in a real turn history.
            turnHistory,
            logger: createLogger({ level: 'silent' }),
          }) as unknown as AppServices,
        close: async () => {},
        output,
      } satisfies CliContext;
      const program = new Command().exitOverride();
      registerAskCommand(program, context, { progress: new PassThrough() });
      await program.parseAsync(['node', 'ragent', 'ask', question, '--json']);
      return JSON.parse(text) as { outcome: string; kind: string; answer: { sources: unknown[] } };
    };
    answerAfterSearch(harness, (numbers) => `Nightly [${numbers.get('ops-schedule')}].`);
    const answered = await ask('When does the backup run?');
    expect(answered.outcome).toBe('answered');
    expect(answered.answer.sources).toHaveLength(1);
    answerAfterSearch(harness, () => 'NOT_FOUND\nNothing about encryption.');
    const notFound = await ask('Are backups encrypted?');
    const recorded = await turnHistory.listTurns({ since: new Date(0).toISOString() });
    expect(recorded.map((turn) => turn.outcome).sort()).toEqual(['answered', 'not-found']);
    expect(notFound).toMatchObject({ outcome: 'not-found', kind: 'answer', answer: { sources: [] } });
  });
});

describe('citation text helpers', () => {
  it('renumbers by first appearance, merges lists, leaves code indexes and links alone', () => {
    const known = new Set([3, 5, 8]);
    expect(renumberCitations('A [5]. B [3, 5]. C [8][8]. a[3] and [5](http://x) and [^3].', known)).toEqual({
      text: 'A [1]. B [2][1]. C [3]. a[3] and [5](http://x) and [^3].',
      cited: [5, 3, 8],
    });
    expect(renumberCitations('Only [9] here.', known)).toEqual({ text: 'Only here.', cited: [] });
  });

  it('reads a NOT_FOUND first line in its usual shapes and never one inside a sentence', () => {
    expect(takeNotFoundLine('NOT_FOUND\nNo word on it.')).toEqual({ text: 'No word on it.', marked: true });
    expect(takeNotFoundLine('Not found: no word on it.')).toEqual({ text: 'no word on it.', marked: true });
    expect(takeNotFoundLine('The page was not found by the server.').marked).toBe(false);
    // "Not found" opening a sentence is prose (the wordings recognise it), never cut in half.
    expect(takeNotFoundLine('Not found in the manual, but the guide mentions it.').marked).toBe(false);
    expect(saysNotFound('Not found in the documents: the manual has no section on it.')).toBe(true);
  });

  it('takes only an opening that says nothing was found, not a later missing detail', () => {
    expect(saysNotFound("I couldn't find this in the documents.")).toBe(true);
    expect(saysNotFound('The backup runs nightly. The documents do not cover encryption.')).toBe(false);
    expect(saysNotFound('Run the backup first; nothing else is needed.')).toBe(false);
  });
});
