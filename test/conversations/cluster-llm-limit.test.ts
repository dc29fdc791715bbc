/**
 * RAGENT_LLM_CLUSTER_CONCURRENCY: two replicas (each its own services and pools on one real PostgreSQL)
 * with a per-replica limit of 2 run at most 1 model call at once together, and say "queued" while waiting.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { ProgressEvent } from '../../src/core/types.ts';
import { defaultScripts } from '../discord/discord-harness.ts';
import { type FakeOllama, startFakeOllama } from '../fakes/fake-ollama.ts';
import { type Role, type RoleScript, scriptByRole } from '../support/model-roles.ts';
import { createTestDatabase } from '../support/postgres-database.ts';
import { createTestServices, type TestServices } from '../support/test-services.ts';

const opened: TestServices[] = [];
let ollama: FakeOllama | undefined;

afterEach(async () => {
  await Promise.all(opened.splice(0).map((services) => services.dispose()));
  await ollama?.close();
});

describe('cluster-wide LLM limit', () => {
  it('keeps the model calls of all replicas within RAGENT_LLM_CLUSTER_CONCURRENCY', async () => {
    const scripts: Record<Role, RoleScript> = { ...defaultScripts };
    const rewrite = scripts.rewrite;
    // Slow enough that the four turns' calls would overlap without the cluster limit.
    scripts.rewrite = async (request, call) => ({ ...(await rewrite(request, call)), delayMs: 60 });
    ollama = await startFakeOllama({ chat: scriptByRole(scripts) });
    const url = await createTestDatabase();
    for (const id of ['a', 'b']) {
      opened.push(
        await createTestServices({
          ollamaUrl: ollama.url,
          environment: {
            DATABASE_URL: url,
            RAGENT_REPLICA_ID: id,
            RAGENT_LLM_CONCURRENCY: '2',
            RAGENT_LLM_CLUSTER_CONCURRENCY: '1',
          },
        }),
      );
    }
    const events: ProgressEvent[] = [];
    const results = await Promise.all(
      opened.flatMap((services, replica) =>
        [0, 1].map((turn) =>
          services.conversations.handle(
            {
              threadId: `cli:cluster-${replica}-${turn}`,
              scopes: ['shared'],
              user: 'tester',
              text: `Question ${turn} on replica ${replica}?`,
            },
            (event) => events.push(event),
          ),
        ),
      ),
    );
    expect(results.map((result) => result.kind)).toEqual(['answer', 'answer', 'answer', 'answer']);
    expect(ollama.maxConcurrentChats()).toBe(1);
    expect(events).toContainEqual({ type: 'queued', reason: 'llm-busy' });
  });
});
