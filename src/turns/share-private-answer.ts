/**
 * Share, pressed under a private answer on any platform: checked and claimed once across replicas
 * (`claimShare`), then posted in the channel it was asked in — the question credited to the asker
 * without a ping, then the answer as it was delivered — and the private answer then says it was
 * shared. Every other outcome is told to the presser alone. The platform gives only its private
 * notice, its post in the channel and the edit of the private message.
 */
import { toRagentError } from '../errors.ts';
import type { Logger } from '../logger.ts';
import type { Actor } from './actor.ts';
import type { ChatMarkup } from './chat-markup.ts';
import {
  alreadySharedText,
  askedText,
  sharedNoteText,
  shareFailedText,
  shareGoneText,
  shareNotYoursText,
} from './messages-en.ts';
import { claimShare, type SharedAnswer } from './private-answers.ts';

/** The question as quoted in the credit line (in code points: never half a character). */
const maxSharedQuestion = 500;

/** A press: the workspace/server it came from, and who pressed (only the asker may share). */
export interface SharePress {
  platform: string;
  workspace: string;
  actor: Actor;
  answerId: string;
}

/** What the platform does for a Share press. */
export interface ShareSurface {
  markup: ChatMarkup;
  logger: Logger;
  /** Says `text` to the presser only. */
  tell(text: string): Promise<void>;
  /** Posts in the asker's channel the credit line, then the answer as rendered anywhere; throws if refused. */
  post(credit: string, shared: SharedAnswer): Promise<void>;
  /** Shows `note` on the private answer, now without its Share action (best effort). */
  markShared(note: string, shared: SharedAnswer): Promise<void>;
  /** The platform's reason for a refused post, where it has a better one than the error's message. */
  refusal?(error: unknown): string | undefined;
}

export async function sharePrivateAnswer(
  store: Parameters<typeof claimShare>[0],
  press: SharePress,
  surface: ShareSurface,
): Promise<void> {
  const { answerId } = press;
  const outcome = await claimShare(store, { ...press, user: press.actor.id }).catch((error: unknown) => {
    surface.logger.error({ err: error, answerId }, 'could not check the share');
    return { kind: 'failed' as const, reason: toRagentError(error).message };
  });
  if (outcome.kind === 'failed') return surface.tell(shareFailedText(outcome.reason));
  if (outcome.kind !== 'share') return surface.tell(refusedText[outcome.kind]);
  const { shared } = outcome;
  try {
    await surface.post(creditLine(surface.markup, press.actor, shared.question), shared);
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    surface.logger.error({ code, answerId }, 'could not share the answer');
    // The share is claimed: a second press would say "already shared". Say what happened instead.
    return surface.tell(shareFailedText(surface.refusal?.(error) ?? toRagentError(error).message));
  }
  surface.logger.info({ answerId, channel: shared.asker.channel }, 'private answer shared');
  await surface
    .markShared(`${surface.markup.icons.done} ${sharedNoteText}`, shared)
    .catch((error: unknown) =>
      surface.logger.debug({ code: (error as { code?: unknown }).code }, 'could not mark the answer shared'),
    );
}

const refusedText = {
  'already-shared': alreadySharedText,
  'not-yours': shareNotYoursText,
  gone: shareGoneText,
};

/** "<asker> asked: <question>": the asker by name or a mention that pings nobody, the question literal. */
export function creditLine(markup: ChatMarkup, asker: Actor, question: string): string {
  const points = Array.from(question);
  const cut = points.length > maxSharedQuestion;
  const quoted = cut
    ? `${points
        .slice(0, maxSharedQuestion - 1)
        .join('')
        .trimEnd()}…`
    : question;
  return askedText(markup.person?.(asker) ?? markup.bold(markup.literal(asker.name)), markup.literal(quoted));
}
