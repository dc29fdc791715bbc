/**
 * What a settled turn says in its thread (turnReply): the answer with its thread, a question back
 * as it is, nothing for a turn left to another replica, and for a failure what was written with why
 * it stops there — or what failed, with the log reference.
 */
import { describe, expect, it } from 'vitest';
import type { Answer, TurnResult } from '../../src/core/types.ts';
import { errorMessages } from '../../src/error-messages-en.ts';
import { RagentError } from '../../src/errors.ts';
import { createLogger } from '../../src/logger.ts';
import { cutOffText } from '../../src/turns/messages-en.ts';
import { turnReply } from '../../src/turns/turn-reply.ts';

const place = { threadId: 'test:T1:C1:1.0', scopes: ['shared'], user: 'U1' };
const log = createLogger({ level: 'silent' });
const written = (text: string) => ({ text: () => text });

describe('turnReply', () => {
  it('gives an answer its thread, and a question back as it is', async () => {
    const answer = { id: 'a1', body: 'Yes.' } as Answer;
    expect(
      await turnReply(Promise.resolve({ kind: 'answer', answer }), place, written(''), 'R1', log),
    ).toEqual({
      kind: 'answer',
      answer,
      threadId: place.threadId,
    });
    const asked: TurnResult = { kind: 'clarification', question: 'Which release?' };
    expect(await turnReply(Promise.resolve(asked), place, written(''), 'R1', log)).toEqual(asked);
  });

  it('says nothing for a turn left to another replica', async () => {
    expect(await turnReply(Promise.resolve('left'), place, written('partial'), 'R1', log)).toBe('left');
  });

  it('says what failed, with the reference, when nothing was written yet', async () => {
    const error = new RagentError('INTERNAL', errorMessages.INTERNAL.answerWithoutResult());
    expect(await turnReply(Promise.reject(error), place, written(''), 'R7', log)).toEqual({
      kind: 'error',
      error,
      reference: 'R7',
    });
  });

  it('keeps what was written, with why it stops there', async () => {
    const error = new RagentError('INTERNAL', errorMessages.INTERNAL.answerWithoutResult());
    expect(await turnReply(Promise.reject(error), place, written('The first half'), 'R7', log)).toEqual({
      kind: 'cut-off',
      text: 'The first half',
      notice: cutOffText(error.message),
      reference: 'R7',
    });
  });

  it('words an unexpected failure as the catalogue does', async () => {
    const reply = await turnReply(Promise.reject(new Error('boom')), place, written(''), 'R8', log);
    expect(reply).toMatchObject({ kind: 'error', reference: 'R8', error: { code: 'INTERNAL' } });
    expect(reply !== 'left' && reply.kind === 'error' && reply.error.message).not.toContain('boom');
  });
});
