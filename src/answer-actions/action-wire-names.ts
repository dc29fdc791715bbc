/**
 * Every answer button's name on the wire, from one table: `ragent`, then the action's words (a vote is
 * "feedback"), joined by the platform's separator — `ragent_feedback_up`, `ragent:reason:wrong`. The
 * names are in answers already posted, so they never change; a platform only says how it spells them.
 */
import { type ActionButton, answerActionNames, voteActions } from './answer-buttons.ts';

type Action = ActionButton['action'];
/**
 * What a wire name can name: an answer button, or Share under a private answer
 * (`replies/private-surface.ts`) — named the same way (`ragent_share`, `ragent:share:<answer>`), though
 * its press shares the answer rather than run an answer action.
 */
export type WireAction = Action | 'share';

/** A platform's spelling: its separator, and "ask a person" as one word (`ask_person`, `askperson`). */
export interface WireSpelling {
  /** Between `ragent` and each word of the action, and before what follows the name. */
  separator: string;
  /** "Ask a person", written as one word of the name. */
  askPerson: string;
}

/** Every button a press can name: 👍/👎, then Verify, Ask a person and the 👎 reasons. */
export const everyAction: readonly Action[] = [...voteActions, ...answerActionNames];

export function wireName(action: WireAction, spelling: WireSpelling): string {
  const words =
    action === 'ask-person' ? [spelling.askPerson] : action.replace(/^vote:/, 'feedback:').split(':');
  return ['ragent', ...words].join(spelling.separator);
}

/** A wire id that carries the answer's id after the action's name (where a button has no room for more). */
export function wireIdOfAnswer(action: WireAction, answerId: string, spelling: WireSpelling): string {
  return `${wireName(action, spelling)}${spelling.separator}${answerId}`;
}

/** The action and answer such a wire id names; undefined for any other id, or one with no answer. */
export function readWireIdOfAnswer(
  id: string,
  spelling: WireSpelling,
): { action: Action; answerId: string } | undefined {
  for (const action of everyAction) {
    const prefix = wireIdOfAnswer(action, '', spelling);
    if (id.startsWith(prefix) && id.length > prefix.length)
      return { action, answerId: id.slice(prefix.length) };
  }
  return undefined;
}
