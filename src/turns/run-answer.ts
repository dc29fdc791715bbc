/**
 * The answer path, the same for every platform: claim the event (dedupe) and record the turn
 * (begin → moved(location) → end), so a crash never leaves a silent thread; the first
 * acknowledgement and the acknowledgement gate (statuses of new mentions go before the graph work and
 * progress edits of earlier ones); status and progress as throttled, latest-wins edits, the first
 * text before later edits; the deadline and its "overdue" notice (a late answer still follows);
 * delivery, or what failed and what to do, with a reference to the log.
 *
 * An answer is claimed and recorded in one write (`job.claim`), acknowledged, then runs in its
 * thread's order (`ThreadOrder`: across replicas on PostgreSQL; at once for one process, whose
 * conversations queue a thread's turns); a turn taken over by another replica is neither told nor
 * ended here.
 */
import type { AnswerJob, Reply } from '../core/chat-platform.ts';
import type { ProgressEvent, TurnResult } from '../core/types.ts';
import { toRagentError } from '../errors.ts';
import type { Logger } from '../logger.ts';
import { trackAnswerPlan } from './answer-plan.ts';
import { deliver, tellAt } from './deliver-reply.ts';
import { handOffMissed } from './hand-off-missed.ts';
import { cutOffText, describeProgress, readingFileText, shuttingDownText } from './messages-en.ts';
import { recordTurn } from './record-turn.ts';
import { revealDisguisedLinks } from './reveal-disguised-links.ts';
import {
  type AttachedPlatform,
  claimAndBeginTurn,
  type RunnableAnswer,
  type RunnerContext,
  type RunningJob,
  tryStore,
} from './runner-context.ts';
import { type StreamedAnswer, streamAnswer } from './streamed-answer.ts';
import { readThreadFiles, withThreadFiles, withUnreadFiles } from './thread-files.ts';

