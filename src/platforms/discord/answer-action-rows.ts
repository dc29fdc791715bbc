/** The core's answer buttons and 👎 reasons (`answer-actions/answer-buttons.ts`) as Discord component rows. */
import { type APIActionRowComponent, type APIButtonComponent, ButtonStyle, ComponentType } from 'discord.js';
import {
  type ActionButton,
  type AnswerActionName,
  answerButtons,
  parseAnswerActionName,
} from '../../answer-actions/answer-buttons.ts';

type Row = APIActionRowComponent<APIButtonComponent>;

/** `ragent:verify:<answer>`, `ragent:askperson:<answer>`, `ragent:reason:wrong:<answer>`, as messages carry them. */
function customIdOf(action: AnswerActionName, answerId: string): string {
  return `ragent:${action === 'ask-person' ? 'askperson' : action}:${answerId}`.slice(0, 100);
}

export function parseActionCustomId(
  customId: string,
): { action: AnswerActionName; answerId: string } | undefined {
  const [, name = '', answerId] = /^ragent:(verify|askperson|reason:[a-z-]+):(.+)$/.exec(customId) ?? [];
  const action = parseAnswerActionName(name === 'askperson' ? 'ask-person' : name);
  return action && answerId ? { action, answerId } : undefined;
}

/** Buttons whose value is the answer's id (a custom id holds 100 characters: the thread is where it was pressed). */
export function buttonRow(buttons: readonly ActionButton[]): Row {
  return {
    type: ComponentType.ActionRow,
    components: buttons.map((button) => ({
      type: ComponentType.Button,
      style: button.style === 'success' ? ButtonStyle.Success : ButtonStyle.Secondary,
      custom_id: customIdOf(button.action, button.value),
      label: button.label.slice(0, 80),
      ...(button.disabled ? { disabled: true } : {}),
    })),
  };
}

/** The row under an answer's 👍/👎: Verify (or who verified it) and Ask a person. */
export function answerActionsRow(answerId: string, verifiedBy?: string): Row {
  return buttonRow(answerButtons(answerId, verifiedBy));
}
