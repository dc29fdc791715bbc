/** 👍/👎 under an answer: stored with the thread and answer ids, acknowledged to the clicker only. */
import { type ButtonInteraction, MessageFlags } from 'discord.js';
import { feedbackReasonPrompt, feedbackThanksText } from '../../turns/messages-en.ts';
import { reasonRow } from './answer-action-rows.ts';
import { afterThumbsDown } from './answer-actions.ts';
import { noMentions } from './discord-client.ts';
import type { DiscordContext } from './discord-context.ts';
import { threadIdOf } from './discord-scopes.ts';
import { parseFeedbackCustomId } from './render-answer.ts';

export async function handleFeedbackButton(
  context: DiscordContext,
  interaction: ButtonInteraction,
): Promise<void> {
  const feedback = parseFeedbackCustomId(interaction.customId);
  if (!feedback) return;
  const threadId = threadIdOf({ id: interaction.channelId, guildId: interaction.guildId });
  // Acknowledged first: Discord allows 3 seconds, the store may be slower.
  // A 👎 also asks why, with one click (the vote itself is stored at once).
  const down = feedback.value === 'down';
  await interaction.reply({
    content: down ? feedbackReasonPrompt : feedbackThanksText(feedback.value),
    ...(down ? { components: [reasonRow(feedback.answerId)] } : {}),
    flags: MessageFlags.Ephemeral,
    allowedMentions: noMentions,
  });
  await context.services.coordination.recordFeedback({
    threadId,
    answerId: feedback.answerId,
    user: interaction.user.id,
    value: feedback.value,
    at: new Date().toISOString(),
  });
  if (down) await afterThumbsDown(context, interaction, feedback.answerId);
}
