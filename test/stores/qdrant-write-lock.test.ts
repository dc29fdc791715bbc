/**
 * Two replicas writing the same file into one Qdrant at once take turns through the PostgreSQL lock:
 * afterwards exactly one version is searchable and nothing else is left in the collection.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { encodeSparseQuery } from '../../src/retrieval/bm25.ts';
import { openQdrantChunkIndex } from '../../src/retrieval/qdrant-chunk-index.ts';
import { openDatabase, type PostgresDatabase } from '../../src/stores/postgres/open-database.ts';
import { withIndexWriteLock } from '../../src/stores/postgres/session-locks.ts';
import { type FakeQdrant, startFakeQdrant } from '../fakes/fake-qdrant.ts';
import { makeDocument } from '../retrieval/make-document.ts';
import { createTestDatabase } from '../support/postgres-database.ts';

let fake: FakeQdrant | undefined;
const databases: PostgresDatabase[] = [];
afterEach(async () => {
  await Promise.all(databases.splice(0).map((database) => database.close()));
  await fake?.close();
});

describe('Qdrant writes of one file across replicas', () => {
  it('take turns, leaving one version and no leftovers', async () => {
    fake = await startFakeQdrant();
    const url = await createTestDatabase();
    let inside = 0;
    let most = 0;
    const replica = async (replicaId: string) => {
      const database = await openDatabase({ url, poolSize: 2, replicaId });
      databases.push(database);
      return openQdrantChunkIndex({
        url: fake!.url,
        apiKey: undefined,
        collection: 'ragent',
        batchSize: 1,
        withNameLock: (scope, name, work) =>
          withIndexWriteLock(database, scope, name, async () => {
            inside++;
            most = Math.max(most, inside);
            try {
              return await work();
            } finally {
              inside--;
            }
          }),
      });
    };
    const [a, b] = [await replica('a'), await replica('b')];
    const words = ['alpha', 'bravo', 'charlie', 'delta'];
    const write = (index: typeof a, word: string) =>
      index.replaceDocument(
        makeDocument({
          id: word,
          name: 'guide.pdf',
          scope: 'shared',
          texts: [word, `${word} more`, `${word} most`],
        }),
      );
    await Promise.all([write(a, words[0]!), write(b, words[1]!), write(a, words[2]!), write(b, words[3]!)]);
    expect(most).toBe(1);
    const visible: string[] = [];
    for (const word of words) {
      const hits = await a.search(
        { text: word, sparse: encodeSparseQuery(word) },
        { scopes: ['shared'], k: 5 },
      );
      if (hits.length > 0) visible.push(word);
      if (hits.length > 0) expect(hits).toHaveLength(3);
    }
    expect(visible).toHaveLength(1);
    const kinds = [...fake.collection('ragent')!.points.values()].map((point) => String(point.payload.kind));
    expect(kinds.sort()).toEqual(['child', 'child', 'child', 'document', 'parent', 'parent', 'parent']);
    expect((await b.listDocuments(['shared'])).map((document) => document.id)).toEqual(visible);
  });
});
