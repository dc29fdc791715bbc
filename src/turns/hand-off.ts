/**
 * Hand-off to a person, the same for every platform: when an answer ends as "not found", gets 👎, or
 * the asker presses "Ask a person", the thread gets ONE line naming who follows up — the channel's
 * own choice (`/ragent handoff`, a named channel setting shared by every replica) or else the
 * platform's default (RAGENT_HANDOFF_<PLATFORM>) — at most once per thread and day (an event claim
 * on thread + day, so two replicas or two reasons never post it twice). The target is kept in the
 * platform's own words (`S123`, `role:123`); the core decides WHEN, the platform renders the mention.
 * The hand-off is recorded in the turn history (outcome `handed-off`) for `ragent report`.
 */
import type { ChannelSettings } from '../core/channel-settings.ts';
import type { EventClaims } from '../core/event-claims.ts';
import { decodeScope } from '../core/ids.ts';
import type { TurnHistory } from '../core/turn-history.ts';
import type { Scope, ThreadId } from '../core/types.ts';
import type { Logger } from '../logger.ts';
import { handOffAlreadyText, handOffAskedText, handOffUnsetText } from './messages-en.ts';

/** The channel setting that holds a channel's own hand-off target. */
export const handOffSettingName = 'handoff';

export type HandOffReason = 'not-found' | 'thumbs-down' | 'asked';

export interface HandOffStores {
  claims: EventClaims;
  settings: Pick<ChannelSettings, 'channelSetting'>;
  turnHistory: Pick<TurnHistory, 'recordTurn'>;
  logger: Logger;
}

export interface HandOffRequest {
  platform: string;
  threadId: ThreadId;
  /** The channel's scope (where its own target is stored); fixed from where the thread is. */
  channel: Scope;
  /** The platform's default target, if set. */
  fallback: string | undefined;
  /** What the thread searched, for the record. */
  scopes: readonly Scope[];
  /** Who asked (or pressed): for the record only, never mentioned. */
  user: string;
  /** The question the hand-off is about, when known (kept like every question: RAGENT_RETENTION_DAYS). */
  question?: string;
  link?: string;
  why: HandOffReason;
  /** Posts the one line in the thread mentioning `target` (and nobody else). */
  post(target: string): Promise<void>;
  now?: Date;
}

export type HandOffOutcome =
  | { kind: 'handed-off'; target: string }
  /** This thread was handed off today already. */
  | { kind: 'already' }
  /** Nobody is set to follow up in this channel. */
  | { kind: 'no-target' };

/** Who follows up in `channel`: its own choice, else the platform's default. */
export async function handOffTarget(
  settings: Pick<ChannelSettings, 'channelSetting'>,
  channel: Scope,
  fallback: string | undefined,
): Promise<string | undefined> {
  return (await settings.channelSetting(channel, handOffSettingName)) ?? fallback;
}

/** The claim that lets a thread be handed off once on a (UTC) day. */
export function handOffClaimKey(threadId: ThreadId, now: Date): string {
  return `handoff:${now.toISOString().slice(0, 10)}:${threadId}`;
}

export async function handOff(stores: HandOffStores, request: HandOffRequest): Promise<HandOffOutcome> {
  const { logger } = stores;
  const now = request.now ?? new Date();
  // A direct message has no channel (and nobody of a group would see the line there).
  if (decodeScope(request.channel)?.kind !== 'channel') return { kind: 'no-target' };
  const target = await handOffTarget(stores.settings, request.channel, request.fallback);
  if (!target) return { kind: 'no-target' };
  const key = handOffClaimKey(request.threadId, now);
  let first: boolean;
  try {
    first = await stores.claims.claimEvent(key);
  } catch (error) {
    // Like every claim: a store failure counts as the first (a person asked twice beats nobody asked).
    logger.warn({ err: error, threadId: request.threadId }, 'could not claim the hand-off; handing off');
    first = true;
  }
  if (!first) return { kind: 'already' };
  try {
    await request.post(target);
  } catch (error) {
    // Nothing was posted: the thread is not "handed off already" — the next press or missed answer
    // tries again. A release that fails too leaves the claim (nobody is pinged twice).
    await stores.claims
      .releaseEvent(key)
      .catch((releaseError: unknown) =>
        logger.warn(
          { err: releaseError, threadId: request.threadId },
          'could not release the hand-off claim',
        ),
      );
    throw error;
  }
  logger.info({ threadId: request.threadId, why: request.why }, 'handed off to a person');
  try {
    await stores.turnHistory.recordTurn({
      id: key,
      platform: request.platform,
      scopes: [...request.scopes],
      threadId: request.threadId,
      user: request.user,
      question: request.question ?? '',
      startedAt: now.toISOString(),
      durationMs: 0,
      outcome: 'handed-off',
      citedDocuments: [],
      ...(request.link ? { link: request.link } : {}),
    });
  } catch (error) {
    logger.warn({ err: error, threadId: request.threadId }, 'could not record the hand-off for the report');
  }
  return { kind: 'handed-off', target };
}

/** `/ragent handoff …` (admins; the platform checks and parses): the channel's own target, or none (null). */
export async function setHandOffTarget(
  settings: Pick<ChannelSettings, 'setChannelSetting'>,
  channel: Scope,
  target: string | null,
): Promise<void> {
  await settings.setChannelSetting(channel, handOffSettingName, target);
}

/** What the person who pressed "Ask a person" is told, privately. */
export function handOffOutcomeText(outcome: HandOffOutcome): string {
  switch (outcome.kind) {
    case 'handed-off':
      return handOffAskedText;
    case 'already':
      return handOffAlreadyText;
    case 'no-target':
      return handOffUnsetText;
  }
}
