/**
 * The Qdrant move beyond the contract: one strong commit carrying the marker, majority reads, both
 * write locks in one fixed order, and — after a move whose clean-up failed — no later write of either
 * name (a re-ingest, a removal, a move back) ever brings the old copy back.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { Scope } from '../../src/core/types.ts';
import { createLogger } from '../../src/logger.ts';
import { encodeSparseQuery } from '../../src/retrieval/bm25.ts';
import { openQdrantChunkIndex, type QdrantChunkIndex } from '../../src/retrieval/qdrant-chunk-index.ts';
import { type FakeQdrant, startFakeQdrant } from '../fakes/fake-qdrant.ts';
import { makeDocument } from './make-document.ts';

const channel = 'slack:T1:C1';
const workspace = 'slack:T1';
const guide = (id: string, scope: Scope, word: string) =>
  makeDocument({ id, name: 'guide.pdf', scope, texts: [word] });

let fake: FakeQdrant | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

function open(
  options: { withNameLock?: Parameters<typeof openQdrantChunkIndex>[0]['withNameLock'] } = {},
): Promise<QdrantChunkIndex> {
  return openQdrantChunkIndex({
    url: fake!.url,
    apiKey: undefined,
    collection: 'ragent',
    sweepGraceMs: 0,
    logger: createLogger({ level: 'silent' }),
    ...options,
  });
}

/** Which of `words` a search in each scope alone finds. */
async function seen(index: QdrantChunkIndex, words: string[]): Promise<Record<string, string[]>> {
  const found: Record<string, string[]> = {};
  for (const scope of [channel, workspace]) {
    found[scope] = [];
    for (const word of words) {
      const hits = await index.search(
        { text: word, sparse: encodeSparseQuery(word) },
        { scopes: [scope], k: 5 },
      );
      if (hits.length > 0) found[scope].push(word);
    }
  }
  return found;
}

function documentPoints(): Array<Record<string, unknown>> {
  return [...fake!.collection('ragent')!.points.values()]
    .map((point) => point.payload)
    .filter((payload) => payload.kind === 'document');
}

/** Moves guide.pdf from the channel to the workspace with every delete after the commit failing. */
async function moveWithCleanUpFailing(index: QdrantChunkIndex): Promise<void> {
  let committed = false;
  fake!.failRequest({
    where: (request) => {
      if (request.method === 'PUT' && request.query.ordering === 'strong') committed = true;
      return committed && request.path.endsWith('/points/delete');
    },
  });
  const outcome = await index.moveDocument('v1', channel, workspace);
  expect(outcome.cleanUpPending).toBe(true);
  // Both document points are still stored; only the moved one is live.
  expect(
    documentPoints()
      .map((payload) => payload.scope)
      .sort(),
  ).toEqual([workspace, channel]);
}

