/**
 * After an answer that ends as "not found" was delivered: the runner hands the thread to a person
 * (`hand-off.ts`) where the platform can mention one. Never fails the turn: a failure is logged.
 */
import type { ChatPlatform, Place, Reply } from '../core/chat-platform.ts';
import type { Logger } from '../logger.ts';
import { handOff } from './hand-off.ts';
import type { RunnerContext } from './runner-context.ts';

export async function handOffMissed(
  context: RunnerContext,
  platform: ChatPlatform,
  place: Place,
  question: string,
  reply: Reply,
  log: Logger,
): Promise<void> {
  const { handOff: hands } = platform;
  const channel = place.scopes[0];
  if (!hands || !channel || reply.kind !== 'answer' || reply.answer.outcome !== 'not-found') return;
  const link = platform.threadLink?.(place);
  try {
    await handOff(
      {
        claims: context.store,
        settings: context.store,
        turnHistory: context.turnHistory,
        logger: log,
      },
      {
        platform: platform.name,
        threadId: place.threadId,
        channel,
        fallback: hands.fallback,
        scopes: place.scopes,
        user: place.user,
        question,
        why: 'not-found',
        post: (target) => hands.post(place.threadId, target),
        ...(link ? { link } : {}),
      },
    );
  } catch (error) {
    log.warn({ err: error, threadId: place.threadId }, 'could not hand the thread to a person');
  }
}
