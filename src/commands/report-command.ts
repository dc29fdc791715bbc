/**
 * The operator's report in chat (src/operators/place-report.ts), for this workspace or server only —
 * its own set and its channels': `/ragent-report [days]` on Discord, the Home tab on Slack. Who may see
 * it is the platform's own setting (Discord: Manage Server by default) or check (Slack's Home tab).
 */
import type { Scope } from '../core/types.ts';
import {
  type ChatReportSummary,
  createPlaceReport,
  defaultChatReportDays,
  fitLines,
  sinceDaysAgo,
  summarizeForChat,
} from '../operators/place-report.ts';
import type { ChatMarkup } from '../turns/chat-markup.ts';
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
} from '../turns/messages-en.ts';
import type { CommandOperation, CommandServices } from './command-request.ts';

export const reportCommand: CommandOperation = async (request, services) => {
  const value = request.arguments.days;
  const days = typeof value === 'number' ? value : defaultChatReportDays;
  const { place } = request.place.sets;
  const report = await readPlaceReport(services, { place, platform: request.place.platform, days });
  return reportText(report, days, request.markup, request.maxLength);
};

/** The place's report for the last `days`, summarized for a chat. */
export async function readPlaceReport(
  services: CommandServices,
  { place, platform, days }: { place: Scope; platform: string; days: number },
): Promise<ChatReportSummary> {
  const { turnHistory, verifiedAnswers, coordination, ingestion } = services;
  const sources = {
    turnHistory,
    verifiedAnswers,
    listFeedback: coordination.listFeedback.bind(coordination),
    listPlaceDocuments: ingestion.listPlaceDocuments.bind(ingestion),
  };
  const ownsThread = (threadId: string) => threadId.startsWith(`${place}:`);
  const report = await createPlaceReport(sources, { place, platform, ownsThread, since: sinceDaysAgo(days) });
  return summarizeForChat(report);
}

/** The totals under the title (and the stale verified answers, when there are any). */
export function reportTotalsText(summary: ChatReportSummary): string {
  const stale = summary.report.staleVerifiedAnswers.length;
  return [
    chatReportTotalsText(summary.report.totals),
    ...(stale > 0 ? [chatReportStaleText(stale)] : []),
  ].join('\n');
}

/** The two lists (unanswered questions, uncited documents), each with its bold title, within `limit`. */
export function reportListTexts(summary: ChatReportSummary, markup: ChatMarkup, limit: number): string[] {
  const link = (url: string) => (markup.link ? markup.link(url, 'thread') : `thread: ${url}`);
  const unanswered = summary.unanswered.map((question) => {
    const text = question.text ? `“${markup.literal(question.text)}”` : chatReportPastRetentionText;
    return `• ${text} (${chatReportReason(question.reason)})${question.link ? ` — ${link(question.link)}` : ''}`;
  });
  const uncited = summary.uncitedDocuments.map((document) => `• ${markup.literal(document.name)}`);
  const list = (title: string, none: string, lines: string[], more: number) => {
    const heading = markup.bold(title);
    const body =
      lines.length === 0 ? [none] : fitLines(lines, more, limit - heading.length - 1, chatReportMoreText);
    return [heading, ...body].join('\n');
  };
  return [
    list(chatReportUnansweredTitle, chatReportNoUnansweredText, unanswered, summary.moreUnanswered),
    list(chatReportUncitedTitle, chatReportNoUncitedText, uncited, summary.moreUncitedDocuments),
  ];
}

/** The report as one message: each list keeps an equal share of what the head leaves, so neither pushes the other out. */
export function reportText(
  summary: ChatReportSummary,
  days: number,
  markup: ChatMarkup,
  limit: number,
): string {
  const head = `${markup.bold(chatReportTitle(days, markup.terms.place))}\n${reportTotalsText(summary)}`;
  const share = Math.floor((limit - head.length - 4) / 2);
  return [head, ...reportListTexts(summary, markup, share)].join('\n\n');
}
