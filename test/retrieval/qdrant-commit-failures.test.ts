/**
 * The Qdrant commit under failure: a failure injected at every request of a replace (applied or not,
 * as a request that failed after the server applied it), and a lagging replica. At every moment a
 * search sees exactly one version of the file; leftovers are swept by the next write and at open.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { createLogger } from '../../src/logger.ts';
import { encodeSparseQuery } from '../../src/retrieval/bm25.ts';
import { openQdrantChunkIndex, type QdrantChunkIndex } from '../../src/retrieval/qdrant-chunk-index.ts';
import { type FakeQdrant, type FakeQdrantRequest, startFakeQdrant } from '../fakes/fake-qdrant.ts';
import { makeDocument } from './make-document.ts';

const query = (text: string) => ({ text, sparse: encodeSparseQuery(text) });
const guide = (id: string, word: string, replaces: string[] = []) =>
  makeDocument({ id, name: 'guide.pdf', scope: 'shared', texts: [word], replaces });

let fake: FakeQdrant | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

async function open(options: { sweepGraceMs?: number; warnings?: string[] } = {}): Promise<QdrantChunkIndex> {
  const warnings = options.warnings;
  const logger = createLogger({
    level: 'warn',
    destination: { write: (line: string) => warnings?.push(JSON.parse(line).msg) },
  });
  return openQdrantChunkIndex({
    url: fake!.url,
    apiKey: undefined,
    collection: 'ragent',
    logger,
    sweepGraceMs: options.sweepGraceMs ?? 0,
  });
}

async function visibleVersions(index: QdrantChunkIndex, words: string[]): Promise<string[]> {
  const found: string[] = [];
  for (const word of words) {
    if ((await index.search(query(word), { scopes: ['shared'], k: 5 })).length > 0) found.push(word);
  }
  return found;
}

function pointsByKind(): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const point of fake!.collection('ragent')!.points.values()) {
    const kind = String(point.payload.kind);
    counts[kind] = (counts[kind] ?? 0) + 1;
  }
  return counts;
}

/** The requests one replace of an existing file makes, in order. */
async function requestsOfOneReplace(): Promise<FakeQdrantRequest[]> {
  fake = await startFakeQdrant();
  const index = await open();
  await index.replaceDocument(guide('v1', 'zebra'));
  const before = fake.requests.length;
  await index.replaceDocument(guide('v2', 'yak', ['v1']));
  const requests = fake.requests.slice(before);
  await fake.close();
  return requests;
}

