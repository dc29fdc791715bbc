/**
 * Private answers (`/ragent ask <question>` on every platform): the same turn as a mention — claimed,
 * recorded, answered by the graph within the channel's scopes, written to the turn history — but
 * shown only to the asker, in a conversation of their own, and shared in the channel only when they
 * press Share, once.
 *
 * - The conversation: one private thread per person and channel (`privateThreadId`), never the
 *   channel's or a thread's memory, so a later mention in the channel does not see it. A person's
 *   next `/ragent ask` in the same channel continues it: a clarifying question is answered that way.
 * - Sharing: what the answer was is read back from the delivered answers the runner records for every
 *   answer (the feedback store's `recordAnswer`, in the shared store, so any replica and a restarted
 *   process can share it); the share is claimed through the event claims with a key made from the
 *   answer's id, so two presses, or presses on two replicas, share it once. An answer older than a
 *   day is no longer shared.
 */
import { citesByNumber } from '../core/citation-markers.ts';
import type { EventClaims } from '../core/event-claims.ts';
import type { FeedbackStore } from '../core/feedback-store.ts';
import { decodeId, encodeId } from '../core/ids.ts';
import type { Answer, ThreadId } from '../core/types.ts';

/** How long a private answer can be shared. */
export const shareableForMs = 24 * 60 * 60 * 1000;

/** Marks the thread part of a private conversation; no platform's own thread id starts with it. */
const privatePrefix = 'private-';

/** Who asked privately, and where. */
export interface PrivateAsker {
  platform: string;
  /** The workspace/server. */
  workspace: string;
  channel: string;
  user: string;
}

/** The asker's own conversation in `channel`: `<platform>:<workspace>:<channel>:private-<user>`. */
export function privateThreadId(asker: PrivateAsker): ThreadId {
  return encodeId(asker.platform, [asker.workspace, asker.channel, `${privatePrefix}${asker.user}`]);
}

/** The asker of a private conversation; undefined for any other thread id. */
export function privateAskerOf(threadId: ThreadId): PrivateAsker | undefined {
  const { platform, parts } = decodeId(threadId);
  const [workspace, channel, thread] = parts;
  if (parts.length !== 3 || !workspace || !channel || !thread?.startsWith(privatePrefix)) return undefined;
  const user = thread.slice(privatePrefix.length);
  return user ? { platform, workspace, channel, user } : undefined;
}

/** What Share posts: the question, the answer as it was delivered, who asked and in which conversation. */
export interface SharedAnswer {
  asker: PrivateAsker;
  threadId: ThreadId;
  question: string;
  answer: Answer;
}

export type ShareOutcome =
  | { kind: 'share'; shared: SharedAnswer }
  | { kind: 'already-shared' }
  | { kind: 'not-yours' }
  | { kind: 'gone' };

/**
 * The delivered answer `answerId`. The runner records it just after the asker sees it, so a press
 * within that moment (a quick click, on another replica) waits a little for it.
 */
async function findDelivered(store: Pick<FeedbackStore, 'findAnswers'>, answerId: string) {
  for (const wait of [0, 100, 300, 600, 1_000]) {
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    const [delivered] = await store.findAnswers([answerId]);
    if (delivered) return delivered;
  }
  return undefined;
}

/**
 * Whether `user` of `platform`/`workspace` may share the answer `answerId`, and if so the claim that
 * makes this the one share: `share` (post it now), `already-shared` (pressed before, here or on
 * another replica), `not-yours` or `gone` (unknown, not private, or older than a day).
 */
export async function claimShare(
  store: EventClaims & Pick<FeedbackStore, 'findAnswers'>,
  request: { platform: string; workspace: string; user: string; answerId: string; now?: number },
): Promise<ShareOutcome> {
  const delivered = await findDelivered(store, request.answerId);
  const asker = delivered ? privateAskerOf(delivered.threadId) : undefined;
  if (!delivered || !asker || asker.platform !== request.platform || asker.workspace !== request.workspace)
    return { kind: 'gone' };
  if (asker.user !== request.user) return { kind: 'not-yours' };
  if ((request.now ?? Date.now()) - Date.parse(delivered.at) > shareableForMs) return { kind: 'gone' };
  if (!(await store.claimEvent(shareClaimKey(request)))) return { kind: 'already-shared' };
  const sources = delivered.sources;
  return {
    kind: 'share',
    shared: {
      asker,
      threadId: delivered.threadId,
      question: delivered.question,
      answer: {
        id: delivered.answerId,
        outcome: sources.length > 0 ? 'answered' : 'not-found',
        markdown: delivered.answer,
        body: delivered.answer,
        sources,
        ...(sources.length > 0 && citesByNumber(delivered.answer) ? { citesByNumber: true } : {}),
        subQuestions: [],
        contexts: [],
        counts: { toolCalls: 0, promptTokens: 0, completionTokens: 0, llmCalls: 0 },
      },
    },
  };
}

/** Forgets the claim of a share whose post failed before any part reached the channel. */
export async function releaseShare(
  store: EventClaims,
  request: { platform: string; workspace: string; answerId: string },
): Promise<void> {
  await store.releaseEvent(shareClaimKey(request));
}

/** The one claim per shared answer, among replicas. */
function shareClaimKey(request: { platform: string; workspace: string; answerId: string }): string {
  return encodeId(request.platform, [request.workspace, 'share', request.answerId]);
}
