/**
 * The app's Home tab: published each time someone opens it (`app_home_opened` → `views.publish`).
 * A workspace admin or owner sees the operator's report for this workspace only
 * (src/operators/place-report.ts) — last 7 days, with 24 h / 7 d / 30 d buttons that publish it again;
 * everyone else sees how to use ragent. Admin status is asked of Slack at every publish, button
 * clicks included (a click's payload could come from anyone).
 */
import type { App, BlockButtonAction, types } from '@slack/bolt';
import { helpText } from '../../commands/help-command.ts';
import { readPlaceReport, reportListTexts, reportTotalsText } from '../../commands/report-command.ts';
import {
  type ChatReportSummary,
  chatReportDays,
  defaultChatReportDays,
} from '../../operators/place-report.ts';
import { chatReportTitle, chatReportWindowLabel } from '../../turns/messages-en.ts';
import { slackActor } from './slack-admins.ts';
import { type SlackContext, workspaceScope } from './slack-context.ts';
import { slackMarkup } from './slack-markup.ts';
import { maxSectionText } from './slack-message.ts';

/** The report window buttons (`ragent_home_report_7`: action ids are unique per block); the value is the number of days. */
export const homeReportActionId = 'ragent_home_report';

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
    const place = { place: workspaceScope(team), platform: 'slack', days };
    const blocks = (await slackActor(context, { id: user }).managesPlace())
      ? reportBlocks(await readPlaceReport(context.services, place), days)
      : [section(helpText(slackMarkup, true).slice(0, maxSectionText))];
    await context.client.views.publish({ user_id: user, view: { type: 'home', blocks } });
  } catch (error) {
    context.logger.warn({ err: error, user }, 'home tab not published');
  }
}

function section(text: string): types.KnownBlock {
  return { type: 'section', text: { type: 'mrkdwn', text } };
}

/** The report in a handful of blocks (Slack allows 100), each section's text within 3,000 characters. */
export function reportBlocks(summary: ChatReportSummary, days: number): types.KnownBlock[] {
  const [unanswered, uncited] = reportListTexts(summary, slackMarkup, maxSectionText);
  return [
    { type: 'header', text: { type: 'plain_text', text: chatReportTitle(days, slackMarkup.terms.place) } },
    {
      type: 'actions',
      elements: chatReportDays.map((window) => ({
        type: 'button',
        action_id: `${homeReportActionId}_${window}`,
        value: String(window),
        text: { type: 'plain_text', text: chatReportWindowLabel(window) },
        ...(window === days ? { style: 'primary' as const } : {}),
      })),
    },
    section(reportTotalsText(summary)),
    { type: 'divider' },
    section(unanswered ?? ''),
    section(uncited ?? ''),
  ];
}
