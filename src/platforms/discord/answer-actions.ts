/**
 * Discord's side of the buttons on an answer (`answer-actions/`): each interaction is acknowledged
 * before any store I/O (Discord allows 3 seconds) — "Other…" by its modal, Verify by updating the
 * answer, the others by a private reply — then read into the core's request and its outcome shown.
 */
import {
  type APIModalInteractionResponseCallbackData,
  type ButtonInteraction,
  ComponentType,
  MessageFlags,
  type ModalSubmitInteraction,
  TextInputStyle,
} from 'discord.js';
import type {
  AnswerActionContext,
  AnswerActionRequest,
  WordsForm,
} from '../../answer-actions/answer-action.ts';
import { reasonWordsForm } from '../../answer-actions/choose-reason.ts';
import { giveReasonWords } from '../../answer-actions/give-reason-words.ts';
import { runAnswerAction } from '../../answer-actions/run-answer-action.ts';
import { answerRows, parseActionCustomId } from './answer-action-rows.ts';
import { discordActor } from './discord-admins.ts';
import { noMentions } from './discord-client.ts';
import type { DiscordContext } from './discord-context.ts';
import { discordThreadLink } from './discord-ids.ts';
import { discordMarkup } from './discord-markup.ts';
import { channelScope, interactionSetChannel, threadIdOf } from './discord-scopes.ts';
import { postDiscordHandOff } from './hand-off-line.ts';

const reasonModalPrefix = 'ragent:reasonmodal:';
const commentInputId = 'comment';

export function discordActionContext(context: DiscordContext): AnswerActionContext {
  const { config } = context.services;
  const post = postDiscordHandOff.bind(null, context.surfaces.client);
  const handOff = { fallback: config.discord.handOff, post };
  return { ...context, markup: discordMarkup, platform: 'discord', handOff, threadLink: discordThreadLink };
}

/** Handles the button when it is one of these; false for any other button. */
export async function handleAnswerButton(
  context: DiscordContext,
  interaction: ButtonInteraction,
): Promise<boolean> {
  const pressed = parseActionCustomId(interaction.customId);
  if (!pressed) return false;
  const { action, answerId } = pressed;
  if (action === 'reason:other') {
    await interaction.showModal(wordsModal(reasonWordsForm, answerId));
    return true;
  }
  if (action === 'ask-person') await interaction.deferReply({ flags: MessageFlags.Ephemeral });
  else await interaction.deferUpdate();
  const request = await readRequest(context, interaction, answerId);
  const outcome = await runAnswerAction(discordActionContext(context), action, request);
  const say = { content: outcome.text ?? '', allowedMentions: noMentions };
  if (outcome.verifiedBy)
    await interaction.editReply({
      components: answerRows(answerId, outcome.verifiedBy),
      allowedMentions: noMentions,
    });
  // Verify updated the answer itself: what it says goes privately, apart. A reason replaces its chooser.
  if (action === 'verify') await interaction.followUp({ ...say, flags: MessageFlags.Ephemeral });
  else await interaction.editReply({ ...say, components: [] });
  return true;
}

/** The "Other…" modal's answer: the 👎's reason with the user's words. False for another modal. */
export async function handleReasonModal(
  context: DiscordContext,
  interaction: ModalSubmitInteraction,
): Promise<boolean> {
  if (!interaction.customId.startsWith(reasonModalPrefix)) return false;
  await interaction.deferReply({ flags: MessageFlags.Ephemeral });
  const outcome = await giveReasonWords(
    discordActionContext(context),
    {
      actor: discordActor(context, interaction, interaction.user.id),
      threadId: threadIdOf({ id: interaction.channelId ?? '', guildId: interaction.guildId }),
      answerId: interaction.customId.slice(reasonModalPrefix.length),
    },
    interaction.fields.getTextInputValue(commentInputId),
  );
  await interaction.editReply({ content: outcome.text ?? '', allowedMentions: noMentions });
  return true;
}

/** The press as the core's request: the thread and the channel's set are where it was pressed. */
export async function readRequest(
  context: DiscordContext,
  interaction: ButtonInteraction,
  answerId: string,
): Promise<AnswerActionRequest> {
  const threadId = threadIdOf({ id: interaction.channelId, guildId: interaction.guildId });
  const actor = discordActor(context, interaction, interaction.user.id);
  if (!interaction.inGuild()) return { actor, answerId, threadId, place: { inDirectMessage: true } };
  const setChannel = await interactionSetChannel(interaction.client, interaction);
  const place = {
    inDirectMessage: false as const,
    channelScope: channelScope(interaction.guildId, setChannel),
  };
  return { actor, answerId, threadId, place };
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
