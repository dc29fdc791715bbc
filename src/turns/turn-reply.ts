/**
 * What a settled turn says in its thread: the answer, a question back, or — when it failed — what
 * was already written with why it stops there, else what failed and what to do, with the reference
 * to the log. A turn left to another replica says nothing here ('left').
 */
import type { Place, Reply } from '../core/chat-platform.ts';
import type { TurnResult } from '../core/types.ts';
import { toRagentError } from '../errors.ts';
import type { Logger } from '../logger.ts';
import { cutOffText } from './messages-en.ts';
import type { StreamedAnswer } from './streamed-answer.ts';

export function turnReply(
  turn: Promise<TurnResult | 'left'>,
  place: Place,
  /** What was already written (streamed) when the turn failed. */
  live: Pick<StreamedAnswer, 'text'>,
  reference: string,
  log: Logger,
): Promise<Reply | 'left'> {
  return turn.then(
    (result): Reply | 'left' =>
      result === 'left'
        ? result
        : result.kind === 'answer'
          ? { kind: 'answer', answer: result.answer, threadId: place.threadId }
          : result,
    (error: unknown): Reply => {
      const ragentError = toRagentError(error);
      log.error({ err: error, code: ragentError.code, threadId: place.threadId }, 'turn failed');
      // What was already written stays, with why it stops there.
      const text = live.text();
      if (text) return { kind: 'cut-off', text, notice: cutOffText(ragentError.message), reference };
      return { kind: 'error', error: ragentError, reference };
    },
  );
}
