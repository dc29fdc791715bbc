/**
 * The buttons beside 👍/👎 under an answer: "Verify" (admins turn the answer into a verified one; the
 * press is checked) and "Ask a person" (hand the thread to the channel's follow-up group). Their
 * value carries the thread and answer ids, like the feedback buttons'.
 */
import { askPersonButtonLabel, verifyButtonLabel } from '../../turns/messages-en.ts';

export const answerActionIds = { verify: 'ragent_verify', askPerson: 'ragent_ask_person' } as const;
export const answerActionsBlockId = 'ragent_answer_actions';

export function answerActionButtons(value: string): Array<Record<string, unknown>> {
  return [
    {
      type: 'button',
      action_id: answerActionIds.verify,
      text: { type: 'plain_text', text: verifyButtonLabel },
      value,
    },
    {
      type: 'button',
      action_id: answerActionIds.askPerson,
      text: { type: 'plain_text', text: askPersonButtonLabel },
      value,
    },
  ];
}

/** Where Slack's feedback element is used (its block holds nothing else), the two buttons follow it. */
export function answerActionsBlock(value: string): Record<string, unknown> {
  return { type: 'actions', block_id: answerActionsBlockId, elements: answerActionButtons(value) };
}
