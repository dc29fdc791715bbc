/** Conversation checkpoints in a real PostgreSQL: shared by replicas, and pruned to the latest one. */
import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import { RagentError } from '../../src/errors.ts';
import { openPostgresCheckpointer } from '../../src/stores/postgres/postgres-checkpointer.ts';
import { type FakeOllama, startFakeOllama } from '../fakes/fake-ollama.ts';
import { defaultScripts, requestText } from '../graph/graph-harness.ts';
import { type Role, type RoleScript, roleOf, scriptByRole } from '../support/model-roles.ts';
import { createTestDatabase } from '../support/postgres-database.ts';
import { createTestServices, type TestServices } from '../support/test-services.ts';

const opened: TestServices[] = [];
let fake: FakeOllama | undefined;

afterEach(async () => {
  await Promise.all(opened.splice(0).map((services) => services.dispose()));
  await fake?.close();
});

async function twoReplicas() {
  const scripts: Record<Role, RoleScript> = {
    ...defaultScripts,
    rewrite: (request) =>
      requestText(request).includes('Clarification 1')
        ? { content: JSON.stringify({ isClear: true, questions: ['How does the bash while loop work?'] }) }
        : {
            content: JSON.stringify({
              isClear: false,
              questions: [],
              clarificationNeeded: 'Which loop do you mean: while or until?',
            }),
          },
  };
  fake = await startFakeOllama({ chat: scriptByRole(scripts) });
  const databaseUrl = await createTestDatabase();
  const replica = async (name: string) => {
    const services = await createTestServices({
      ollamaUrl: fake!.url,
      environment: { DATABASE_URL: databaseUrl, RAGENT_REPLICA_ID: name, RAGENT_EMBEDDINGS: 'none' },
    });
    opened.push(services);
    return services;
  };
  return { a: await replica('replica-a'), b: await replica('replica-b') };
}

const request = (text: string) => ({ threadId: 'slack:T1:C1:1.0', scopes: ['shared'], user: 'U1', text });

describe('Postgres checkpoints', () => {
  it('a clarification asked on replica A is resumed on replica B', async () => {
    const { a, b } = await twoReplicas();
    expect(a.dataDir).not.toBe(b.dataDir);
    expect(await a.conversations.handle(request('How does it loop?'))).toEqual({
      kind: 'clarification',
      question: 'Which loop do you mean: while or until?',
    });
    expect(await b.conversations.hasThread('slack:T1:C1:1.0')).toBe(true);
    const answered = await b.conversations.handle(request('the while loop'));
    expect(answered.kind).toBe('answer');
    if (answered.kind === 'answer')
      expect(answered.answer.subQuestions).toEqual(['How does the bash while loop work?']);
    const rewrites = fake!.chatRequests().filter((each) => roleOf(each) === 'rewrite');
    expect(rewrites).toHaveLength(2);
    expect(requestText(rewrites[1]!)).toContain('User message:\nHow does it loop?');
    expect(requestText(rewrites[1]!)).toContain('replied "the while loop"');
  });

  it('keeps only the latest checkpoint of a thread, with its blobs and writes', async () => {
    const { a, b } = await twoReplicas();
    await a.conversations.handle(request('How does it loop?'));
    await b.conversations.handle(request('the while loop'));
    await a.conversations.handle({ ...request('Another question'), threadId: 'slack:T1:C1:2.0' });
    const pool = a.database!.pool;
    const count = async (sql: string) => (await pool.query<{ count: number }>(sql)).rows[0]!.count;
    const thread = "thread_id = 'slack:T1:C1:1.0' AND checkpoint_ns = ''";
    expect(await count(`SELECT count(*)::int AS count FROM checkpoints WHERE ${thread}`)).toBe(1);
    expect(await count('SELECT count(DISTINCT thread_id)::int AS count FROM checkpoints')).toBe(2);
    expect(
      await count(
        `SELECT count(*)::int AS count FROM checkpoint_writes WHERE ${thread}
         AND checkpoint_id <> (SELECT checkpoint_id FROM checkpoints WHERE ${thread})`,
      ),
    ).toBe(0);
    const referenced = `SELECT count(*)::int AS count FROM checkpoint_blobs blob WHERE blob.${thread.replace(' AND ', ' AND blob.')}
      AND EXISTS (SELECT 1 FROM checkpoints kept, jsonb_each_text(kept.checkpoint -> 'channel_versions') version
        WHERE kept.thread_id = blob.thread_id AND kept.checkpoint_ns = blob.checkpoint_ns
          AND version.key = blob.channel AND version.value = blob.version)`;
    const all = `SELECT count(*)::int AS count FROM checkpoint_blobs blob WHERE blob.${thread.replace(' AND ', ' AND blob.')}`;
    expect(await count(referenced)).toBeGreaterThan(0);
    expect(await count(all)).toBe(await count(referenced));
    // What was kept is enough to carry on the thread on either replica: a new turn (asked back again).
    expect((await b.conversations.handle(request('And until?'))).kind).toBe('clarification');
    expect((await a.conversations.handle(request('the until loop'))).kind).toBe('answer');
  });
});

describe('Postgres checkpoint failures', () => {
  it('a checkpoint that cannot be read or saved is a database failure naming the server, not an unexpected error', async () => {
    const url = await createTestDatabase();
    // One connection, held: the saver waits for it past the pool's timeout, as under a burst of turns.
    const pool = new pg.Pool({ connectionString: url, max: 1, connectionTimeoutMillis: 200 });
    const held = await pool.connect();
    try {
      const { saver } = openPostgresCheckpointer({ pool, url });
      const failure = await saver
        .getTuple({ configurable: { thread_id: 'slack:T1:C1:1.0' } })
        .catch((error: unknown) => error);
      expect(failure).toBeInstanceOf(RagentError);
      expect((failure as RagentError).code).toBe('DATABASE_FAILED');
      expect((failure as RagentError).message).toContain('read a conversation checkpoint');
      expect((failure as RagentError).message).toContain('timeout exceeded when trying to connect');
    } finally {
      held.release();
      await pool.end();
    }
  });
});
