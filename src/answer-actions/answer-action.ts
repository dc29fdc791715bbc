/**
 * The buttons on an answer (👍/👎, the 👎 reasons, Verify, Ask a person), the same for every platform.
 * The platform reads its signed payload into one `AnswerActionRequest` — having checked that the ids
 * in the button belong to the workspace/server and the channel it was pressed in — and shows the
 * `ActionOutcome`; what happens, who may do it and every word said is decided here.
 */
import type { ChatPlatform } from '../core/chat-platform.ts';
import type { Services } from '../core/services.ts';
import type { Scope, ThreadId } from '../core/types.ts';
import type { Logger } from '../logger.ts';
import type { Actor } from '../turns/actor.ts';
import type { ChatMarkup } from '../turns/chat-markup.ts';
import type { ActionButton, ActionIds } from './answer-buttons.ts';

/** Where the button was pressed: fixed by the platform from the payload, never from the button's value. */
export type ActionPlace =
  | { inDirectMessage: true }
  | {
      inDirectMessage: false;
      /** The channel's own set (a thread's parent channel): where answers are verified, hand-offs set. */
      channelScope: Scope;
    };

export interface AnswerActionRequest {
  actor: Actor;
  answerId: string;
  threadId: ThreadId;
  place: ActionPlace;
}

/** What the actions need, built once per platform. */
export interface AnswerActionContext {
  services: Pick<Services, 'coordination' | 'verifiedAnswers' | 'turnHistory'>;
  logger: Logger;
  markup: ChatMarkup;
  /** The platform's name, as the turn history records it. */
  platform: string;
  /** The platform's default hand-off target and its one line in a thread; unset: it hands off to nobody. */
  handOff?: NonNullable<ChatPlatform['handOff']>;
  /** A link that opens a thread, recorded with a hand-off. */
  threadLink(threadId: ThreadId): string | undefined;
  /** What the platform's buttons carry back (the 👎 reasons offered after a vote); unset: `actionValue`. */
  buttonValue?(ids: ActionIds): string;
}

/** A 👎 reason's own words: a small form with one optional text field. */
export interface WordsForm {
  title: string;
  label: string;
  maxLength: number;
  submit: string;
  cancel: string;
}

/** What the platform shows the person who pressed (privately), and does to the answer's message. */
export interface ActionOutcome {
  /** Said to the person who pressed only, written with the platform's markup. */
  text?: string;
  /** Offered with the text (the 👎 reasons). */
  buttons?: ActionButton[];
  /** Instead of a text: ask for their own words in this form (the 👎 reason "Other…"). */
  form?: WordsForm;
  /** The answer was verified by this name (shown as text): the platform marks its message so. */
  verifiedBy?: string;
}
