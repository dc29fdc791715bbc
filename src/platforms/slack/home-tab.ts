/**
 * The app's Home tab: published each time someone opens it (`app_home_opened` → `views.publish`).
 * A workspace admin or owner sees the operator's report for this workspace only
 * (src/operators/place-report.ts) — last 7 days, with 24 h / 7 d / 30 d buttons that publish it again;
 * everyone else sees how to use ragent. Admin status is asked of Slack at every publish, button
 * clicks included (a click's payload could come from anyone).
 */
import type { App, BlockButtonAction, types } from '@slack/bolt';
import {
  type ChatReportSummary,
  chatReportDays,
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
import { helpText } from './render-reply.ts';
import { isWorkspaceAdmin } from './slack-admins.ts';
import { type SlackContext, workspaceScope } from './slack-context.ts';
import { safeMrkdwn } from './slack-text.ts';

/** The report window buttons (`ragent_home_report_7`: action ids are unique per block); the value is the number of days. */
export const homeReportActionId = 'ragent_home_report';
/** Slack refuses a section's text over 3,000 characters. */
const sectionTextLimit = 3_000;

export function registerHomeTab(app: App, context: SlackContext): void {
  app.event('app_home_opened', async ({ event, body }) => {
    if (event.tab !== 'home') return;
    await publishHome(context, body.team_id, event.user, defaultChatReportDays);
  });
  app.action<BlockButtonAction>(new RegExp(`^${homeReportActionId}_`), async ({ ack, action, body }) => {
    await ack();
    const days = Number(action.value);
    const team = body.team?.id ?? body.user.team_id;
    if (!team || !chatReportDays.includes(days as (typeof chatReportDays)[number])) return;
    await publishHome(context, team, body.user.id, days);
  });
}

async function publishHome(context: SlackContext, team: string, user: string, days: number): Promise<void> {
  try {
    const blocks = (await isWorkspaceAdmin(context, user))
      ? reportBlocks(summarizeForChat(await placeReport(context, team, days)), days)
      : helpBlocks();
    await context.client.views.publish({ user_id: user, view: { type: 'home', blocks } });
  } catch (error) {
    context.logger.warn({ err: error, user }, 'home tab not published');
  }
}

function placeReport(context: SlackContext, team: string, days: number) {
  const { services } = context;
  const place = workspaceScope(team);
  return createPlaceReport(
    {
      turnHistory: services.turnHistory,
      verifiedAnswers: services.verifiedAnswers,
      listFeedback: (query) => services.coordination.listFeedback(query),
      listPlaceDocuments: (scope) => services.ingestion.listPlaceDocuments(scope),
    },
    {
      place,
      platform: 'slack',
      ownsThread: (threadId) => threadId.startsWith(`${place}:`),
      since: sinceDaysAgo(days),
    },
  );
}

function helpBlocks(): types.KnownBlock[] {
  return [{ type: 'section', text: { type: 'mrkdwn', text: helpText.slice(0, sectionTextLimit) } }];
}

/** The report in a handful of blocks (Slack allows 100), each section's text within 3,000 characters. */
export function reportBlocks(summary: ChatReportSummary, days: number): types.KnownBlock[] {
  const { report } = summary;
  const unanswered = summary.unanswered.map((question) => {
    const text = question.text ? `“${safeMrkdwn(question.text)}”` : chatReportPastRetentionText;
    const link = question.link ? ` — <${question.link}|thread>` : '';
    return `• ${text} (${chatReportReason(question.reason)})${link}`;
  });
  const uncited = summary.uncitedDocuments.map((document) => `• ${safeMrkdwn(document.name)}`);
  const list = (title: string, none: string, lines: string[], more: number): types.KnownBlock => {
    const heading = `*${title}*`;
    const body =
      lines.length === 0
        ? [none]
        : fitLines(lines, more, sectionTextLimit - heading.length - 1, chatReportMoreText);
    return { type: 'section', text: { type: 'mrkdwn', text: [heading, ...body].join('\n') } };
  };
  return [
    { type: 'header', text: { type: 'plain_text', text: chatReportTitle(days, 'this workspace') } },
    {
      type: 'actions',
      elements: chatReportDays.map((window) => ({
        type: 'button',
        action_id: `${homeReportActionId}_${window}`,
        value: String(window),
        text: { type: 'plain_text', text: window === 1 ? '24 h' : `${window} d` },
        ...(window === days ? { style: 'primary' as const } : {}),
      })),
    },
    {
      type: 'section',
      text: {
        type: 'mrkdwn',
        text: [
          chatReportTotalsText(report.totals),
          ...(report.staleVerifiedAnswers.length > 0
            ? [chatReportStaleText(report.staleVerifiedAnswers.length)]
            : []),
        ].join('\n'),
      },
    },
    { type: 'divider' },
    list(chatReportUnansweredTitle, chatReportNoUnansweredText, unanswered, summary.moreUnanswered),
    list(chatReportUncitedTitle, chatReportNoUncitedText, uncited, summary.moreUncitedDocuments),
  ];
}
