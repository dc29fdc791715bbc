/** The core's answer buttons and 👎 reasons (`answer-actions/answer-buttons.ts`) as Discord component rows. */
import { type APIActionRowComponent, type APIButtonComponent, ButtonStyle, ComponentType } from 'discord.js';
import {
  readWireIdOfAnswer,
  type WireSpelling,
  wireIdOfAnswer,
} from '../../answer-actions/action-wire-names.ts';
import { type ActionButton, buttonRowsUnderAnswer, isVote } from '../../answer-actions/answer-buttons.ts';

type Row = APIActionRowComponent<APIButtonComponent>;

/** Discord's custom ids, as messages carry them: `ragent:feedback:up:<answer>`, `ragent:askperson:<answer>`. */
export const discordSpelling: WireSpelling = { separator: ':', askPerson: 'askperson' };

function customIdOf(action: ActionButton['action'], answerId: string): string {
  return wireIdOfAnswer(action, answerId, discordSpelling).slice(0, 100);
}

/** The action and answer a custom id names; undefined for any other custom id. */
export function parseActionCustomId(
  customId: string,
): { action: ActionButton['action']; answerId: string } | undefined {
  return readWireIdOfAnswer(customId, discordSpelling);
}

/** Buttons whose value is the answer's id (a custom id holds 100 characters: the thread is where it was pressed). */
export function buttonRow(buttons: readonly ActionButton[]): Row {
  return {
    type: ComponentType.ActionRow,
    components: buttons.map((button) => ({
      type: ComponentType.Button,
      style: button.style === 'success' ? ButtonStyle.Success : ButtonStyle.Secondary,
      custom_id: customIdOf(button.action, button.value),
      // 👍/👎 show as emoji, the others by their words.
      ...(isVote(button.action) ? { emoji: { name: button.label } } : { label: button.label.slice(0, 80) }),
      ...(button.disabled ? { disabled: true } : {}),
    })),
  };
}

/** The rows under an answer: 👍/👎, then Verify (or who verified it) and Ask a person. */
export function answerRows(answerId: string, verifiedBy?: string): Row[] {
  return buttonRowsUnderAnswer(answerId, verifiedBy).map(buttonRow);
}
