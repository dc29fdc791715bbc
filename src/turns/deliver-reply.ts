/**
 * Delivery of a job's outcome: through the surface it opened (unless a stop gave up on the job and
 * told the thread itself), or through a recorded location when there is no surface to finish.
 */
import type { ChatPlatform, Reply, ReplySurface } from '../core/chat-platform.ts';
import type { Logger } from '../logger.ts';
import { revealReplyLinks } from './reveal-reply-links.ts';
import type { RunnerContext, RunningJob } from './runner-context.ts';

/** The outcome, unless a stop gave up on the job (it told the thread itself). */
export async function deliver(surface: ReplySurface, running: RunningJob, reply: Reply, log: Logger) {
  if (running.abandoned) return;
  // The reply goes out at once, but counts against the platform's edit budget.
  running.budgets.budget.charge();
  try {
    await surface.finish(revealReplyLinks(reply));
  } catch (error) {
    log.error({ err: error, kind: reply.kind }, 'could not deliver the outcome');
  }
}

/** Tells a thread through a recorded location; forgets the record once told (else the next start tells it). */
export async function tellAt(
  context: RunnerContext,
  platform: ChatPlatform,
  running: RunningJob,
  location: Record<string, string>,
  reply: Reply,
  log: Logger,
) {
  const { store } = context;
  try {
    const surface = await platform.reopen({
      key: running.key,
      platform: platform.name,
      kind: running.kind,
      owner: store.replicaId,
      location,
      startedAt: Date.now(),
    });
    await surface.finish(revealReplyLinks(reply));
    await context.endTurn(running.key);
  } catch (error) {
    log.warn({ err: error }, 'could not tell the thread');
    // Replicas: a live replica's record is never told by another, and would hold up the thread.
    if (store.recordsHoldThreads && running.recorded) await context.endTurn(running.key);
  }
}
