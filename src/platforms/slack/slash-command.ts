/**
 * `/ragent <command>` on Slack: the text is read against the command table (src/commands/), the
 * command runs in the core, and its reply goes back privately through the command's `response_url`.
 * Every command is acknowledged at once; the work happens afterwards. Ingest (a form or web pages) and
 * ask (a private answer) are their own handlers'.
 */
import type { App, SlashCommand } from '@slack/bolt';
import { commandPlace } from '../../commands/command-place.ts';
import type { CommandPlace } from '../../commands/command-request.ts';
import { commandTable } from '../../commands/command-table.ts';
import { parseCommandText, type TextSyntax } from '../../commands/parse-command-text.ts';
import { runCommandRequest } from '../../commands/run-command-request.ts';
import { runTextCommand } from '../../commands/run-text-command.ts';
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
    await ack();
    const replies = {
      reply: (text: string) => respond({ response_type: 'ephemeral', text, replace_original: false }),
      markup: slackMarkup,
      logger: context.logger,
      reference: `${command.command} ${command.trigger_id}`,
    };
    const run = async () => {
      const parsed = parseCommandText(command.text, slackCommands, slackSyntax);
      const name = parsed.kind === 'command' || parsed.kind === 'unusable' ? parsed.command.name : '';
      if (name === 'ingest' && 'rest' in parsed)
        return startIngest(context, command, parsed.rest, replies.reference);
      if (name === 'ask' && 'rest' in parsed) return runPrivateAsk(context, command, respond, parsed.rest);
      const actor = slackActor(context, { id: command.user_id, name: command.user_name });
      const place = slackPlace(context, command);
      const request = { actor, place, markup: slackMarkup, maxLength: maxReplyLength };
      return runTextCommand(parsed, request, context.services);
    };
    context.turns.track('the command', () => runCommandRequest(run, replies));
  });
}

/** Where a command was typed: its channel (a DM has none) of its workspace. */
function slackPlace(context: SlackContext, command: SlashCommand): CommandPlace {
  const { team_id: team, channel_id: channel } = command;
  return commandPlace(slackPlaces, placeAt(team, channel), {
    // A channel from Slack's own mention list is one of this workspace (the mention says which).
    lookUpChannel: async (id) => ({ scope: channelScope(team, id), inPlace: true, answerable: true }),
    readsEveryMessage: true,
    handOffDefault: context.services.config.slack.handOff,
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
