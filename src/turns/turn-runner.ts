/**
 * The one turn runner of the process, created by the composition root and shared by every chat
 * platform. A platform attaches with a small port (`ChatPlatform`) and hands over jobs — an answer
 * turn or an ingest — with a way to open its reply surface; the runner owns the rest, the same for
 * every platform:
 *
 * - claiming the event (dedupe through the coordination store);
 * - the turn record (begin → moved(location) → end), so a crash never leaves a silent thread: the
 *   next start adopts orphaned turns and tells each thread (ask again / what was not ingested);
 * - the first acknowledgement and the acknowledgement gate: statuses of new mentions go before the
 *   graph work (and progress edits) of earlier ones;
 * - status and progress as throttled, latest-wins edits under one rate budget per platform (and one
 *   for appends to native text streams), the first text of an answer before later edits;
 * - the deadline and the "overdue" notice (a late answer still follows);
 * - delivery and failure messages (what happened, what to do, a reference to the log);
 * - stopping: take no new work, drain with ONE bounded timeout, tell abandoned threads (bounded) —
 *   a thread that could not be told keeps its record, so the next start tells it.
 *
 * With replicas (a store shared through PostgreSQL, `runInThreadOrder` present) also:
 * - a thread's turns run one at a time in the platform's order across replicas: an answer is claimed
 *   and recorded in one write (`job.claim`), acknowledged, then waits in its thread's order;
 * - a sweeper (`sweepIntervalMs`) adopts the turns of dead replicas: their threads are told "ask
 *   again" (each by exactly one replica), their queued answers answered here;
 * - losing the shared store (`onLost`) stops taking work: claims are refused, every platform is told
 *   to `stopTaking`, answers in flight finish; turns still waiting are left to the other replicas.
 *
 * Storage failures never silence a thread: a failed claim counts as a first claim (at worst a
 * duplicate delivery is answered twice), a failed begin runs the turn unrecorded, and a failed end
 * is retried with the next store write and at stop (so no false "restarted" notice follows).
 */
import type {
  AnswerJob,
  ChatPlatform,
  IngestFileState,
  IngestJob,
  PlatformTurns,
  Reply,
  ReplySurface,
  StopReport,
  TurnRunner,
} from '../core/chat-platform.ts';
import type { CoordinationStore, QueuedAnswer, TurnInFlight, TurnKind } from '../core/coordination-store.ts';
import type { Conversations, Ingestion, ProgressEvent, TurnResult } from '../core/types.ts';
import { describeError, toRagentError } from '../errors.ts';
import type { Logger } from '../logger.ts';
import { type AcknowledgementGate, createAcknowledgementGate } from './acknowledgement-gate.ts';
import { ingestLocation, interruptedIngest, interruptedNow } from './ingest-location.ts';
import { cutOffText, describeProgress, shuttingDownText } from './messages-en.ts';
import { type StreamedAnswer, streamAnswer } from './streamed-answer.ts';
import { createRateBudget, type RateBudget, throttleStatus } from './throttled-status.ts';

export interface TurnRunnerOptions {
  store: CoordinationStore;
  conversations: Conversations;
  ingestion: Ingestion;
  logger: Logger;
  /** The conversation's own deadline; the overdue notice comes `deadlineGraceMs` later. */
  answerTimeoutMs: number;
  /** Default 10 s. */
  deadlineGraceMs?: number;
  /** At most this long a job lets newer acknowledgements go first (default 1 s). */
  acknowledgementWaitMs?: number;
  /** How long a stop may spend telling abandoned threads (default 3 s). */
  noticeTimeoutMs?: number;
  /** This replica's share of each platform's edit budget (1 / live replicas; default 1: alone). */
  budgetShare?: () => number;
  /**
   * Replicas: how often to sweep for turns of dead replicas (tell their threads, answer their queued
   * turns), per platform once it told its orphans at start. Unset: only at start (one process).
   */
  sweepIntervalMs?: number;
}

/** An answer to run: from a platform, or adopted from a dead replica (recorded already, owned here). */
interface RunnableAnswer extends AnswerJob {
  adopted?: boolean;
}