export async function runAnswer(
  context: RunnerContext,
  attached: AttachedPlatform,
  job: RunnableAnswer,
  running: RunningJob,
  log: Logger,
) {
  const { store, conversations, gate, deadlineMs } = context;
  const { platform } = attached;
  const record = {
    key: job.key,
    platform: platform.name,
    kind: 'answer' as const,
    location: job.location,
    thread: job.thread,
  };
  if (job.adopted) running.recorded = true;
  else if (job.claim) {
    const claimed = await claimAndBeginTurn(context, record, log);
    if (claimed === 'refused') {
      job.recorded?.();
      log.debug('duplicate delivery ignored');
      return;
    }
    running.recorded = claimed === 'recorded';
  } else running.recorded = await tryStore(log, 'record the turn', () => store.beginTurn(record));
  // The platform may now confirm the delivery: from here a crash is told or taken over, never silent.
  job.recorded?.();
  // A recorded answer takes its place in its thread's order once acknowledged (and moves with it).
  const ordered = running.recorded;
  const acknowledged = gate.begin();
  let opened: Awaited<ReturnType<AnswerJob['open']>>;
  try {
    opened = await job.open();
  } catch (error) {
    acknowledged();
    const ragentError = toRagentError(error);
    log.warn({ err: error, code: ragentError.code }, 'could not acknowledge the message');
    // Tell the thread where it could be reached before the surface existed.
    await tellAt(
      context,
      platform,
      running,
      job.location,
      { kind: 'error', error: ragentError, reference: job.reference },
      log,
    );
    return;
  }
  const { surface, place } = opened;
  // Every turn of the thread searches the files attached to its questions (and no other thread does);
  // the turn is recorded with the place's own scopes (a report counts it where it was asked).
  const searched = withThreadFiles(place);
  running.surface = surface;
  acknowledged();
  await gate.clear(context.acknowledgementWaitMs);

  const live: StreamedAnswer = streamAnswer(surface, {
    statusIntervalMs: platform.statusIntervalMs,
    textIntervalMs: platform.textIntervalMs ?? 1_000,
    budget: running.budgets.budget,
    ...(running.budgets.streamBudget ? { streamBudget: running.budgets.streamBudget } : {}),
    yielding: gate.busy,
    onError: (error) => log.warn({ err: error }, 'could not update the status'),
    onMoved: (location) => {
      if (running.recorded)
        return tryStore(log, 'move the turn', () => store.moveTurn(job.key, location)).then(() => {});
      return Promise.resolve();
    },
  });
  // A stop that gives up on the turn keeps what was written and says it was cut off.
  running.abandonReply = () => {
    const text = live.text();
    return text
      ? { kind: 'cut-off', text, notice: cutOffText(shuttingDownText), reference: job.reference }
      : { kind: 'shutting-down' };
  };
  // The sub-questions as steps, where the surface shows them (task cards).
  const plan = trackAnswerPlan(surface, {
    budget: running.budgets.streamBudget ?? running.budgets.budget,
    onError: (error) => log.warn({ err: error }, 'could not show the plan'),
  });
  const started = Date.now();
  const progress = (event: ProgressEvent) => {
    plan.progress(event);
    const line = describeProgress(event);
    if (line) live.status({ kind: 'working', line });
  };
  const handle = async () => {
    delete running.release;
    // Files attached to the question are read first, in the thread's order, then searched with the rest.
    const unread = job.files?.length
      ? await readThreadFiles(
          context.ingestion,
          job.files,
          searched,
          (name) => live.announce({ kind: 'working', line: readingFileText(name) }),
          log,
        )
      : [];
    const result = await conversations.handle(
      { ...searched, text: job.text },
      progress,
      // Streamed text shows a disguised link's real target from the first piece on, on every platform.
      {
        ...(surface.showText ? { onText: (text: string) => live.write(revealDisguisedLinks(text)) } : {}),
        ...(job.readThread ? { readThread: job.readThread } : {}),
      },
    );
    return withUnreadFiles(result, unread);
  };
  const waiting = new AbortController();
  const turn: Promise<TurnResult | 'left'> = ordered
    ? store
        .runInThreadOrder(
          {
            key: job.key,
            thread: job.thread,
            location: surface.location,
            answer: {
              text: job.text,
              place: { threadId: place.threadId, scopes: [...place.scopes], user: place.user },
              reference: job.reference,
              ...(job.logFields ? { logFields: job.logFields } : {}),
            },
          },
          handle,
          {
            onQueued: (ahead) => {
              running.release = () => waiting.abort();
              progress({ type: 'queued', reason: 'thread-busy', position: ahead });
            },
            signal: waiting.signal,
            onStoreError: (error, what) =>
              log.error({ err: error }, `could not ${what}; going on without it`),
          },
        )
        .then((run) => {
          if (run.ran) return run.result;
          log.warn({ reason: run.reason }, 'turn left to the other replicas');
          return 'left' as const;
        })
    : handle();
  const asReply = (result: TurnResult | 'left'): Reply | 'left' =>
    result === 'left'
      ? result
      : result.kind === 'answer'
        ? { kind: 'answer', answer: result.answer, threadId: place.threadId }
        : result;
  const outcome = turn.then(asReply, (error: unknown): Reply => {
    const ragentError = toRagentError(error);
    log.error({ err: error, code: ragentError.code, threadId: place.threadId }, 'turn failed');
    // What was already written stays, with why it stops there.
    const text = live.text();
    if (text)
      return { kind: 'cut-off', text, notice: cutOffText(ragentError.message), reference: job.reference };
    return { kind: 'error', error: ragentError, reference: job.reference };
  });
  /** What a delivered answer was, for the feedback export; a failure to record it is only logged. */
  const recordAnswer = async (reply: Reply) => {
    if (reply.kind !== 'answer' || running.abandoned) return;
    const link = platform.threadLink?.(place);
    await tryStore(log, 'record the answer', () =>
      store.recordAnswer({
        answerId: reply.answer.id,
        threadId: place.threadId,
        question: job.text,
        answer: reply.answer.body,
        sources: reply.answer.sources,
        ...(link ? { link } : {}),
      }),
    );
  };
  let timer: NodeJS.Timeout | undefined;
  const overdue = new Promise<'overdue'>((resolve) => {
    timer = setTimeout(() => resolve('overdue'), deadlineMs);
  });
  try {
    const first = await Promise.race([outcome, overdue]);
    await live.settle();
    await plan.close(first !== 'overdue' && first !== 'left' && first.kind === 'answer');
    // Another replica holds the record now (or will adopt it): nothing is said or ended here.
    if (first === 'left') {
      running.abandoned = true;
      return;
    }
    if (first === 'overdue') {
      log.error({ seconds: deadlineMs / 1000, threadId: place.threadId }, 'turn overdue');
      await deliver(
        surface,
        running,
        { kind: 'overdue', seconds: Math.round(deadlineMs / 1000), reference: job.reference },
        log,
      );
      const late = await outcome;
      if (late === 'left') {
        running.abandoned = true;
        return;
      }
      // A late failure was already said by the overdue notice.
      if (late.kind !== 'error') await deliver(surface, running, late, log);
      await recordAnswer(late);
    } else {
      await deliver(surface, running, first, log);
      await recordAnswer(first);
      await handOffMissed(context, platform, place, job.text, first, log);
      log.info({ kind: first.kind, ms: Date.now() - started, threadId: place.threadId }, 'turn done');
    }
  } finally {
    clearTimeout(timer);
    if (!running.abandoned) await context.endTurn(job.key);
    await recordTurn(context, { job, place, platform, running, startedAt: started }, turn, log);
  }
}
