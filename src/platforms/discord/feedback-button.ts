/** 👍/👎 under an answer (`answer-actions/vote.ts`): answered at once, privately (Discord allows 3 seconds), then stored. */
import { type ButtonInteraction, MessageFlags } from 'discord.js';
import { vote, voteReply } from '../../answer-actions/vote.ts';
import { buttonRow, parseFeedbackCustomId } from './answer-action-rows.ts';
import { discordActionContext, readRequest } from './answer-actions.ts';
import { noMentions } from './discord-client.ts';
import type { DiscordContext } from './discord-context.ts';

export async function handleFeedbackButton(
  context: DiscordContext,
  interaction: ButtonInteraction,
): Promise<void> {
  const feedback = parseFeedbackCustomId(interaction.customId);
  if (!feedback) return;
  const choice = { vote: feedback.value, value: feedback.answerId };
  const reply = voteReply(choice.vote, choice.value);
  await interaction.reply({
    content: reply.text ?? '',
    ...(reply.buttons ? { components: [buttonRow(reply.buttons)] } : {}),
    flags: MessageFlags.Ephemeral,
    allowedMentions: noMentions,
  });
  await vote(
    discordActionContext(context),
    await readRequest(context, interaction, feedback.answerId),
    choice,
  );
}
