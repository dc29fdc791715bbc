/**
 * `/ragent <command>` on Slack: the text is read against the command table (src/commands/), the
 * command runs in the core, and its reply goes back privately through the command's `response_url`.
 * Every command is acknowledged at once; the work happens afterwards. Ingest (a form or web pages) and
 * ask (a private answer) are their own handlers'.
 */
import type { App, SlashCommand } from '@slack/bolt';
import { commandTable } from '../../commands/command-table.ts';
import { parseCommandText, type TextSyntax } from '../../commands/parse-command-text.ts';
import { routeCommand } from '../../commands/route-command.ts';
import { runCommandRequest } from '../../commands/run-command-request.ts';
import { chatIngestJob } from '../../turns/chat-ingest-job.ts';
import { webAddressesIn } from '../../turns/web-page-file.ts';
import { parseSlackHandOffTarget } from './hand-off-line.ts';
import { slackIngestFrom } from './ingest-job.ts';
import { ingestModal } from './ingest-modal.ts';
import { runPrivateAsk } from './private-ask.ts';
import { slackActor } from './slack-admins.ts';
import { channelScope, placeAt, type SlackContext, slackPlaces } from './slack-context.ts';
import { slackMarkup } from './slack-markup.ts';

export const slashCommandName = '/ragent';
const slackCommands = commandTable(slackMarkup.terms);
/** What one reply may hold: Slack cuts a message's text far later, but a list this long is read by no one. */
const maxReplyLength = 4_000;

/** How Slack writes channels and people in a command (the app's command has `should_escape: true`). */
const slackSyntax: TextSyntax = {
  channel: (token) => /^<#([CG][A-Z0-9]+)(?:\|[^>]*)?>$/.exec(token)?.[1],
  mentionable: parseSlackHandOffTarget,
  unescape: unescapeSlackText,
};

export function registerSlashCommand(app: App, context: SlackContext): void {
  app.command(slashCommandName, async ({ command, ack, respond }) => {
    // Acknowledged on receipt: every answer is a reply through the command's `response_url`.
    await ack();
    const replies = {
      reply: (text: string) => respond({ response_type: 'ephemeral', text, replace_original: false }),
      markup: slackMarkup,
      logger: context.logger,
      reference: `${command.command} ${command.trigger_id}`,
    };
    const route = () =>
      routeCommand({
        call: parseCommandText(command.text, slackCommands, slackSyntax),
        // A DM is still one of the workspace's.
        inPlace: true,
        replies,
        handlers: {
          ingest: (rest) => startIngest(context, command, rest, replies.reference),
          ask: (rest) => runPrivateAsk(context, command, respond, rest),
        },
        actor: () => slackActor(context, { id: command.user_id, name: command.user_name }),
        at: async () => placeAt(command.team_id, command.channel_id),
        places: slackPlaces,
        known: {
          // A channel from Slack's own mention list is one of this workspace (the mention says which).
          lookUpChannel: async (id) => ({
            scope: channelScope(command.team_id, id),
            inPlace: true,
            answerable: true,
          }),
          readsEveryMessage: true,
          handOffDefault: context.services.config.slack.handOff,
        },
        maxLength: maxReplyLength,
        services: context.services,
      });
    // A failure of the ingest or ask handler is told like a command's.
    context.turns.track('the command', () => runCommandRequest(route, replies));
  });
}

/** `/ragent ingest <url>…` fetches the pages (into the set the text names); alone it opens the form. */
async function startIngest(
  context: SlackContext,
  command: SlashCommand,
  argument: string,
  reference: string,
) {
  const { team_id: teamId, channel_id: channel, user_id: user } = command;
  const urls = webAddressesIn(argument);
  if (urls.length > 0) {
    const from = slackIngestFrom(context, { teamId, channel, user, destination: { channel }, reference });
    const pages = { web: context.services.web, urls };
    context.turns.ingest(chatIngestJob({ ...from, asked: { text: argument }, pages }));
    return;
  }
  await context.client.views.open({
    trigger_id: command.trigger_id,
    view: ingestModal({ channel, user, team: teamId }, context.services.config.ingest.defaultSet) as never,
  });
}

/**
 * The command text as typed: the app's command escapes mentions and links (`should_escape: true`, so
 * `use #channel` arrives as `<#C123|name>`); a document name Slack turned into a link is its text.
 */
function unescapeSlackText(text: string): string {
  return text
    .replace(/<(?:https?|mailto):[^|>]*\|([^>]*)>/g, '$1')
    .replace(/<((?:https?|mailto):[^|>]*)>/g, '$1')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');
}