describe('Qdrant: moving a document', () => {
  it('commits with one strong point write that names the old copy, and decides liveness from a majority', async () => {
    fake = await startFakeQdrant();
    const index = await open();
    await index.replaceDocument(guide('v1', channel, 'zebra'));
    const before = fake.requests.length;
    await index.moveDocument('v1', channel, workspace);
    const requests = fake.requests.slice(before);
    const commits = requests.filter(
      (request) => request.method === 'PUT' && request.query.ordering === 'strong',
    );
    expect(commits).toHaveLength(1);
    const [point] = (commits[0]!.body as { points: Array<{ payload: Record<string, unknown> }> }).points;
    expect(point?.payload).toMatchObject({
      kind: 'document',
      scope: workspace,
      moved_from_scope: channel,
      moved_from_version: expect.any(String),
    });
    const documentReads = requests.filter(
      (request) =>
        request.path.endsWith('/points/scroll') && JSON.stringify(request.body).includes('"document"'),
    );
    expect(documentReads.length).toBeGreaterThan(0);
    expect(documentReads.every((request) => request.query.consistency === 'majority')).toBe(true);
    expect(requests.some((request) => request.path.endsWith('/points/batch'))).toBe(false);
  });

  it('takes both write locks in one order, whichever way the document moves', async () => {
    fake = await startFakeQdrant();
    const locks: string[][] = [];
    const held: string[] = [];
    const index = await open({
      withNameLock: async (scope, name, work) => {
        held.push(`${scope}/${name}`);
        if (held.length === 2) locks.push([...held]);
        try {
          return await work();
        } finally {
          held.pop();
        }
      },
    });
    await index.replaceDocument(guide('v1', channel, 'zebra'));
    await index.moveDocument('v1', channel, workspace);
    await index.moveDocument('v1', workspace, channel);
    expect(locks).toEqual([
      [`${workspace}/guide.pdf`, `${channel}/guide.pdf`],
      [`${workspace}/guide.pdf`, `${channel}/guide.pdf`],
    ]);
  });

  it('after a move whose clean-up failed, a re-ingest in the new set never brings the old copy back', async () => {
    fake = await startFakeQdrant();
    const index = await open();
    await index.replaceDocument(guide('v1', channel, 'zebra'));
    await moveWithCleanUpFailing(index);
    expect(await seen(index, ['zebra', 'yak'])).toEqual({ [channel]: [], [workspace]: ['zebra'] });
    await index.replaceDocument({ ...guide('v2', workspace, 'yak'), replaces: ['v1'] });
    expect(await seen(index, ['zebra', 'yak'])).toEqual({ [channel]: [], [workspace]: ['yak'] });
    expect(documentPoints().map((payload) => payload.scope)).toEqual([workspace]);
  });

  it('after a move whose clean-up failed, removing it from the new set removes it everywhere', async () => {
    fake = await startFakeQdrant();
    const index = await open();
    await index.replaceDocument(guide('v1', channel, 'zebra'));
    await moveWithCleanUpFailing(index);
    expect(await index.removeDocument('v1', workspace)).toBe(true);
    expect(await seen(index, ['zebra'])).toEqual({ [channel]: [], [workspace]: [] });
    expect(await index.listDocuments([channel, workspace])).toEqual([]);
    expect(documentPoints()).toEqual([]);
  });

  it('after a move whose clean-up failed, moving it back and opening again leave exactly one copy', async () => {
    fake = await startFakeQdrant();
    const index = await open();
    await index.replaceDocument(guide('v1', channel, 'zebra'));
    await moveWithCleanUpFailing(index);
    await index.moveDocument('v1', workspace, channel);
    expect(await seen(index, ['zebra'])).toEqual({ [channel]: ['zebra'], [workspace]: [] });
    await open();
    expect(await seen(index, ['zebra'])).toEqual({ [channel]: ['zebra'], [workspace]: [] });
    expect(documentPoints().map((payload) => payload.scope)).toEqual([channel]);
    const chunks = [...fake.collection('ragent')!.points.values()].filter(
      (point) => point.payload.kind !== 'document',
    );
    expect(chunks.map((point) => point.payload.scope)).toEqual([channel, channel]);
  });
});

describe('Qdrant: moving a document on, before the last clean-up finished', () => {
  const otherChannel = 'slack:T1:C2';
  it('never brings back the first copy, whether the next clean-up succeeds or fails', async () => {
    for (const secondCleanUp of ['succeeds', 'fails'] as const) {
      fake = await startFakeQdrant();
      const index = await open();
      await index.replaceDocument(guide('v1', channel, 'zebra'));
      await moveWithCleanUpFailing(index);
      if (secondCleanUp === 'fails') {
        let committed = false;
        fake.failRequest({
          where: (request) => {
            if (request.method === 'PUT' && request.query.ordering === 'strong') committed = true;
            return committed && request.path.endsWith('/points/delete');
          },
        });
      }
      const outcome = await index.moveDocument('v1', workspace, otherChannel);
      expect(outcome.cleanUpPending, secondCleanUp).toBe(secondCleanUp === 'fails');
      const where = async () => {
        const found: string[] = [];
        for (const scope of [channel, workspace, otherChannel]) {
          const hits = await index.search(
            { text: 'zebra', sparse: encodeSparseQuery('zebra') },
            { scopes: [scope], k: 5 },
          );
          if (hits.length > 0) found.push(scope);
        }
        return found;
      };
      expect(await where(), secondCleanUp).toEqual([otherChannel]);
      await open();
      expect(await where(), secondCleanUp).toEqual([otherChannel]);
      expect(
        documentPoints().map((payload) => payload.scope),
        secondCleanUp,
      ).toEqual([otherChannel]);
      await fake.close();
      fake = undefined;
    }
  });
});
