/** The buttons of an answer's second row (Verify, Ask a person) and a 👎's reasons, as Discord components. */
import { type APIActionRowComponent, type APIButtonComponent, ButtonStyle, ComponentType } from 'discord.js';
import { feedbackReasons } from '../../core/types.ts';
import {
  askPersonButtonLabel,
  feedbackReasonLabels,
  verifiedByText,
  verifyButtonLabel,
} from '../../turns/messages-en.ts';

type Row = APIActionRowComponent<APIButtonComponent>;

export const verifyPrefix = 'ragent:verify:';
export const askPersonPrefix = 'ragent:askperson:';

/** The row under an answer's 👍/👎: Verify (or who verified it) and Ask a person. */
export function answerActionsRow(answerId: string, verifiedBy?: string): Row {
  return {
    type: ComponentType.ActionRow,
    components: [
      {
        type: ComponentType.Button,
        style: verifiedBy ? ButtonStyle.Success : ButtonStyle.Secondary,
        custom_id: `${verifyPrefix}${answerId}`.slice(0, 100),
        label: verifiedBy ? verifiedByText(verifiedBy).slice(0, 80) : verifyButtonLabel,
        disabled: verifiedBy !== undefined,
      },
      {
        type: ComponentType.Button,
        style: ButtonStyle.Secondary,
        custom_id: `${askPersonPrefix}${answerId}`.slice(0, 100),
        label: askPersonButtonLabel,
      },
    ],
  };
}

/** The reasons a 👎 offers, one click each (shown to the voter only). */
export function reasonRow(answerId: string): Row {
  return {
    type: ComponentType.ActionRow,
    components: feedbackReasons.map((reason) => ({
      type: ComponentType.Button,
      style: ButtonStyle.Secondary,
      custom_id: `ragent:reason:${reason}:${answerId}`.slice(0, 100),
      label: feedbackReasonLabels[reason],
    })),
  };
}
