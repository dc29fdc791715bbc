/**
 * The buttons on an answer besides 👍/👎, and what a 👎 opens: "Verify" (Manage Server or
 * RAGENT_ADMINS; the answer becomes a verified answer of this channel's set and its button turns into
 * "✅ Verified by <name>"), "Ask a person" (hands the thread off: `turns/hand-off.ts`), and the 👎
 * reason chooser (buttons; "Other…" opens a modal for the user's own words). Every interaction is
 * acknowledged before any store I/O: Discord allows 3 seconds.
 */
import { type ButtonInteraction, ComponentType, MessageFlags, type ModalSubmitInteraction } from 'discord.js';
import type { FeedbackReason, ThreadId } from '../../core/types.ts';
import { parseFeedbackReason, recordFeedbackReason } from '../../turns/feedback-reason.ts';
import {
  type HandOffOutcome,
  type HandOffReason,
  handOff,
  handOffOutcomeText,
} from '../../turns/hand-off.ts';
import {
  feedbackCommentLabel,
  feedbackReasonThanks,
  feedbackReasonTitle,
  verifiedConfirmText,
  verifyDeniedText,
  verifyInDirectMessageText,
  verifyUnknownText,
} from '../../turns/messages-en.ts';
import { verifyAnswer } from '../../turns/verify-answer.ts';
import { answerActionsRow, askPersonPrefix, verifyPrefix } from './answer-action-rows.ts';
import { isServerAdmin } from './discord-admins.ts';
import { noMentions } from './discord-client.ts';
import type { DiscordContext } from './discord-context.ts';
import { discordThreadLink } from './discord-ids.ts';
import { channelScope, guildChannelScopes, interactionSetChannel, threadIdOf } from './discord-scopes.ts';
import { errorText } from './discord-text.ts';
import { postDiscordHandOff } from './hand-off-line.ts';
import { feedbackRow } from './render-answer.ts';

const reasonPattern = /^ragent:reason:([a-z-]+):(.+)$/;
const reasonModalPrefix = 'ragent:reasonmodal:';
const commentInputId = 'comment';

/** Handles the button when it is one of these; false for any other button. */
export async function handleAnswerButton(
  context: DiscordContext,
  interaction: ButtonInteraction,
): Promise<boolean> {
  const { customId } = interaction;
  if (customId.startsWith(verifyPrefix)) {
    await verify(context, interaction, customId.slice(verifyPrefix.length));
    return true;
  }
  if (customId.startsWith(askPersonPrefix)) {
    await interaction.deferReply({ flags: MessageFlags.Ephemeral });
    const outcome = await handOffFrom(context, interaction, customId.slice(askPersonPrefix.length), 'asked');
    await interaction.editReply({ content: handOffOutcomeText(outcome), allowedMentions: noMentions });
    return true;
  }
  const reasonMatch = reasonPattern.exec(customId);
  const reason = parseFeedbackReason(reasonMatch?.[1]);
  if (reasonMatch?.[2] && reason) {
    await chooseReason(context, interaction, reasonMatch[2], reason);
    return true;
  }
  return false;
}

/** The "Other…" modal's answer: the 👎's reason with the user's words. False for another modal. */
export async function handleReasonModal(
  context: DiscordContext,
  interaction: ModalSubmitInteraction,
): Promise<boolean> {
  if (!interaction.customId.startsWith(reasonModalPrefix)) return false;
  await interaction.deferReply({ flags: MessageFlags.Ephemeral });
  const comment = interaction.fields.getTextInputValue(commentInputId);
  await recordFeedbackReason(context.services.coordination, {
    threadId: threadOf(interaction),
    answerId: interaction.customId.slice(reasonModalPrefix.length),
    user: interaction.user.id,
    reason: 'other',
    ...(comment ? { comment } : {}),
  });
  await interaction.editReply({ content: feedbackReasonThanks, allowedMentions: noMentions });
  return true;
}

/** After a 👎 was stored: the thread goes to a person (the reason chooser came with the thanks). */
export async function afterThumbsDown(
  context: DiscordContext,
  interaction: ButtonInteraction,
  answerId: string,
): Promise<void> {
  await handOffFrom(context, interaction, answerId, 'thumbs-down');
}

