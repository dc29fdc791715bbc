import { afterEach, describe, expect, it } from 'vitest';
import type { ModelCallRecord } from '../../src/core/types.ts';
import { createHarness, type Harness } from './graph-harness.ts';

describe('model call trace', () => {
  let harness: Harness;
  afterEach(async () => {
    await harness?.close();
  });

  it('records every attempt a turn makes, a failed one with its error, and nothing for other turns', async () => {
    harness = await createHarness();
    const calls: ModelCallRecord[] = [];
    harness.fake.failAlways('http-404-model');
    await expect(
      harness.conversations.handle(
        { threadId: 'cli:trace', scopes: ['shared'], user: 'tester', text: 'Loops?' },
        undefined,
        { onModelCall: (call) => calls.push(call) },
      ),
    ).rejects.toMatchObject({ code: 'OLLAMA_MODEL_MISSING' });
    expect(calls).toHaveLength(1);
    expect(calls[0]).toMatchObject({ purpose: 'rewrite', error: expect.stringMatching(/not available/) });
    expect(calls[0]?.reply).toBeUndefined();

    harness.fake.failAlways(undefined);
    // A listener that throws does not end the turn; a turn without a listener records nothing.
    const answered = await harness.conversations.handle(
      { threadId: 'cli:trace', scopes: ['shared'], user: 'tester', text: 'Loops?' },
      undefined,
      {
        onModelCall: () => {
          throw new Error('disk full');
        },
      },
    );
    expect(answered.kind).toBe('answer');
    expect((await harness.ask('Loops again?')).kind).toBe('answer');
    expect(calls).toHaveLength(1);
  });
});
