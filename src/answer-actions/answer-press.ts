/**
 * A press of an answer's button, read and answered the same on every platform: where it was pressed
 * (the platform's place ids, never the button's value) makes the request's place; a button whose ids
 * name a thread of another place is logged and ignored, never acted on; and the outcome is shown by
 * the platform's own three ways — the words form, the answer marked verified, a private text.
 */
import { threadParts } from '../core/ids.ts';
import type { Logger } from '../logger.ts';
import type { Actor } from '../turns/actor.ts';
import type { PlaceIds, Places } from '../turns/place-sets.ts';
import type { ActionOutcome, AnswerActionRequest, WordsForm } from './answer-action.ts';
import { type ActionButton, type ActionIds, parseActionValue } from './answer-buttons.ts';

/** The core's request for a press at `at`: in a DM no channel's set, else the set of the channel pressed in. */
export function pressRequest(
  places: Places,
  at: PlaceIds,
  actor: Actor,
  ids: ActionIds,
): AnswerActionRequest {
  const place = at.inDirectMessage
    ? { inDirectMessage: true as const }
    : { inDirectMessage: false as const, channelScope: places.channelScope(at.place, at.channel) };
  return { actor, threadId: ids.threadId, answerId: ids.answerId, place };
}

/**
 * A button's value read back, only when its thread is `platform`'s, of `count` parts, and its first
 * parts are `here` (e.g. the workspace and channel it was pressed in): a value copied from another
 * place must not act there. Anything else is logged and undefined.
 */
export function idsPressedHere(
  raw: string | undefined,
  thread: { platform: string; count: number; here: readonly string[] },
  logger: Logger,
): ReturnType<typeof parseActionValue> {
  const ids = parseActionValue(raw);
  const parts = ids && threadParts(ids.threadId, thread.platform, thread.count);
  if (ids && parts && thread.here.every((part, index) => parts[index] === part)) return ids;
  logger.warn({ here: thread.here[0] }, 'an unreadable answer action, or one for another place, ignored');
  return undefined;
}

/**
 * A press's ids: those its button carried (`raw`), trusted only for a thread of `thread.here`
 * (`idsPressedHere`); or, where a button has no room for them, the ids of where it was pressed.
 */
export type PressedIds =
  | { raw: string | undefined; thread: Parameters<typeof idsPressedHere>[1] }
  | ActionIds;

/** The ids a press may act on; undefined (logged) for a button's ids of another place. */
export function readPressedIds(ids: PressedIds, logger: Logger): ReturnType<typeof parseActionValue> {
  return 'thread' in ids ? idsPressedHere(ids.raw, ids.thread, logger) : ids;
}

/** How a platform shows an `ActionOutcome`: each with its own wire calls. */
export interface OutcomeView {
  /** Opens the words form (its answer comes back as `give-reason-words.ts`). */
  openForm(form: WordsForm): Promise<unknown>;
  /** Marks the answer's message as verified by `name`. */
  markVerified(name: string): Promise<unknown>;
  /** Tells the person who pressed, privately, with the buttons offered (the 👎 reasons). */
  tell(text: string, buttons: readonly ActionButton[] | undefined): Promise<unknown>;
}

/** A form is shown instead of anything else; a verified answer is marked, then what was said is told. */
export async function showActionOutcome(outcome: ActionOutcome, view: OutcomeView): Promise<void> {
  if (outcome.form) {
    await view.openForm(outcome.form);
    return;
  }
  if (outcome.verifiedBy) await view.markVerified(outcome.verifiedBy);
  if (outcome.text) await view.tell(outcome.text, outcome.buttons);
}
