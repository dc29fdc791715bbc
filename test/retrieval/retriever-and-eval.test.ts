import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { OllamaEmbedder } from '../../src/models/ollama-embedder.ts';
import { createRetriever } from '../../src/retrieval/create-retriever.ts';
import { evaluateRetrieval, parseQuestions, percentile } from '../../src/retrieval/evaluation.ts';
import { openSqliteChunkIndex, type SqliteChunkIndex } from '../../src/retrieval/sqlite-chunk-index.ts';
import { type FakeOllama, startFakeOllama } from '../fakes/fake-ollama.ts';
import { makeDocument } from './make-document.ts';

const manual = [
  'The while loop repeats   its body as long as the condition holds.',
  'Use trap to run commands when the shell receives a signal.',
  'An array variable holds several values indexed by number.',
];

describe('retriever and eval metrics', () => {
  let directory: string;
  let index: SqliteChunkIndex;
  let fake: FakeOllama | undefined;
  beforeEach(async () => {
    directory = mkdtempSync(path.join(tmpdir(), 'ragent-eval-'));
    index = openSqliteChunkIndex({ file: path.join(directory, 'index.sqlite') });
  });
  afterEach(async () => {
    await index.close();
    await fake?.close();
    fake = undefined;
    rmSync(directory, { recursive: true, force: true });
  });

  it('searches with BM25 only, and never without scopes', async () => {
    await index.replaceDocument(makeDocument({ id: 'bash', scope: 'shared', texts: manual }));
    const retriever = createRetriever({ index, embedder: undefined });
    const hits = await retriever.search('how do I react to signals?', { scopes: ['shared'], k: 2 });
    expect(hits[0]?.child.id).toBe('bash:c1');
    expect(await retriever.search('signals', { scopes: [], k: 2 })).toEqual([]);
    expect(await retriever.getParent('bash:p1', [])).toBeUndefined();
    expect((await retriever.getParent('bash:p1', ['shared']))?.text).toContain('trap');
  });

  it('adds a dense query from the embedder and checks the index model first', async () => {
    fake = await startFakeOllama({ embedDimension: 16 });
    const embedder = new OllamaEmbedder({
      baseUrl: fake.url,
      model: 'qwen3-embedding:0.6b',
      batchSize: 8,
      timeoutMs: 2000,
    });
    const dense = await embedder.embed(manual);
    await index.replaceDocument(
      makeDocument({
        id: 'bash',
        scope: 'shared',
        texts: manual,
        dense: (_text, at) => dense[at]!,
        model: 'qwen3-embedding:0.6b',
      }),
    );
    const retriever = createRetriever({ index, embedder });
    const hits = await retriever.search('array variable values', { scopes: ['shared'], k: 3 });
    expect(hits[0]?.child.id).toBe('bash:c2');
    expect(fake.embedRequests().at(-1)?.input).toEqual(['array variable values']);

    const other = createRetriever({
      index,
      embedder: new OllamaEmbedder({
        baseUrl: fake.url,
        model: 'other-model',
        batchSize: 8,
        timeoutMs: 2000,
      }),
    });
    await expect(other.search('array', { scopes: ['shared'], k: 3 })).rejects.toMatchObject({
      code: 'INDEX_MODEL_MISMATCH',
    });
  });

  it('finds a child through the dense half when none of the query words are in it (hybrid, RRF)', async () => {
    // The embedder puts the loop passage and an everyday-words question about repeating next to each
    // other; every other text gets the usual hashed bag of words.
    const repeating = (text: string) => /repeats|over and over/.test(text);
    fake = await startFakeOllama({
      embedDimension: 16,
      embed: (text, dimension) =>
        repeating(text) ? Array.from({ length: dimension }, (_, at) => (at === 0 ? 1 : 0)) : undefined,
    });
    const embedder = new OllamaEmbedder({
      baseUrl: fake.url,
      model: 'qwen3-embedding:0.6b',
      batchSize: 8,
      timeoutMs: 2000,
    });
    const texts = [...manual, 'Keep a copy of important files before doing something risky.'];
    const dense = await embedder.embed(texts);
    await index.replaceDocument(
      makeDocument({
        id: 'bash',
        scope: 'shared',
        texts,
        dense: (_text, at) => dense[at]!,
        model: 'qwen3-embedding:0.6b',
      }),
    );
    const question = 'how to keep doing something over and over';
    // No word of the question is in the loop passage: BM25 alone ranks the "keep … doing something" text.
    const sparseOnly = await createRetriever({ index, embedder: undefined }).search(question, {
      scopes: ['shared'],
      k: 3,
    });
    expect(sparseOnly.map((hit) => hit.child.id)).not.toContain('bash:c0');
    const hybrid = await createRetriever({ index, embedder }).search(question, { scopes: ['shared'], k: 3 });
    expect(hybrid.map((hit) => hit.child.id)).toContain('bash:c0');
    expect(fake.embedRequests().at(-1)?.input).toEqual([question]);
  });

  it('computes hit@k, parent hit@k and @1, doc@k, MRR, tokens read and the held-out split as defined', async () => {
    await index.replaceDocument(
      makeDocument({ id: 'bash', name: 'bash.pdf', scope: 'shared', texts: manual }),
    );
    const questions = parseQuestions(
      [
        // hit at rank 1, evidence with different case and spacing
        JSON.stringify({ question: 'trap signal', evidence: ['Use TRAP to run'], doc: 'bash.pdf' }),
        // only the parent holds "Parent of:"; the child ranks first
        JSON.stringify({ question: 'array indexed', evidence: ['parent of: an array'], doc: 'other.pdf' }),
        // found at rank 2, whitespace collapsed in the child text
        JSON.stringify({
          question: 'shell receives signal loop',
          evidence: ['repeats its body'],
          heldOut: true,
        }),
        // no evidence: latency only
        JSON.stringify({ question: 'anything' }),
        '',
      ].join('\n'),
    );
    const retriever = createRetriever({ index, embedder: undefined });
    const report = await evaluateRetrieval(retriever, questions, {
      scopes: ['shared'],
      k: 2,
      countTokens: (text) => text.length,
    });
    expect(
      report.items.map((item) => [item.hit, item.parentHit, item.parentHitAt1, item.docHit, item.rank]),
    ).toEqual([
      [true, true, true, true, 1],
      [false, true, true, false, null],
      // found at rank 2 only: the first child's parent does not hold it
      [true, true, false, null, 2],
      [null, null, null, null, null],
    ]);
    expect(report.hitAtK).toBeCloseTo(2 / 3);
    expect(report.parentHitAtK).toBe(1);
    expect(report.parentHitAt1).toBeCloseTo(2 / 3);
    expect(report.docAtK).toBe(0.5);
    expect(report.mrr).toBeCloseTo((1 + 0 + 0.5) / 3);
    // Tokens read: the children, or their parents ("Parent of: " + the child's text each).
    const first = report.items[0]!;
    expect(first.childTokens).toBeGreaterThan(0);
    expect(first.parentTokens - first.childTokens).toBe(first.top.length * 'Parent of: '.length);
    expect(report.items[3]).toMatchObject({ childTokens: 0, parentTokens: 0 });
    // Both: the children plus the first child's parent (hit when either holds the evidence).
    expect(report.items.map((item) => item.bothHit)).toEqual([true, true, true, null]);
    expect(first.bothTokens - first.childTokens).toBe('Parent of: '.length + manual[1]!.length);
    expect(report.bothHitAtK).toBe(1);
    expect(report.childTokens).toBeCloseTo(
      report.items.reduce((sum, item) => sum + item.childTokens, 0) / report.items.length,
    );
    expect(report.splits?.heldOut).toMatchObject({ questions: 1, hitAtK: 1, parentHitAt1: 0, mrr: 0.5 });
    expect(report.splits?.tuning).toMatchObject({ questions: 3, hitAtK: 0.5, parentHitAt1: 1, mrr: 0.5 });
    expect(Object.keys(report)).toEqual([
      'hitAtK',
      'parentHitAtK',
      'parentHitAt1',
      'bothHitAtK',
      'docAtK',
      'mrr',
      'childTokens',
      'parentTokens',
      'bothTokens',
      'p50Ms',
      'p95Ms',
      'splits',
      'items',
    ]);
  });

  it('rejects malformed question lines with the line number', () => {
    expect(() => parseQuestions('{"question": "ok"}\n{oops')).toThrow(/Line 2/);
    expect(() => parseQuestions('{"evidence": ["x"]}')).toThrow(/Line 1/);
    expect(percentile([5, 1, 3, 2, 4], 0.5)).toBe(3);
    expect(percentile([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20], 0.95)).toBe(
      19,
    );
  });
});
