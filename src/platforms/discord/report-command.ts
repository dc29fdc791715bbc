/**
 * `/ragent-report [days]`: the operator's report (src/operators/place-report.ts) for this server only
 * — its own set and its channels' — privately, in one message within Discord's 2,000 characters.
 * Discord lets members with Manage Server run it by default (see command-definitions.ts).
 */
import { type ChatInputCommandInteraction, escapeMarkdown, MessageFlags } from 'discord.js';
import {
  type ChatReportSummary,
  createPlaceReport,
  defaultChatReportDays,
  fitLines,
  sinceDaysAgo,
  summarizeForChat,
} from '../../operators/place-report.ts';
import {
  chatReportMoreText,
  chatReportNoUnansweredText,
  chatReportNoUncitedText,
  chatReportPastRetentionText,
  chatReportReason,
  chatReportStaleText,
  chatReportTitle,
  chatReportTotalsText,
  chatReportUnansweredTitle,
  chatReportUncitedTitle,
} from '../../turns/messages-en.ts';
import { reportDaysOption } from './command-definitions.ts';
import { noMentions } from './discord-client.ts';
import type { DiscordContext } from './discord-context.ts';
import { guildScope } from './discord-scopes.ts';
import { messageLimit } from './render-answer.ts';

export async function runReportCommand(
  context: DiscordContext,
  interaction: ChatInputCommandInteraction<'cached' | 'raw'>,
): Promise<void> {
  // First: reading the history may take longer than Discord's 3 seconds.
  await interaction.deferReply({ flags: MessageFlags.Ephemeral });
  const days = interaction.options.getInteger(reportDaysOption) ?? defaultChatReportDays;
  const { services } = context;
  const place = guildScope(interaction.guildId);
  const report = await createPlaceReport(
    {
      turnHistory: services.turnHistory,
      verifiedAnswers: services.verifiedAnswers,
      listFeedback: (query) => services.coordination.listFeedback(query),
      listPlaceDocuments: (scope) => services.ingestion.listPlaceDocuments(scope),
    },
    {
      place,
      platform: 'discord',
      ownsThread: (threadId) => threadId.startsWith(`${place}:`),
      since: sinceDaysAgo(days),
    },
  );
  await interaction.editReply({
    content: reportText(summarizeForChat(report), days),
    allowedMentions: noMentions,
  });
}

/** The report as one Discord message: the lists end early (saying how many are left) to fit. */
export function reportText(summary: ChatReportSummary, days: number, limit = messageLimit): string {
  const { report } = summary;
  const stale = report.staleVerifiedAnswers.length;
  const head = [
    `**${chatReportTitle(days, 'this server')}**`,
    chatReportTotalsText(report.totals),
    ...(stale > 0 ? [chatReportStaleText(stale)] : []),
  ];
  const unanswered = summary.unanswered.map((question) => {
    const text = question.text ? `“${escapeMarkdown(question.text)}”` : chatReportPastRetentionText;
    // The link in <…>: Discord shows no preview of it.
    const link = question.link ? ` — [thread](<${question.link}>)` : '';
    return `• ${text} (${chatReportReason(question.reason)})${link}`;
  });
  const uncited = summary.uncitedDocuments.map((document) => `• ${escapeMarkdown(document.name)}`);
  const sections: Array<{ title: string; none: string; lines: string[]; more: number }> = [
    {
      title: chatReportUnansweredTitle,
      none: chatReportNoUnansweredText,
      lines: unanswered,
      more: summary.moreUnanswered,
    },
    {
      title: chatReportUncitedTitle,
      none: chatReportNoUncitedText,
      lines: uncited,
      more: summary.moreUncitedDocuments,
    },
  ];
  // Each section keeps an equal share of what is left after the head, so a long first list never
  // pushes the second one out.
  const share = Math.floor((limit - head.join('\n').length - 4) / sections.length);
  const parts = sections.map((section) => {
    const title = `\n**${section.title}**`;
    if (section.lines.length === 0) return `${title}\n${section.none}`;
    return [title, ...fitLines(section.lines, section.more, share - title.length, chatReportMoreText)].join(
      '\n',
    );
  });
  return [...head, ...parts].join('\n');
}
