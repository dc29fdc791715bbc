/**
 * Which buttons an answer carries and what the 👎 reason chooser offers, described once: the
 * platform renders each `ActionButton` as its own kind of button and maps `action` to its wire id.
 */
import { type FeedbackReason, feedbackReasons, type ThreadId } from '../core/types.ts';
import {
  askPersonButtonLabel,
  feedbackReasonLabels,
  verifiedByText,
  verifyButtonLabel,
  voteDescriptions,
  voteLabels,
} from '../turns/messages-en.ts';

export type AnswerActionName = 'verify' | 'ask-person' | `reason:${FeedbackReason}`;

/** Every action a button can ask for besides the vote (which the answer's 👍/👎 carry themselves). */
export const answerActionNames: readonly AnswerActionName[] = [
  'verify',
  'ask-person',
  ...feedbackReasons.map((reason) => `reason:${reason}` as const),
];

/** The answer's 👍/👎: pressed, they go to `vote.ts` (each platform answers a vote at once). */
export type VoteAction = 'vote:up' | 'vote:down';
export const voteActions: readonly VoteAction[] = ['vote:up', 'vote:down'];

export interface ActionButton {
  action: AnswerActionName | VoteAction;
  label: string;
  /** What a screen reader says where the label is an emoji. */
  description?: string;
  style: 'secondary' | 'success';
  /** What the button carries back (`actionValue`, or whatever the platform passed in). */
  value: string;
  /** Shown, no longer pressable: who verified the answer. */
  disabled?: boolean;
}

export interface ActionIds {
  threadId: ThreadId;
  answerId: string;
}

/** A button's value: the thread and the answer it is about (as messages already in channels carry it). */
export function actionValue(ids: ActionIds): string {
  return JSON.stringify({ threadId: ids.threadId, answerId: ids.answerId });
}

/** A button's value read back; `vote` where the platform's vote element puts it there. Undefined when unreadable. */
export function parseActionValue(raw: string | undefined): (ActionIds & { vote?: unknown }) | undefined {
  try {
    const parsed = JSON.parse(raw ?? '') as { threadId?: unknown; answerId?: unknown; vote?: unknown };
    if (typeof parsed.threadId !== 'string' || typeof parsed.answerId !== 'string' || !parsed.answerId)
      return undefined;
    return { threadId: parsed.threadId, answerId: parsed.answerId, vote: parsed.vote };
  } catch {
    return undefined;
  }
}

/** Beside 👍/👎: Verify (or, once verified, who did it) and Ask a person. */
export function answerButtons(value: string, verifiedBy?: string): ActionButton[] {
  return [
    verifiedBy === undefined
      ? { action: 'verify', label: verifyButtonLabel, style: 'secondary', value }
      : { action: 'verify', label: verifiedByText(verifiedBy), style: 'success', value, disabled: true },
    { action: 'ask-person', label: askPersonButtonLabel, style: 'secondary', value },
  ];
}

/** Everything under an answer, as two rows: 👍/👎, then Verify (or who verified it) and Ask a person. */
export function buttonRowsUnderAnswer(value: string, verifiedBy?: string): [ActionButton[], ActionButton[]] {
  const votes = (['up', 'down'] as const).map((vote) => ({
    action: `vote:${vote}` as const,
    label: voteLabels[vote],
    description: voteDescriptions[vote],
    style: 'secondary' as const,
    value,
  }));
  return [votes, answerButtons(value, verifiedBy)];
}

export function isVote(action: ActionButton['action']): action is VoteAction {
  return action.startsWith('vote:');
}

/** What a 👎 offers: one click per reason, "Other…" asks for words. */
export function reasonButtons(value: string): ActionButton[] {
  return feedbackReasons.map((reason) => ({
    action: `reason:${reason}` as const,
    label: feedbackReasonLabels[reason],
    style: 'secondary' as const,
    value,
  }));
}

/** `verify`, `ask-person`, `reason:wrong` … from text; undefined for anything else. */
export function parseAnswerActionName(text: string): AnswerActionName | undefined {
  return answerActionNames.find((name) => name === text);
}
