/**
 * A platform's message, handed to the runner: decided once (`decide-turn.ts`), claimed once (a
 * duplicate delivery is dropped), then an answer turn (reading the files attached to the question
 * for its thread alone), an ingest of the attached files ("ingest" in the text), or a short
 * hint (an empty question, an "ingest" without a file, a reply the bot cannot read). A stopping
 * platform says it is restarting instead. Every platform's messages take this one path.
 */
import type { IncomingMessage, PlatformTurns } from '../core/chat-platform.ts';
import type { Logger } from '../logger.ts';
import { isAutoAnswerOn } from './auto-answer.ts';
import { decideTurn } from './decide-turn.ts';
import { emptyQuestionText, ingestHintText, restartingText, unreadableReplyText } from './messages-en.ts';
import type { RunnerContext } from './runner-context.ts';

export async function receiveMessage(
  context: RunnerContext,
  turns: PlatformTurns,
  message: IncomingMessage,
  logger: Logger,
): Promise<void> {
  const log = logger.child({ ...message.logFields, threadId: message.thread.threadId });
  const decision = await decideTurn(message, {
    followUps: context.followUps,
    inBotThread: (threadId) =>
      context.conversations.hasThread(threadId).catch((error: unknown) => {
        log.error({ err: error }, 'could not check whether the bot converses in this thread');
        return false;
      }),
    autoAnswerOn: (channel) => isAutoAnswerOn(context.store, channel, log),
  });
  if (decision.kind === 'ignore') {
    log.debug({ why: decision.why }, 'not a turn');
    return;
  }
  const claimed = async () => {
    if (await turns.claim(message.key)) return true;
    log.debug('duplicate delivery ignored');
    return false;
  };
  /** A notice instead of a turn: said once, however often the message is delivered. */
  const say = async (text: string) => {
    if (!(await claimed())) return;
    turns.track('posting a notice', () => message.notice(text));
  };
  if (turns.stopping) return say(restartingText);
  const { text } = message;
  // A question answered unasked is only ever answered: "how do I ingest …?" with a file is not an ingest.
  const asked = decision.why !== 'auto-answer';
  if (asked && message.ingest && message.files.length > 0 && /\bingest\b/i.test(text)) {
    if (!(await claimed())) return;
    turns.ingest(message.ingest(text));
    return;
  }
  if (asked && message.ingest && /^ingest\b/i.test(text) && message.files.length === 0)
    return say(ingestHintText);
  if (!text) return say(message.textHidden ? unreadableReplyText : emptyQuestionText);
  // Files with a question (no "ingest"): read for this thread alone, then the question is answered.
  const files = message.files.length > 0 ? message.attachedFiles?.() : undefined;
  turns.answer({
    key: message.key,
    text,
    reference: message.reference,
    ...(message.logFields ? { logFields: message.logFields } : {}),
    location: message.location,
    thread: message.thread,
    // Claimed by the runner, with the turn record in one write; the platform's receipt after that.
    claim: true,
    ...(message.holdReceipt ? { recorded: message.holdReceipt() } : {}),
    open: () => message.open(),
    ...(files && files.length > 0 ? { files } : {}),
    ...(message.inThread && message.readThread ? { readThread: message.readThread.bind(message) } : {}),
  });
}
