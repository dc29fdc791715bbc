/**
 * One conversational turn in a Slack thread: show a status at once, follow the progress, and post
 * exactly one outcome — the answer, the clarifying question, the reason the turn stopped, or a short
 * error (what happened, what to do, a reference to the log). Never a silent thread: if the turn
 * outlives its deadline, the thread is told, and a late answer is still posted.
 */
import type { TurnResult } from '../../core/types.ts';
import { describeError, RagentError, toRagentError } from '../../errors.ts';
import { describeProgress } from '../shared/progress-text.ts';
import type { TurnRecord } from '../shared/turns-in-flight.ts';
import { renderAnswer, renderMarkdown } from './render-answer.ts';
import { type SlackContext, slackThreadId, workspaceScopes } from './slack-context.ts';
import type { SlackMessage } from './slack-message.ts';
import { errorNotice, plainNotice } from './slack-notices.ts';
import { createThreadStatus } from './thread-status.ts';

export interface TurnInput {
  teamId: string;
  channel: string;
  threadTs: string;
  user: string;
  text: string;
  /** Identifies the triggering event in error notices (the event id, channel and ts). */
  reference: string;
  /** Slack's event id, for the log. */
  eventId: string;
  /** Called once the thread shows the status (see AcknowledgementGate). */
  statusPosted?: () => void;
  /** The turn's record in `bot.sqlite`, ended once the outcome is posted (see turns-in-flight). */
  record: TurnRecord;
}

/** Extra time the adapter grants beyond the conversation's own deadline before telling the thread. */
const deadlineGraceMs = 10_000;
/** At most this long a turn lets newer mentions' statuses go first. */
const maxStatusPriorityMs = 1_000;

export async function runTurn(context: SlackContext, input: TurnInput): Promise<void> {
  const { services, logger } = context;
  const threadId = slackThreadId(input.teamId, input.channel, input.threadTs);
  const log = logger.child({ eventId: input.eventId, threadId, reference: input.reference });
  const status = createThreadStatus({
    client: context.client,
    channel: input.channel,
    threadTs: input.threadTs,
    throttleMs: context.statusThrottleMs,
    logger: log,
    assistantStatusSupport: context.assistantStatusSupport,
    editBudget: context.editBudget,
  });
  const placeholderTs = await status
    .start()
    .catch((error: unknown) => log.warn({ err: error }, 'could not show the status'));
  if (placeholderTs) input.record.moved({ ...slackTurnLocation(input), placeholderTs });
  input.statusPosted?.();
  await context.statusGate.clear(maxStatusPriorityMs);

  const started = Date.now();
  const turn = services.conversations.handle(
    { threadId, scopes: workspaceScopes(input.teamId), user: input.user, text: input.text },
    (event) => {
      const line = describeProgress(event);
      if (line) status.update(line);
    },
  );
  const deadline = services.config.limits.answerTimeoutMs + deadlineGraceMs;
  let timer: NodeJS.Timeout | undefined;
  const overdue = new Promise<'overdue'>((resolve) => {
    timer = setTimeout(() => resolve('overdue'), deadline);
  });
  try {
    const first = await Promise.race([turn, overdue]);
    if (first === 'overdue') {
      log.error({ seconds: deadline / 1000 }, 'turn overdue');
      await status.finish([errorNotice(overdueError(deadline), input.reference)]);
      await status.finish(await outcome(turn));
      return;
    }
    await status.finish(render(first));
    log.info({ kind: first.kind, ms: Date.now() - started }, 'turn done');
  } catch (error) {
    const ragentError = toRagentError(error);
    log.error({ err: error, code: ragentError.code }, 'turn failed');
    await status.finish([errorNotice(ragentError, input.reference)]);
  } finally {
    clearTimeout(timer);
    input.record.end();
  }

  function render(result: TurnResult): SlackMessage[] {
    switch (result.kind) {
      case 'answer':
        return renderAnswer(result.answer, threadId);
      case 'clarification':
        return renderMarkdown(`🤔 ${result.question}\n\n_Reply in this thread; no need to mention me._`);
      case 'stopped':
        return [plainNotice(result.message, ':octagonal_sign:')];
    }
  }

  async function outcome(late: Promise<TurnResult>): Promise<SlackMessage[]> {
    try {
      return render(await late);
    } catch (error) {
      log.error({ err: error, detail: describeError(error) }, 'overdue turn failed');
      return [];
    }
  }
}

/** Where a turn's thread is, as recorded in `bot.sqlite` (`placeholderTs` once posted). */
export function slackTurnLocation(input: Pick<TurnInput, 'teamId' | 'channel' | 'threadTs'>) {
  return { teamId: input.teamId, channel: input.channel, threadTs: input.threadTs };
}

function overdueError(deadlineMs: number): RagentError {
  return new RagentError(
    'ANSWER_TIMEOUT',
    `No answer after ${Math.round(deadlineMs / 1000)} seconds — the model is slow or stuck. ` +
      'I will still post the answer here if it arrives; otherwise ask again, perhaps more specifically.',
  );
}
