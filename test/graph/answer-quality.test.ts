/**
 * What the port had lost from the design (issue #15), one test per point, each with a scripted
 * stand-in model (the fake Ollama, scripted by role).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { maxMessageLength } from '../../src/conversations/create-conversations.ts';
import { notCoveredText } from '../../src/graph/nodes/aggregate-answers.ts';
import { collectSources } from '../../src/graph/sources.ts';
import type { AgentContext } from '../../src/graph/state.ts';
import type { FakeChatRequest } from '../fakes/fake-ollama.ts';
import { createHarness, type Harness, requestText } from './graph-harness.ts';
import { bashrefDocument, recordedParents } from './recorded-parents.ts';

const clear = (...questions: string[]) => ({
  content: JSON.stringify({ isClear: true, questions, clarificationNeeded: '' }),
});
const unclear = (question: string) => ({
  content: JSON.stringify({ isClear: false, questions: [], clarificationNeeded: question }),
});
const toolResults = (request: FakeChatRequest) =>
  request.messages.filter((message) => message.role === 'tool').map((message) => message.content);
const system = (request: FakeChatRequest) => request.messages[0]?.content ?? '';

/** One search, then the two parents of the first two hits' sections, then an answer. */
function searchThenReadTwoParents(parentIds: [string, string]) {
  return (request: FakeChatRequest) => {
    const results = toolResults(request);
    if (results.length === 0)
      return { toolCalls: [{ name: 'search_child_chunks', arguments: { query: 'while until loop' } }] };
    if (results.length === 1)
      return {
        toolCalls: parentIds.map((id) => ({ name: 'retrieve_parent_chunks', arguments: { parent_id: id } })),
      };
    return { content: 'The while loop runs its commands as long as the test succeeds.' };
  };
}

