/**
 * Whether a message is a turn: decided here once, the same for every platform, from the platform's
 * parsed `IncomingMessage`. Bots (the bot itself included), edits and deletions never are. A DM, a
 * mention of the bot or a reply to one of its messages always is. In a thread the bot converses in,
 * a person's reply is a turn (a follow-up, or the answer to a clarifying question) unless it is
 * addressed to someone else — it mentions other people and not the bot — or follow-ups are off
 * (`RAGENT_FOLLOW_UPS=off`), or the platform withheld its text. In a channel with auto-answer on, a
 * person's top-level message that reads as a question (`is-question.ts`) and is not addressed to
 * someone else is a turn too. Anything else is not for the bot.
 */
import type { IncomingMessage } from '../core/chat-platform.ts';
import type { Scope, ThreadId } from '../core/types.ts';
import { isQuestion } from './is-question.ts';

export type TurnDecision = { kind: 'turn'; why: TurnReason } | { kind: 'ignore'; why: IgnoreReason };

type TurnReason = 'direct message' | 'mention' | 'reply to the bot' | 'follow-up' | 'auto-answer';
type IgnoreReason =
  | 'from a bot'
  | 'an edit'
  | 'not addressed to the bot'
  | 'follow-ups are off'
  | 'text withheld by the platform'
  | 'addressed to someone else'
  | 'not a thread the bot is in';

export interface DecideOptions {
  /** `RAGENT_FOLLOW_UPS`: whether replies in the bot's threads are turns without a mention. */
  followUps: boolean;
  /** Whether the bot converses in the thread (asked only when it matters). */
  inBotThread(threadId: ThreadId): Promise<boolean>;
  /** Whether the channel answers questions without a mention (asked only for a message that could qualify). */
  autoAnswerOn?(channel: Scope): Promise<boolean>;
}

export async function decideTurn(message: IncomingMessage, options: DecideOptions): Promise<TurnDecision> {
  const ignore = (why: IgnoreReason): TurnDecision => ({ kind: 'ignore', why });
  const turn = (why: TurnReason): TurnDecision => ({ kind: 'turn', why });
  if (message.fromBot) return ignore('from a bot');
  if (message.isEdit) return ignore('an edit');
  if (message.isDirectMessage) return turn('direct message');
  if (message.mentionsBot) return turn('mention');
  if (message.repliesToBot) return turn('reply to the bot');
  if (!message.inThread)
    return (await autoAnswers(message, options)) ? turn('auto-answer') : ignore('not addressed to the bot');
  if (!options.followUps) return ignore('follow-ups are off');
  if (message.textHidden) return ignore('text withheld by the platform');
  if (message.addressedToOthers) return ignore('addressed to someone else');
  return (await options.inBotThread(message.thread.threadId))
    ? turn('follow-up')
    : ignore('not a thread the bot is in');
}

/** A top-level question in an auto-answer channel: the cheap checks first, the setting last. */
async function autoAnswers(message: IncomingMessage, options: DecideOptions): Promise<boolean> {
  const channel = message.autoAnswerChannel;
  if (!channel || !options.autoAnswerOn || message.textHidden || message.addressedToOthers) return false;
  return isQuestion(message.text) && (await options.autoAnswerOn(channel));
}
