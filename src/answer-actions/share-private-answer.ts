/**
 * Share, pressed under a private answer on any platform: checked and claimed once across replicas
 * (`claimShare`), then posted in the channel it was asked in — the question credited to the asker
 * without a ping, then the answer as the platform shows any answer — and the private answer, now
 * without Share, then says it was shared. Every other outcome is told to the presser alone. The
 * platform gives its renderings, its post in the channel and the press's own private reply (which
 * tells the presser and replaces the private message).
 */
import { toRagentError } from '../errors.ts';
import type { PrivateReplyPort } from '../replies/private-surface.ts';
import type { Actor } from '../turns/actor.ts';
import type { ChatMarkup } from '../turns/chat-markup.ts';
import {
  alreadySharedText,
  askedText,
  sharedNoteText,
  shareFailedText,
  shareGoneText,
  shareNotYoursText,
} from '../turns/messages-en.ts';
import { claimShare, releaseShare, type SharedAnswer } from '../turns/private-answers.ts';

/** The question as quoted in the credit line (in code points: never half a character). */
const maxSharedQuestion = 500;

/** How a platform puts a credit line above a message, in its own syntax. */
export interface CreditRendering<Message> {
  /** `first` with `credit` above it in the same message; undefined where the two do not fit in one. */
  join(credit: string, first: Message): Message | undefined;
  /** `credit` as a message of its own. */
  alone(credit: string): Message;
}

/**
 * The answer's first message credited: the credit joins it where they fit in one message, else goes
 * in a message of its own before it (alone where the answer has no message).
 */
export function creditedMessages<Message>(
  rendering: CreditRendering<Message>,
  credit: string,
  first: Message | undefined,
): Message[] {
  const joined = first === undefined ? undefined : rendering.join(credit, first);
  if (joined !== undefined) return [joined];
  return [rendering.alone(credit), ...(first === undefined ? [] : [first])];
}

/** A press: the workspace/server it came from, and who pressed (only the asker may share). */
export interface SharePress {
  platform: string;
  workspace: string;
  actor: Actor;
  answerId: string;
}

/** What the platform does for a Share press; `Message` is its own payload. */
export interface ShareSurface<Message> {
  markup: ChatMarkup;
  /**
   * The press's own private reply (`replies/private-surface.ts`): it tells the presser alone, and
   * replaces the private message the press came from (the answer's last).
   */
  port: PrivateReplyPort<Message>;
  /** The answer as the platform shows any answer in a channel. */
  answer(shared: SharedAnswer): Message[];
  /** How the credit line goes above the answer (`creditedMessages`). */
  credit: CreditRendering<Message>;
  /** Posts `message` in the channel `channel`; throws if refused. */
  post(channel: string, message: Message): Promise<unknown>;
  /** The platform's reason for a refused post, where it has a better one than the error's message. */
  refusal?(error: unknown): string | undefined;
}

export async function sharePrivateAnswer<Message>(
  store: Parameters<typeof claimShare>[0],
  press: SharePress,
  surface: ShareSurface<Message>,
): Promise<void> {
  const { answerId } = press;
  const { port } = surface;
  const { logger } = port;
  // The presser may have gone (a closed client): what they would be told is only logged.
  const tell = async (text: string) => {
    await port
      .reply(port.render.notice(text), false)
      .catch((error: unknown) => logger.debug({ code: codeOf(error) }, 'could not tell the presser'));
  };
  const outcome = await claimShare(store, { ...press, user: press.actor.id }).catch((error: unknown) => {
    logger.error({ err: error, answerId }, 'could not check the share');
    return { kind: 'failed' as const, reason: toRagentError(error).message };
  });
  if (outcome.kind === 'failed') return tell(shareFailedText(outcome.reason));
  if (outcome.kind !== 'share') return tell(refusedText[outcome.kind]);
  const { shared } = outcome;
  let posted = 0;
  try {
    const [first, ...rest] = surface.answer(shared);
    const credit = creditLine(surface.markup, press.actor, shared.question);
    for (const message of [...creditedMessages(surface.credit, credit, first), ...rest]) {
      await surface.post(shared.asker.channel, message);
      posted++;
    }
  } catch (error) {
    logger.error({ code: codeOf(error), answerId, posted }, 'could not share the answer');
    // Nothing reached the channel: the claim goes, so pressing Share again tries again. Once a part
    // was posted the share stands (a second press would post the answer twice).
    if (posted === 0)
      await releaseShare(store, press).catch((releaseError: unknown) =>
        logger.warn({ err: releaseError, answerId }, 'could not release the share'),
      );
    return tell(shareFailedText(surface.refusal?.(error) ?? toRagentError(error).message));
  }
  logger.info({ answerId, channel: shared.asker.channel }, 'private answer shared');
  // The private message keeps its part of the answer, now without Share, and says it was shared.
  const { reply, withSmallPrint } = port.render;
  const last = reply({ kind: 'answer', answer: shared.answer, threadId: shared.threadId }).at(-1);
  if (last === undefined) return;
  const note = `${surface.markup.icons.done} ${sharedNoteText}`;
  await port
    .reply(withSmallPrint(last, note), true)
    .catch((error: unknown) => logger.debug({ code: codeOf(error) }, 'could not mark the answer shared'));
}

function codeOf(error: unknown): unknown {
  return (error as { code?: unknown }).code;
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
