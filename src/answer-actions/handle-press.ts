/**
 * A press of an answer's button, from the platform's reading of it to its outcome, decided once for
 * every platform: which ids may act (a button's ids only where its thread is), which action (one
 * element may carry both votes in its value), and when the press is acknowledged — a platform that
 * must answer within seconds hears from us before any I/O: a vote is thanked at once and stored after,
 * "Other…" opens its form, Ask a person opens a private reply, the others promise an update.
 */
import type { Actor } from '../turns/actor.ts';
import type { PlaceIds, Places } from '../turns/place-sets.ts';
import type { AnswerActionContext } from './answer-action.ts';
import { type ActionButton, type ActionIds, actionValue, isVote } from './answer-buttons.ts';
import {
  type OutcomeView,
  type PressedIds,
  pressRequest,
  readPressedIds,
  showActionOutcome,
} from './answer-press.ts';
import { reasonWordsForm } from './choose-reason.ts';
import { runAnswerAction } from './run-answer-action.ts';
import { vote, voteReply } from './vote.ts';

/** What the platform read from its payload. */
export interface Press {
  /** The button pressed; unset where one element carries both votes and its value says which. */
  action?: ActionButton['action'];
  ids: PressedIds;
  actor: Actor;
}

/** What acknowledging a press means on a platform that must do it before any I/O. */
export interface PressAcknowledgement {
  /** Opens a private reply, filled with the outcome later (Ask a person). */
  privately(): Promise<unknown>;
  /** Promises an update of the pressed message (Verify, a 👎 reason). */
  update(): Promise<unknown>;
}

export interface PressPort {
  places: Places;
  /** Where it was pressed; may ask the platform (I/O), so it is read after any acknowledgement. */
  place(): PlaceIds | Promise<PlaceIds>;
  /** Unset: the press is acknowledged already, and what is shown may wait for the store. */
  acknowledge?: PressAcknowledgement;
  /** How the outcome is shown for these ids (the words form carries them). */
  view(ids: ActionIds): OutcomeView;
}

export async function handlePress(
  context: AnswerActionContext,
  press: Press,
  port: PressPort,
): Promise<void> {
  const ids = readPressedIds(press.ids, context.logger);
  if (!ids) return;
  const action =
    press.action ?? (ids.vote === 'up' || ids.vote === 'down' ? (`vote:${ids.vote}` as const) : undefined);
  if (!action) {
    context.logger.warn('feedback without a vote ignored');
    return;
  }
  const view = port.view(ids);
  const request = async () => pressRequest(port.places, await port.place(), press.actor, ids);
  // "Other…" asks for words and stores nothing yet: its form is the first answer, before any I/O.
  if (action === 'reason:other') {
    await showActionOutcome({ form: reasonWordsForm }, view);
    return;
  }
  const { acknowledge } = port;
  if (acknowledge && isVote(action)) {
    // Thanked at once (a 👎 asked why, with its reasons), then stored.
    const choice = {
      vote: action === 'vote:up' ? ('up' as const) : ('down' as const),
      value: (context.buttonValue ?? actionValue)(ids),
    };
    await showActionOutcome(voteReply(choice.vote, choice.value), view);
    await vote(context, await request(), choice);
    return;
  }
  if (acknowledge) await (action === 'ask-person' ? acknowledge.privately() : acknowledge.update());
  await showActionOutcome(await runAnswerAction(context, action, await request()), view);
}