/** A job in flight, as a stop sees it. */
interface RunningJob {
  platform: string;
  kind: TurnKind;
  key: string;
  done: Promise<void>;
  /** Set once the thread shows the status; a stop tells abandoned jobs through it. */
  surface?: ReplySurface;
  /** Whether the turn record was begun (so a stop that cannot tell the thread leaves it to the next start). */
  recorded: boolean;
  /** A stop gave up on it: its outcome is not delivered, its record is left to the stop. */
  abandoned: boolean;
  /** What to tell the thread if a stop gives up on the job. */
  abandonReply(): Reply;
  /**
   * Replicas: set while the answer waits for its thread's turn (not started). A stop that gives up on
   * it releases it instead of telling the thread: its record stays queued, and a replica that lives
   * on answers it once this one is gone.
   */
  release?: () => void;
}

interface AttachedPlatform {
  platform: ChatPlatform;
  budget: RateBudget;
  /** Appends to native text streams, where the platform limits them apart from edits. */
  streamBudget?: RateBudget;
  stopping: boolean;
  /** Set once it told its orphans at start: from then on it is swept (replicas). */
  sweep?: () => Promise<number>;
}

export function createTurnRunner(options: TurnRunnerOptions): TurnRunner {
  const { store, conversations, ingestion, logger } = options;
  const deadlineMs = options.answerTimeoutMs + (options.deadlineGraceMs ?? 10_000);
  const acknowledgementWaitMs = options.acknowledgementWaitMs ?? 1_000;
  const noticeTimeoutMs = options.noticeTimeoutMs ?? 3_000;
  const gate: AcknowledgementGate = createAcknowledgementGate();
  const platforms = new Map<string, AttachedPlatform>();
  const jobs = new Set<RunningJob>();
  const background = new Set<{ platform: string; done: Promise<void> }>();
  /** Turn records whose end failed: retried with the next end and at stop. */
  const unended = new Set<string>();
  /** This replica lost the state it shares with the others: it takes no new work. */
  let lost = false;
  let sweepTimer: NodeJS.Timeout | undefined;
  let sweeping = false;
  const sweep = async () => {
    if (sweeping || lost) return;
    sweeping = true;
    try {
      for (const attached of platforms.values()) if (!attached.stopping) await attached.sweep?.();
    } finally {
      sweeping = false;
    }
  };
  const startSweeping = () => {
    if (sweepTimer || options.sweepIntervalMs === undefined || lost) return;
    sweepTimer = setInterval(() => void sweep(), options.sweepIntervalMs);
    sweepTimer.unref();
  };
  const stopSweeping = () => {
    clearInterval(sweepTimer);
    sweepTimer = undefined;
  };
  store.onLost?.((error) => {
    lost = true;
    stopSweeping();
    logger.error(
      { code: error.code, platforms: [...platforms.keys()] },
      'lost the shared database: this replica takes no new work; the other replicas take over its threads',
    );
    for (const attached of platforms.values()) loseTaking(attached);
  });
  const loseTaking = (attached: AttachedPlatform) => {
    attached.stopping = true;
    attached.platform.stopTaking?.().catch((error: unknown) => {
      attached.platform.logger.warn({ err: error }, 'could not stop taking events');
    });
  };

  /** Forgets the turn `key` (if any) and every earlier one whose end failed. */
  const endTurns = async (key?: string) => {
    for (const pending of key ? [key, ...unended] : [...unended]) {
      try {
        await store.endTurn(pending);
        unended.delete(pending);
      } catch (error) {
        unended.add(pending);
        logger.error({ err: error, key: pending }, 'could not forget a finished turn; will retry');
      }
    }
  };
  const endTurn = (key: string) => endTurns(key);

  const attach = (platform: ChatPlatform): PlatformTurns => {
    const attached: AttachedPlatform = {
      platform,
      budget: createRateBudget(
        platform.editBudget.perMinute,
        platform.editBudget.burst,
        Date.now,
        options.budgetShare,
      ),
      ...(platform.streamBudget
        ? {
            streamBudget: createRateBudget(
              platform.streamBudget.perMinute,
              platform.streamBudget.burst,
              Date.now,
              options.budgetShare,
            ),
          }
        : {}),
      stopping: false,
    };
    platforms.set(platform.name, attached);
    const log = platform.logger;
    if (lost) loseTaking(attached);

    const start = (job: Omit<RunningJob, 'done'>, work: (job: RunningJob) => Promise<void>) => {
      const running = job as RunningJob;
      running.done = Promise.resolve()
        .then(() => work(running))
        .catch((error: unknown) => log.error({ err: error, key: job.key }, 'job failed'))
        .finally(() => jobs.delete(running));
      jobs.add(running);
    };

    return {
      get stopping() {
        return attached.stopping;
      },
      claim: (key) => claim(key, log),
      answer: (job) => answer(job),
      ingest: (job) => {
        const files: IngestFileState[] = job.files.map((file) => ({ name: file.name, state: 'waiting' }));
        start(
          {
            platform: platform.name,
            kind: 'ingest',
            key: job.key,
            recorded: false,
            abandoned: false,
            abandonReply: () => ({ kind: 'interrupted-ingest', ingest: interruptedNow(files) }),
          },
          (running) => runIngest(attached, job, files, running, log.child({ reference: job.reference })),
        );
      },
      track: (what, work) => {
        const entry = {
          platform: platform.name,
          done: Promise.resolve()
            .then(work)
            .catch((error: unknown) => log.error({ err: error }, `${what} failed`))
            .finally(() => background.delete(entry)),
        };
        background.add(entry);
      },
      tellOrphans: async () => {
        const told = await tellOrphans(platform, log, answer);
        attached.sweep ??= () => tellOrphans(platform, log, answer, { concurrently: true });
        startSweeping();
        return told;
      },
      stop: (timeoutMs) => stop([platform.name], timeoutMs),
    };

    function answer(job: RunnableAnswer) {
      // Adopted while this platform stops: its record stays, for a replica that lives on.
      if (job.adopted && attached.stopping) return;
      start(
        {
          platform: platform.name,
          kind: 'answer',
          key: job.key,
          recorded: false,
          abandoned: false,
          abandonReply: () => ({ kind: 'shutting-down' }),
        },
        (running) =>
          runAnswer(attached, job, running, log.child({ ...job.logFields, reference: job.reference })),
      );
    }
  };

  async function claim(key: string, log: Logger): Promise<boolean> {
    // The other replicas take it (this one lost the state they share).
    if (lost) return false;
    try {
      return await store.claimEvent(key);
    } catch (error) {
      // Never a silent thread: answer (at worst twice) rather than drop the event.
      log.error({ err: error, key }, 'could not record the event; handling it anyway');
      return true;
    }
  }

  async function runAnswer(
    attached: AttachedPlatform,
    job: RunnableAnswer,
    running: RunningJob,
    log: Logger,
  ) {
    const { platform } = attached;
    const record = {
      key: job.key,
      platform: platform.name,
      kind: 'answer' as const,
      location: job.location,
      thread: job.thread,
    };
    if (job.adopted) running.recorded = true;
    else if (job.claim && store.claimAndBeginTurn && !lost) {
      // One write: the claim, and the record if it is the first. A failure counts as a first claim.
      try {
        if (!(await store.claimAndBeginTurn(record))) {
          job.recorded?.();
          log.debug('duplicate delivery ignored');
          return;
        }
        running.recorded = true;
      } catch (error) {
        log.error({ err: error }, 'could not record the event and its turn; answering it anyway');
      }
    } else {
      if (job.claim && !(await claim(job.key, log))) {
        job.recorded?.();
        log.debug('duplicate delivery ignored');
        return;
      }
      running.recorded = await tryStore(log, 'record the turn', () => store.beginTurn(record));
    }
    // The platform may now confirm the delivery: from here a crash is told or taken over, never silent.
    job.recorded?.();
    // Replicas: the record takes its place in the thread's order once acknowledged (and moves with it).
    const ordered = running.recorded && store.runInThreadOrder !== undefined;
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
        platform,
        running,
        job.location,
        { kind: 'error', error: ragentError, reference: job.reference },
        log,
      );
      return;
    }
    const { surface, place } = opened;
    running.surface = surface;
    if (running.recorded && !ordered)
      await tryStore(log, 'move the turn', () => store.moveTurn(job.key, surface.location));
    acknowledged();
    await gate.clear(acknowledgementWaitMs);

    const live: StreamedAnswer = streamAnswer(surface, {
      statusIntervalMs: platform.statusIntervalMs,
      textIntervalMs: platform.textIntervalMs ?? 1_000,
      budget: attached.budget,
      ...(attached.streamBudget ? { streamBudget: attached.streamBudget } : {}),
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
    const started = Date.now();
    const progress = (event: ProgressEvent) => {
      const line = describeProgress(event);
      if (line) live.status({ kind: 'working', line });
    };
    const handle = () => {
      delete running.release;
      return conversations.handle(
        { ...place, text: job.text },
        progress,
        surface.showText ? { onText: live.write } : {},
      );
    };
    const waiting = new AbortController();
    const turn: Promise<TurnResult | 'left'> =
      ordered && store.runInThreadOrder
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
        log.info({ kind: first.kind, ms: Date.now() - started, threadId: place.threadId }, 'turn done');
      }
    } finally {
      clearTimeout(timer);
      if (!running.abandoned) await endTurn(job.key);
    }
  }

  async function runIngest(
    attached: AttachedPlatform,
    job: IngestJob,
    files: IngestFileState[],
    running: RunningJob,
    log: Logger,
  ) {
    const { platform } = attached;
    let surface: ReplySurface;
    try {
      surface = await job.open({ kind: 'ingest', files: [...files] });
    } catch (error) {
      log.error({ err: error }, 'could not show the ingest progress anywhere');
      return;
    }
    running.surface = surface;
    const location = (index: number) => ({ ...surface.location, ...ingestLocation(files, index) });
    running.recorded = await tryStore(log, 'record the ingest', () =>
      store.beginTurn({
        key: job.key,
        platform: platform.name,
        kind: 'ingest',
        location: location(0),
        ...(job.startedAt ? { startedAt: job.startedAt } : {}),
      }),
    );
    const status = throttleStatus(surface, {
      intervalMs: platform.statusIntervalMs,
      budget: attached.budget,
      onError: (error) => log.warn({ err: error }, 'could not update the ingest progress'),
    });
    const show = () => status.show({ kind: 'ingest', files: [...files] });
    try {
      for (const [index, file] of job.files.entries()) {
        if (index > 0 && running.recorded) {
          await tryStore(log, 'move the ingest', () => store.moveTurn(job.key, location(index)));
        }
        const started = Date.now();
        try {
          files[index] = { name: file.name, state: 'downloading' };
          show();
          const bytes = await file.download();
          const link = file.link?.();
          const report = await ingestion.ingest(
            { name: file.name, bytes, scope: job.scope, uploader: job.uploader, ...(link ? { link } : {}) },
            (progress) => {
              files[index] = { name: file.name, state: 'working', progress };
              show();
            },
          );
          files[index] = { name: file.name, state: 'added', report, seconds: (Date.now() - started) / 1000 };
          log.info({ file: file.name, status: report.status, documentId: report.document.id }, 'ingested');
        } catch (error) {
          const ragentError = toRagentError(error, `Could not ingest ${file.name}.`);
          log.error({ err: error, code: ragentError.code, file: file.name }, 'ingest failed');
          files[index] = { name: file.name, state: 'failed', error: ragentError };
        }
        show();
      }
      await status.settle();
      await deliver(
        surface,
        running,
        { kind: 'ingest-result', files: [...files], reference: job.reference },
        log,
      );
    } finally {
      if (!running.abandoned) await endTurn(job.key);
    }
  }

  /** The outcome, unless a stop gave up on the job (it told the thread itself). */
  async function deliver(surface: ReplySurface, running: RunningJob, reply: Reply, log: Logger) {
    if (running.abandoned) return;
    // The reply goes out at once, but counts against the platform's edit budget.
    platforms.get(running.platform)?.budget.charge();
    try {
      await surface.finish(reply);
    } catch (error) {
      log.error({ err: error, kind: reply.kind }, 'could not deliver the outcome');
    }
  }

  /** Tells a thread through a recorded location; forgets the record once told (else the next start tells it). */
  async function tellAt(
    platform: ChatPlatform,
    running: RunningJob,
    location: Record<string, string>,
    reply: Reply,
    log: Logger,
  ) {
    try {
      const surface = await platform.reopen({
        key: running.key,
        platform: platform.name,
        kind: running.kind,
        owner: store.replicaId,
        location,
        startedAt: Date.now(),
      });
      await surface.finish(reply);
      await endTurn(running.key);
    } catch (error) {
      log.warn({ err: error }, 'could not tell the thread');
      // Replicas: a live replica's record is never told by another, and would hold up the thread.
      if (store.runInThreadOrder && running.recorded) await endTurn(running.key);
    }
  }

  /**
   * Adopts the turns a dead process or replica left on `platform`: a queued answer (replicas) is
   * answered here; every other turn's thread is told what happened, and its record forgotten.
   * Returns how many threads were told.
   */
  async function tellOrphans(
    platform: ChatPlatform,
    log: Logger,
    answer: (job: RunnableAnswer) => void,
    options: { concurrently?: boolean } = {},
  ): Promise<number> {
    let orphans: TurnInFlight[];
    try {
      orphans = await store.adoptOrphanedTurns(platform.name);
    } catch (error) {
      log.error({ err: error }, 'could not read the turns a crash left');
      return 0;
    }
    let told = 0;
    const tell = async (turn: TurnInFlight) => {
      if (turn.kind === 'answer' && turn.answer) {
        log.info({ key: turn.key }, 'answering a queued turn of a replica that is gone');
        answer(adoptedAnswer(platform, turn, turn.answer));
        return;
      }
      const reply: Reply =
        turn.kind === 'ingest'
          ? { kind: 'interrupted-ingest', ingest: interruptedIngest(turn.location) }
          : { kind: 'restarted' };
      try {
        const surface = await platform.reopen(turn);
        await surface.finish(reply);
        told++;
        log.info(
          { key: turn.key, kind: turn.kind, startedAt: new Date(turn.startedAt).toISOString() },
          'told an unfinished turn what happened',
        );
      } catch (error) {
        // Not the location: an ingest's may hold an interaction token.
        log.warn(
          { err: describeError(error), key: turn.key, kind: turn.kind },
          'could not tell an unfinished turn',
        );
      }
      // Forgotten either way: a deleted channel must not be retried on every start.
      await endTurn(turn.key);
    };
    if (options.concurrently) await Promise.all(orphans.map(tell));
    else for (const turn of orphans) await tell(turn);
    return told;
  }

  async function stop(names: string[], timeoutMs: number): Promise<StopReport> {
    for (const name of names) {
      const attached = platforms.get(name);
      if (attached) attached.stopping = true;
    }
    if ([...platforms.values()].every((attached) => attached.stopping)) stopSweeping();
    const mine = <T extends { platform: string }>(entries: Iterable<T>) =>
      [...entries].filter((entry) => names.includes(entry.platform));
    const drained = await settledWithin(
      [...mine(jobs), ...mine(background)].map((entry) => entry.done),
      timeoutMs,
    );
    const abandoned = mine(jobs);
    for (const job of abandoned) job.abandoned = true;
    // Replicas: answers still waiting for their thread are left to the replicas that live on.
    const released = abandoned.filter((job) => job.release);
    for (const job of released) job.release?.();
    const toTell = abandoned.filter((job) => !job.release);
    let told = 0;
    await settledWithin(
      toTell.map(async (job) => {
        const reply = job.abandonReply();
        const attached = platforms.get(job.platform);
        try {
          if (!job.surface || !attached) throw new Error('the job has no status to replace yet');
          await job.surface.finish(reply);
          told++;
          await endTurn(job.key);
        } catch (error) {
          logger.warn(
            { err: describeError(error), key: job.key, kind: job.kind, recorded: job.recorded },
            'could not tell an abandoned thread; the next start will',
          );
        }
      }),
      noticeTimeoutMs,
    );
    await endTurns();
    const report: StopReport = {
      drained: abandoned.length === 0,
      told,
      untold: toTell.length - told,
      ...(released.length > 0 ? { released: released.length } : {}),
    };
    if (!drained || abandoned.length > 0)
      logger.warn({ ...report, platforms: names }, 'stopped with work in flight');
    return report;
  }

  return {
    attach,
    stop: (timeoutMs) => stop([...platforms.keys()], timeoutMs),
  };
}

