/**
 * `ragent ask` and `ragent chat` turns go straight to the conversations (no chat platform, no turn
 * runner), so they are recorded here, as platform `cli`, the same way the runner records a chat's
 * turn: once settled, whatever it ended with; a failure to record is only logged.
 */
import { randomUUID } from 'node:crypto';
import { type SettledTurn, settledOutcome, type TurnHistory } from '../../core/turn-history.ts';
import type { Conversations, TurnResult } from '../../core/types.ts';
import { toRagentError } from '../../errors.ts';
import type { Logger } from '../../logger.ts';

export interface CliTurnServices {
  conversations: Conversations;
  turnHistory: TurnHistory;
  logger: Logger;
}

/** `conversations.handle`, with the turn recorded once it settled (its result or error is passed on). */
export async function handleAndRecord(
  services: CliTurnServices,
  ...[request, onProgress, options]: Parameters<Conversations['handle']>
): Promise<TurnResult> {
  const startedAt = Date.now();
  let settled: SettledTurn;
  let thrown: unknown;
  try {
    const result = await services.conversations.handle(request, onProgress, options);
    settled = { result };
  } catch (error) {
    thrown = error;
    settled = { error: toRagentError(error) };
  }
  try {
    await services.turnHistory.recordTurn({
      ...settledOutcome(settled, `cli:${randomUUID()}`),
      platform: 'cli',
      scopes: [...request.scopes],
      threadId: request.threadId,
      user: request.user,
      question: request.text,
      startedAt: new Date(startedAt).toISOString(),
      durationMs: Date.now() - startedAt,
    });
  } catch (error) {
    services.logger.error({ err: error }, 'could not record the turn for the report; going on without it');
  }
  // The error as it was thrown: the command reports it as it always did.
  if ('error' in settled) throw thrown;
  return settled.result;
}
