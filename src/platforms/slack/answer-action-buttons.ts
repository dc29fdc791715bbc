/** The core's answer buttons and words form (`answer-actions/`) as Block Kit, with Slack's action ids. */

import { type WireSpelling, wireName } from '../../answer-actions/action-wire-names.ts';
import type { WordsForm } from '../../answer-actions/answer-action.ts';
import {
  type ActionButton,
  type ActionIds,
  actionValue,
  isVote,
} from '../../answer-actions/answer-buttons.ts';

export const answerActionsBlockId = 'ragent_answer_actions';
export const reasonModalCallbackId = 'ragent_reason_other';
export const commentBlockId = 'ragent_reason_comment';
export const commentActionId = 'comment';
/** The `feedback_buttons` element's action: its value says which of the two was clicked. */
export const feedbackElementActionId = 'ragent_feedback';

/** Slack's spelling of the action ids (`ragent_feedback_up`, `ragent_ask_person`), as answers carry them. */
export const slackSpelling: WireSpelling = { separator: '_', askPerson: 'ask_person' };

export function slackActionId(action: ActionButton['action']): string {
  return wireName(action, slackSpelling);
}

/** Slack's buttons cannot be disabled: one that is (who verified) is said in a context line instead. */
export function slackButtons(buttons: readonly ActionButton[]): Array<Record<string, unknown>> {
  return buttons
    .filter((button) => !button.disabled)
    .map((button) => ({
      type: 'button',
      action_id: slackActionId(button.action),
      text: { type: 'plain_text', text: button.label, ...(isVote(button.action) ? { emoji: true } : {}) },
      value: button.value,
      ...(button.description ? { accessibility_label: button.description } : {}),
    }));
}

/** The modal; its metadata carries the thread and answer (checked against the workspace on submit). */
export function wordsModal(form: WordsForm, ids: ActionIds): Record<string, unknown> {
  return {
    type: 'modal',
    callback_id: reasonModalCallbackId,
    private_metadata: actionValue(ids),
    title: { type: 'plain_text', text: form.title },
    submit: { type: 'plain_text', text: form.submit },
    close: { type: 'plain_text', text: form.cancel },
    blocks: [
      {
        type: 'input',
        block_id: commentBlockId,
        optional: true,
        label: { type: 'plain_text', text: form.label },
        element: {
          type: 'plain_text_input',
          action_id: commentActionId,
          multiline: true,
          max_length: form.maxLength,
        },
      },
    ],
  };
}