async function verify(context: DiscordContext, interaction: ButtonInteraction, answerId: string) {
  const refuse = (content: string) =>
    interaction.reply({ content, flags: MessageFlags.Ephemeral, allowedMentions: noMentions });
  if (!interaction.inGuild()) return void (await refuse(verifyInDirectMessageText));
  if (!isServerAdmin(context, interaction))
    return void (await refuse(`⚠️ ${verifyDeniedText('a member with Manage Server')}`));
  await interaction.deferUpdate();
  let outcome: Awaited<ReturnType<typeof verifyAnswer>>;
  try {
    const setChannel = await interactionSetChannel(interaction.client, interaction);
    outcome = await verifyAnswer(
      { feedback: context.services.coordination, verifiedAnswers: context.services.verifiedAnswers },
      {
        answerId,
        threadId: threadOf(interaction),
        scope: channelScope(interaction.guildId, setChannel),
        by: interaction.user.id,
      },
    );
  } catch (error) {
    // Said privately: the deferred update's own reply would be the answer message itself.
    context.logger.warn({ err: error, answerId }, 'could not verify the answer');
    await interaction.followUp({
      content: errorText(error),
      flags: MessageFlags.Ephemeral,
      allowedMentions: noMentions,
    });
    return;
  }
  if (outcome.kind === 'unknown') {
    await interaction.followUp({
      content: verifyUnknownText,
      flags: MessageFlags.Ephemeral,
      allowedMentions: noMentions,
    });
    return;
  }
  context.logger.info({ verifiedAnswer: outcome.answer.id, answerId }, 'answer verified');
  // The name on a button: never a mention.
  const name = interaction.user.globalName ?? interaction.user.username;
  await interaction.editReply({
    components: [feedbackRow(answerId), answerActionsRow(answerId, name)],
    allowedMentions: noMentions,
  });
  await interaction.followUp({
    content: verifiedConfirmText,
    flags: MessageFlags.Ephemeral,
    allowedMentions: noMentions,
  });
}

async function chooseReason(
  context: DiscordContext,
  interaction: ButtonInteraction,
  answerId: string,
  reason: FeedbackReason,
): Promise<void> {
  if (reason === 'other') {
    await interaction.showModal({
      custom_id: `${reasonModalPrefix}${answerId}`.slice(0, 100),
      title: feedbackReasonTitle,
      components: [
        {
          type: ComponentType.ActionRow,
          components: [
            {
              type: ComponentType.TextInput,
              custom_id: commentInputId,
              label: feedbackCommentLabel.slice(0, 45),
              style: 2,
              required: false,
              max_length: 1_000,
            },
          ],
        },
      ],
    });
    return;
  }
  await interaction.deferUpdate();
  await recordFeedbackReason(context.services.coordination, {
    threadId: threadOf(interaction),
    answerId,
    user: interaction.user.id,
    reason,
  });
  await interaction.editReply({ content: feedbackReasonThanks, components: [], allowedMentions: noMentions });
}

async function handOffFrom(
  context: DiscordContext,
  interaction: ButtonInteraction,
  answerId: string,
  why: HandOffReason,
): Promise<HandOffOutcome> {
  if (!interaction.inGuild()) return { kind: 'no-target' };
  const { services } = context;
  const threadId = threadOf(interaction);
  const setChannel = await interactionSetChannel(interaction.client, interaction);
  const [delivered] = await services.coordination.findAnswers([answerId]).catch(() => []);
  const link = discordThreadLink(threadId);
  return handOff(
    {
      claims: services.coordination,
      settings: services.coordination,
      turnHistory: services.turnHistory,
      logger: context.logger,
    },
    {
      platform: 'discord',
      threadId,
      channel: channelScope(interaction.guildId, setChannel),
      fallback: services.config.discord.handOff,
      scopes: await guildChannelScopes(
        services.coordination,
        context.logger,
        interaction.guildId,
        setChannel,
      ),
      user: interaction.user.id,
      ...(delivered?.threadId === threadId ? { question: delivered.question } : {}),
      ...(link ? { link } : {}),
      why,
      post: (target) => postDiscordHandOff(context.surfaces.client, threadId, target),
    },
  );
}

function threadOf(interaction: { channelId: string | null; guildId: string | null }): ThreadId {
  return threadIdOf({ id: interaction.channelId ?? '', guildId: interaction.guildId });
}
