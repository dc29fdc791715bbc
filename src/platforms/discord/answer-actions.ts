/**
 * Discord's side of the buttons on an answer (`answer-actions/`): the core's press flow
 * (`handle-press.ts`) acknowledges each interaction before any I/O, as Discord allows 3 seconds — a
 * deferred private reply or a deferred update here — and the outcome is shown on the interaction. The
 * thread and the channel's set are where it was pressed (a custom id has no room for more).
 */
import {
  type APIModalInteractionResponseCallbackData,
  type ButtonInteraction,
  ComponentType,
  MessageFlags,
  type ModalSubmitInteraction,
  TextInputStyle,
} from 'discord.js';
import type { WordsForm } from '../../answer-actions/answer-action.ts';
import type { ActionButton } from '../../answer-actions/answer-buttons.ts';
import type { OutcomeView } from '../../answer-actions/answer-press.ts';
import { submitReasonWords } from '../../answer-actions/give-reason-words.ts';
import { handlePress } from '../../answer-actions/handle-press.ts';
import { platformActionContext } from '../../answer-actions/platform-action-context.ts';
import { answerRows, buttonRow, parseActionCustomId } from './answer-action-rows.ts';
import { discordActor } from './discord-admins.ts';
import { noMentions } from './discord-client.ts';
import type { DiscordContext } from './discord-context.ts';
import { discordMarkup } from './discord-markup.ts';
import { discordPlaces, interactionPlace, threadIdOf } from './discord-scopes.ts';

const reasonModalPrefix = 'ragent:reasonmodal:';
const commentInputId = 'comment';

function discordActionContext(context: DiscordContext) {
  // The 👎 reasons carry the answer's id only: their custom id has no room for the thread.
  const buttonValue = (ids: { answerId: string }) => ids.answerId;
  return platformActionContext(context.services, context.turns.platform, discordMarkup, buttonValue);
}

/** A button under an answer (👍/👎, Verify, Ask a person) or a 👎 reason; any other button is left alone. */
export async function handleAnswerButton(context: DiscordContext, interaction: ButtonInteraction) {
  const pressed = parseActionCustomId(interaction.customId);
  if (!pressed) return;
  const { action, answerId } = pressed;
  const actor = discordActor(context, interaction, interaction.user.id);
  const ids = { threadId: threadIdOf({ id: interaction.channelId, guildId: interaction.guildId }), answerId };
  await handlePress(
    discordActionContext(context),
    { action, ids, actor },
    {
      places: discordPlaces,
      place: () => interactionPlace(interaction),
      acknowledge: {
        privately: () => interaction.deferReply({ flags: MessageFlags.Ephemeral }),
        update: () => interaction.deferUpdate(),
      },
      view: () => outcomeView(interaction, action, answerId),
    },
  );
}

/** The outcome on the pressed interaction: a modal, the answer's rows updated, or a private text. */
function outcomeView(
  interaction: ButtonInteraction,
  action: ActionButton['action'],
  answerId: string,
): OutcomeView {
  return {
    openForm: (form) => interaction.showModal(wordsModal(form, answerId)),
    markVerified: (name) =>
      interaction.editReply({ components: answerRows(answerId, name), allowedMentions: noMentions }),
    tell: (content, buttons) => {
      const say = { content, allowedMentions: noMentions, components: buttons ? [buttonRow(buttons)] : [] };
      // A vote is answered by this text; Verify updated the answer itself, so what it says goes apart.
      if (!interaction.deferred) return interaction.reply({ ...say, flags: MessageFlags.Ephemeral });
      if (action === 'verify') return interaction.followUp({ ...say, flags: MessageFlags.Ephemeral });
      // A reason replaces its chooser; Ask a person fills its deferred reply.
      return interaction.editReply(say);
    },
  };
}

/** The "Other…" modal's answer: the 👎's reason with the user's words. Any other modal is left alone. */
export async function handleReasonModal(context: DiscordContext, interaction: ModalSubmitInteraction) {
  if (!interaction.customId.startsWith(reasonModalPrefix)) return;
  await interaction.deferReply({ flags: MessageFlags.Ephemeral });
  const threadId = threadIdOf({ id: interaction.channelId ?? '', guildId: interaction.guildId });
  const ids = { threadId, answerId: interaction.customId.slice(reasonModalPrefix.length) };
  const actor = discordActor(context, interaction, interaction.user.id);
  const words = interaction.fields.getTextInputValue(commentInputId);
  const text = await submitReasonWords(discordActionContext(context), { ids, actor, words });
  await interaction.editReply({ content: text ?? '', allowedMentions: noMentions });
}

function wordsModal(form: WordsForm, answerId: string): APIModalInteractionResponseCallbackData {
  return {
    custom_id: `${reasonModalPrefix}${answerId}`.slice(0, 100),
    title: form.title,
    components: [
      {
        type: ComponentType.ActionRow,
        components: [
          {
            type: ComponentType.TextInput,
            custom_id: commentInputId,
            label: form.label.slice(0, 45),
            style: TextInputStyle.Paragraph,
            required: false,
            max_length: form.maxLength,
          },
        ],
      },
    ],
  };
}
