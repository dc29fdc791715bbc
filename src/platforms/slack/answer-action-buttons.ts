/** The core's answer buttons and words form (`answer-actions/`) as Block Kit, with Slack's action ids. */
import type { WordsForm } from '../../answer-actions/answer-action.ts';
import {
  type ActionButton,
  type ActionIds,
  type AnswerActionName,
  actionValue,
  answerButtons,
} from '../../answer-actions/answer-buttons.ts';

export const answerActionsBlockId = 'ragent_answer_actions';
export const reasonModalCallbackId = 'ragent_reason_other';
export const commentBlockId = 'ragent_reason_comment';
export const commentActionId = 'comment';

/** `ragent_verify`, `ragent_ask_person`, `ragent_reason_wrong`: as answers already in channels carry them. */
export function slackActionId(action: AnswerActionName): string {
  return action === 'ask-person' ? 'ragent_ask_person' : `ragent_${action.replace(':', '_')}`;
}

/** Slack's buttons cannot be disabled: one that is (who verified) is said in a context line instead. */
export function slackButtons(buttons: readonly ActionButton[]): Array<Record<string, unknown>> {
  return buttons
    .filter((button) => !button.disabled)
    .map((button) => ({
      type: 'button',
      action_id: slackActionId(button.action),
      text: { type: 'plain_text', text: button.label },
      value: button.value,
    }));
}

export function answerActionButtons(value: string): Array<Record<string, unknown>> {
  return slackButtons(answerButtons(value));
}

/** Where Slack's feedback element is used (its block holds nothing else), the two buttons follow it. */
export function answerActionsBlock(value: string): Record<string, unknown> {
  return { type: 'actions', block_id: answerActionsBlockId, elements: answerActionButtons(value) };
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