describe('answer quality (#15)', () => {
  let harness: Harness;
  afterEach(async () => {
    await harness?.close();
  });

  it('1. marks a question unclear only for an unresolved reference, never for a new topic', async () => {
    harness = await createHarness();
    await harness.ask('What is PROMPT_COMMAND?');
    const prompt = system(harness.requestsOf('rewrite')[0]!);
    expect(prompt).not.toMatch(/refers to\s+something never mentioned/);
    expect(prompt).toContain('ONLY when the message depends on a reference ("it", "that", "the option")');
    expect(prompt).toContain('never because a topic is new');
    expect(prompt).toContain('A standalone named term or topic is a valid question');
    expect(prompt).toContain('do not add facts, do not expand acronyms');
  });

  it('2. a typical turn (one search, two long parent reads) is not compressed at 16k: the answer step sees the parent text', async () => {
    harness = await createHarness({ documents: [bashrefDocument()] });
    const [loops, conditionals] = recordedParents();
    harness.scripts.orchestrator = searchThenReadTwoParents([loops!.id, conditionals!.id]);
    const result = await harness.ask('How do the while and until loops work?');
    expect(result.kind).toBe('answer');
    expect(harness.requestsOf('compress')).toHaveLength(0);
    const final = requestText(harness.requestsOf('orchestrator').at(-1)!);
    expect(final).toContain(loops!.text.trim());
    expect(final).toContain(conditionals!.text.trim());
    if (result.kind === 'answer')
      expect(result.answer.sources).toEqual([{ file: 'bashref.pdf', docId: 'doc-bashref', pages: [17, 19] }]);
  });

  it('2. compresses the same turn in a 4k window, into structured notes that keep key sentences word for word', async () => {
    harness = await createHarness({
      documents: [bashrefDocument()],
      environment: { OLLAMA_NUM_CTX: '4096' },
    });
    const [loops, conditionals] = recordedParents();
    harness.scripts.orchestrator = searchThenReadTwoParents([loops!.id, conditionals!.id]);
    expect((await harness.ask('How do the while and until loops work?')).kind).toBe('answer');
    const compress = harness.requestsOf('compress');
    expect(compress).toHaveLength(1);
    expect(system(compress[0]!)).toContain('Key sentences (word for word)');
    expect(system(compress[0]!)).toContain('400–600 words');
    expect(requestText(compress[0]!)).toContain(loops!.text.trim());
  });

  it('3. drops hits under the relevance floor: the answer says the documents do not cover it, not found, with what was searched', async () => {
    harness = await createHarness({ environment: { RAGENT_MIN_RELEVANCE: '1000' } });
    harness.scripts.orchestrator = (request) =>
      toolResults(request).length === 0
        ? { toolCalls: [{ name: 'search_child_chunks', arguments: { query: 'while loop' } }] }
        : { content: 'The documents do not cover while loops.\n\n---\n\n**Sources:** bash.pdf (p. 1)' };
    const result = await harness.ask('How does a while loop work?');
    expect(toolResults(harness.requestsOf('orchestrator').at(-1)!)).toEqual(['NO_RELEVANT_CHUNKS']);
    expect(result.kind).toBe('answer');
    if (result.kind !== 'answer') return;
    expect(result.answer.body).toBe('The documents do not cover while loops.');
    expect(result.answer.sources).toEqual([]);
    expect(result.answer.outcome).toBe('not-found');
    expect(result.answer.markdown).toBe(
      'The documents do not cover while loops.\n\nSearched the documents for “while loop”; nothing found answers the question.',
    );
    expect(harness.requestsOf('aggregate')).toHaveLength(0);

    // With nothing found and nothing written (empty reply, empty fallback), the answer still says so.
    harness.scripts.orchestrator = (request) =>
      toolResults(request).length === 0
        ? { toolCalls: [{ name: 'search_child_chunks', arguments: { query: 'while loop' } }] }
        : { content: '' };
    harness.scripts.fallback = () => ({ content: '' });
    const silent = await harness.ask('How does an until loop work?');
    expect(silent.kind === 'answer' && silent.answer.markdown).toBe(
      `${notCoveredText}\n\nSearched the documents for “while loop”; nothing found answers the question.`,
    );
    expect(silent.kind === 'answer' && silent.answer.outcome).toBe('not-found');
  });

  it('3. keeps hits above the floor, and lists at most three hits as sources when no section was read', async () => {
    harness = await createHarness({ environment: { RAGENT_MIN_RELEVANCE: '0.5' } });
    const result = await harness.ask('How does a while loop work?');
    expect(result.kind === 'answer' && result.answer.sources).toEqual([
      { file: 'bash.pdf', docId: 'doc-bash', pages: [12, 13] },
    ]);
    const hit = (documentId: string, page: number): AgentContext => ({
      parentId: `${documentId}-${page}`,
      documentId,
      file: `${documentId}.pdf`,
      pages: [page, page],
      sectionPath: [],
      text: 'passage',
      via: 'search',
    });
    const sources = collectSources([[hit('a', 1), hit('b', 5), hit('c', 9), hit('d', 2), hit('e', 3)]]);
    expect(sources.map((source) => source.file)).toEqual(['a.pdf', 'b.pdf', 'c.pdf']);
  });

  it('4. routes an empty final reply to the fallback answer, which answers from what was read', async () => {
    harness = await createHarness();
    harness.scripts.orchestrator = (request) =>
      toolResults(request).length === 0
        ? { toolCalls: [{ name: 'search_child_chunks', arguments: { query: 'while loop' } }] }
        : { content: '' };
    const result = await harness.ask('How does a while loop work?');
    expect(harness.requestsOf('fallback')).toHaveLength(1);
    expect(requestText(harness.requestsOf('fallback')[0]!)).toContain('The while loop runs commands');
    expect(result.kind === 'answer' && result.answer.body).toBe(
      'Partial answer from what was found; the rest is missing.',
    );
    expect(harness.events.map((event) => event.type)).toContain('falling-back');
  });

  it('5. a rewrite that is invalid twice searches for the message itself (with the clarification replies)', async () => {
    harness = await createHarness();
    harness.scripts.rewrite = (request) =>
      requestText(request).includes('Clarification 1')
        ? { content: 'Sure! Here is the JSON you asked for.' }
        : unclear('Which loop do you mean: while or until?');
    expect((await harness.ask('How does it loop?')).kind).toBe('clarification');
    const result = await harness.ask('the while loop');
    expect(result.kind === 'answer' && result.answer.subQuestions).toEqual([
      'How does it loop? (the while loop)',
    ]);
    expect(harness.requestsOf('rewrite')).toHaveLength(3);
  });

  it('6. keeps the language of the question: the rewrite and answer prompts say so, the question passes unchanged', async () => {
    harness = await createHarness();
    const result = await harness.ask('Wie funktioniert eine while-Schleife?');
    expect(result.kind).toBe('answer');
    expect(system(harness.requestsOf('rewrite')[0]!)).toContain(
      'Write the questions in the language of the user',
    );
    const orchestrator = harness.requestsOf('orchestrator')[0]!;
    expect(system(orchestrator)).toContain("in the language of the user's question");
    expect(orchestrator.messages[1]?.content).toBe('Wie funktioniert eine while-Schleife?');
  });

  it('7. shows the section path once per hit and asks neither for a sources block nor to read every parent', async () => {
    harness = await createHarness();
    await harness.ask('How does a while loop work?');
    const final = harness.requestsOf('orchestrator').at(-1)!;
    const [results] = toolResults(final);
    const blocks = results!.split('\n\n');
    expect(blocks.length).toBeGreaterThan(0);
    for (const block of blocks) expect(block.match(/Looping Constructs/g)).toHaveLength(1);
    expect(blocks[0]).toMatch(
      /^Cite as: \[1\]\nParent ID: bash-loops\nFile Name: bash.pdf\nPages: 12–13\nSection: Looping Constructs\nContent: The /,
    );
    const prompt = system(final);
    expect(prompt).not.toMatch(/End with a line "Sources:"/);
    expect(prompt).toContain('Do not add a list of sources');
    expect(prompt).toMatch(/when a passage is relevant but cut\s+off, read its parent section/);
    expect(prompt).toContain('Start with the answer itself, in full sentences; no one-line fragments');
  });

  it('7. gives the aggregator the clarification replies with the user message', async () => {
    harness = await createHarness();
    harness.scripts.rewrite = (request) =>
      requestText(request).includes('Clarification 1')
        ? clear('How does the while loop work?', 'How does the until loop work?')
        : unclear('Which loops do you mean?');
    expect((await harness.ask('How do they loop?')).kind).toBe('clarification');
    expect((await harness.ask('while and until')).kind).toBe('answer');
    const aggregate = requestText(harness.requestsOf('aggregate')[0]!);
    expect(aggregate).toContain(
      'User message:\nHow do they loop?\nYou asked: Which loops do you mean?\nThe user replied: while and until',
    );
  });

  it('8. answers bad input with a short reply, never an error, and the thread works afterwards', async () => {
    harness = await createHarness();
    for (const text of ['', '   ', '\n\t']) {
      const reply = await harness.ask(text);
      expect(reply.kind).toBe('stopped');
      if (reply.kind === 'stopped') expect(reply.message).toMatch(/no question in it/);
    }
    const paste = `Why does this fail?\n${'error: something went wrong at line 12\n'.repeat(600)}`.slice(
      0,
      20_000,
    );
    const long = await harness.ask(paste);
    expect(long.kind).toBe('stopped');
    if (long.kind === 'stopped') {
      expect(long.message).toContain('20,000 characters');
      expect(long.message).toContain(`at most ${maxMessageLength.toLocaleString('en-US')}`);
    }
    // None of these reached the model.
    expect(harness.fake.chatRequests()).toHaveLength(0);
    expect((await harness.ask('How does a while loop work?')).kind).toBe('answer');
  });
});