describe('Qdrant commit under failure', () => {
  it('writes the commit with ordering strong and decides live versions with consistency majority', async () => {
    const requests = await requestsOfOneReplace();
    const commit = requests.filter(
      (request) => request.query.ordering === 'strong' && request.method === 'PUT',
    );
    expect(commit).toHaveLength(1);
    expect(commit[0]!.query.wait).toBe('true');
    expect(
      (commit[0]!.body as { points: Array<{ payload: { kind: string } }> }).points[0]!.payload.kind,
    ).toBe('document');
    const documentReads = requests.filter(
      (request) =>
        request.path.endsWith('/points/scroll') && JSON.stringify(request.body).includes('"document"'),
    );
    expect(documentReads.length).toBeGreaterThan(0);
    expect(documentReads.every((request) => request.query.consistency === 'majority')).toBe(true);
    // No batch: Qdrant would run its operations one by one without rolling back.
    expect(requests.some((request) => request.path.endsWith('/points/batch'))).toBe(false);
  });

  it('creates the collection with the configured shards, replication and write consistency', async () => {
    fake = await startFakeQdrant();
    const index = await openQdrantChunkIndex({
      url: fake.url,
      apiKey: undefined,
      collection: 'ragent',
      shards: 6,
      replicationFactor: 2,
      writeConsistency: 2,
    });
    await index.replaceDocument(guide('v1', 'zebra'));
    const create = fake.requests.find(
      (request) => request.method === 'PUT' && request.path === '/collections/ragent',
    );
    expect(create?.body).toMatchObject({
      shard_number: 6,
      replication_factor: 2,
      write_consistency_factor: 2,
    });
  });

  it('shows exactly one version whatever request fails, says what really happened, and sweeps the rest', async () => {
    const steps = (await requestsOfOneReplace()).length;
    expect(steps).toBeGreaterThanOrEqual(6);
    for (const apply of ['none', 'all'] as const) {
      for (let step = 0; step < steps; step++) {
        fake = await startFakeQdrant();
        const warnings: string[] = [];
        const index = await open({ warnings });
        await index.replaceDocument(guide('v1', 'zebra'));
        let seen = 0;
        fake.failRequest({ where: () => seen++ === step, apply });
        const outcome: { code?: string; message: string } | 'written' = await index
          .replaceDocument(guide('v2', 'yak', ['v1']))
          .then(
            () => 'written' as const,
            (error: { code?: string; message: string }) => error,
          );
        const visible = await visibleVersions(index, ['zebra', 'yak']);
        const label = `step ${step} (${fake.requests.at(-1)?.path}), apply ${apply}`;
        expect(visible, label).toHaveLength(1);
        expect(
          (await index.listDocuments(['shared'])).map((document) => document.id),
          label,
        ).toEqual(visible[0] === 'yak' ? ['v2'] : ['v1']);
        if (outcome === 'written') {
          expect(visible, label).toEqual(['yak']);
        } else {
          expect(outcome, label).toMatchObject({ code: 'QDRANT_FAILED' });
          expect(visible, label).toEqual(['zebra']);
          expect(outcome.message, label).toContain('the previous version (if any) is still the one searched');
        }
        expect(warnings.join('\n'), label).not.toMatch(/failed to write/);

        // A process that opens the index sweeps what was left; the next write leaves only itself.
        await open();
        await index.replaceDocument(guide('v3', 'okapi', [visible[0] === 'yak' ? 'v2' : 'v1']));
        expect(await visibleVersions(index, ['zebra', 'yak', 'okapi']), label).toEqual(['okapi']);
        expect(pointsByKind(), label).toEqual({ document: 1, parent: 1, child: 1 });
        await fake.close();
        fake = undefined;
      }
    }
  });

  it('a clean-up failure after the commit is a success with a warning; the next write sweeps it', async () => {
    fake = await startFakeQdrant();
    const warnings: string[] = [];
    const index = await open({ warnings });
    await index.replaceDocument(guide('v1', 'zebra'));
    fake.failRequest({ suffix: '/points/delete', after: 0 });
    fake.failRequest({ suffix: '/points/delete', after: 0 });
    let commits = 0;
    fake.failRequest({ where: (request) => request.query.ordering === 'strong' && ++commits > 99 });
    // The first delete is the sweep before writing (a warning too); the second the clean-up.
    await index.replaceDocument(guide('v2', 'yak', ['v1']));
    expect(warnings.at(-1)).toMatch(/new version is live, but removing the old one failed/);
    expect(await visibleVersions(index, ['zebra', 'yak'])).toEqual(['yak']);
    expect(pointsByKind()).toEqual({ document: 2, parent: 2, child: 2 });
    // Leftovers never count for good: the next write of the file (here a re-ingest) removes them.
    await index.replaceDocument(guide('v3', 'okapi', ['v2']));
    expect(pointsByKind()).toEqual({ document: 1, parent: 1, child: 1 });
  });

  it('a crash-recovery sweep at open spares a write still in progress elsewhere (grace period)', async () => {
    fake = await startFakeQdrant();
    const index = await open();
    await index.replaceDocument(guide('v1', 'zebra'));
    fake.failRequest({ where: (request) => request.query.ordering === 'strong' });
    await expect(index.replaceDocument(guide('v2', 'yak', ['v1']))).rejects.toMatchObject({
      code: 'QDRANT_FAILED',
    });
    expect(pointsByKind()).toEqual({ document: 1, parent: 2, child: 2 });
    await open({ sweepGraceMs: 60_000 });
    expect(pointsByKind()).toEqual({ document: 1, parent: 2, child: 2 });
    await open({ sweepGraceMs: 0 });
    expect(pointsByKind()).toEqual({ document: 1, parent: 1, child: 1 });
  });

  it('removes a file as one write; a failed chunk clean-up is swept later', async () => {
    fake = await startFakeQdrant();
    const warnings: string[] = [];
    const index = await open({ warnings });
    await index.replaceDocument(guide('v1', 'zebra'));
    let deletes = 0;
    fake.failRequest({ where: (request) => request.path.endsWith('/points/delete') && ++deletes === 2 });
    expect(await index.removeDocument('v1', 'shared')).toBe(true);
    expect(warnings.at(-1)).toMatch(/document is removed, but deleting its chunks failed/);
    expect(await visibleVersions(index, ['zebra'])).toEqual([]);
    expect(await index.listDocuments(['shared'])).toEqual([]);
    await open();
    expect(pointsByKind()).toEqual({});
  });

  it('a lagging replica never brings an old version back', async () => {
    fake = await startFakeQdrant();
    const index = await open();
    await index.replaceDocument(guide('v1', 'zebra'));
    fake.lag();
    await index.replaceDocument(guide('v2', 'yak', ['v1']));
    // The stale copy still holds v1's chunks, but the live version comes from a majority: v2.
    expect(await visibleVersions(index, ['zebra'])).toEqual([]);
    expect((await index.listDocuments(['shared'])).map((document) => document.id)).toEqual(['v2']);
    fake.catchUp();
    expect(await visibleVersions(index, ['zebra', 'yak'])).toEqual(['yak']);
    const versionReads = fake.requests.filter(
      (request) =>
        request.path.endsWith('/points/scroll') && JSON.stringify(request.body).includes('"document"'),
    );
    expect(versionReads.every((request) => request.query.consistency === 'majority')).toBe(true);
  });
});