/** Runs a store write; a failure is logged and reported as false (the job goes on unrecorded). */
async function tryStore(log: Logger, what: string, write: () => Promise<void>): Promise<boolean> {
  try {
    await write();
    return true;
  } catch (error) {
    log.error({ err: error }, `could not ${what}; going on without it`);
    return false;
  }
}

/** Resolves true when every promise settled within `timeoutMs`, false otherwise. */
async function settledWithin(work: Promise<unknown>[], timeoutMs: number): Promise<boolean> {
  if (work.length === 0) return true;
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<false>((resolve) => {
    timer = setTimeout(() => resolve(false), timeoutMs);
  });
  try {
    return await Promise.race([Promise.allSettled(work).then(() => true as const), timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/** A queued answer adopted from a dead replica, as a job: its status is reopened where it stands. */
function adoptedAnswer(platform: ChatPlatform, turn: TurnInFlight, answer: QueuedAnswer): RunnableAnswer {
  return {
    key: turn.key,
    text: answer.text,
    reference: answer.reference,
    ...(answer.logFields ? { logFields: answer.logFields } : {}),
    location: turn.location,
    thread: turn.thread ?? { threadId: answer.place.threadId, position: '0' },
    adopted: true,
    open: async () => ({ surface: await platform.reopen(turn), place: answer.place }),
  };
}
