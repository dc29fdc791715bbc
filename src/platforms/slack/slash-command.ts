/**
 * `/ragent ingest | docs | forget <name> | move <name> to channel|workspace | use #channel | unuse #channel | help`. Every command is acknowledged at once; the work
 * happens afterwards and answers privately through the command's `response_url`.
 */
import type { App } from '@slack/bolt';
import type { DocumentRecord } from '../../core/types.ts';
import { toRagentError } from '../../errors.ts';
import { linkChannel, unlinkChannel, withLinks } from '../../turns/channel-links.ts';
import {
  listDocuments as documentsFor,
  forgetDocument,
  groupBySet,
  moveDocument,
  type PlaceSets,
  scopesOfSets,
  setOfScope,
} from '../../turns/document-commands.ts';
import { ingestTargetFromText, parseIngestTarget } from '../../turns/ingest-target.ts';
import {
  documentSetsIntro,
  forgetDeniedText,
  linkDeniedText,
  linkedText,
  moveDeniedText,
  movedText,
  moveTakenText,
  noDocumentsText,
  removedText,
  setTitle,
  unlinkedText,
} from '../../turns/messages-en.ts';
import { webAddressesIn } from '../../turns/web-page-file.ts';
import { autoAnswerCommand, withAutoAnswerStatus } from './auto-answer-command.ts';
import { runHandOffCommand } from './handoff-command.ts';
import { slackWebPagesJob } from './ingest-job.ts';
import { ingestModal } from './ingest-modal.ts';
import { runPrivateAsk } from './private-ask.ts';
import { helpText, slackTerms } from './render-reply.ts';
import { isWorkspaceAdmin } from './slack-admins.ts';
import { channelScope, isDirectMessageChannel, placeSets, type SlackContext } from './slack-context.ts';
import { safeMrkdwn } from './slack-text.ts';

export const slashCommandName = '/ragent';
const maxListed = 50;

export function registerSlashCommand(app: App, context: SlackContext): void {
  app.command(slashCommandName, async ({ command, ack, respond }) => {
    await ack();
    const [subcommand = '', ...rest] = command.text.trim().split(/\s+/);
    const argument = rest.join(' ').trim();
    const reply = (text: string) =>
      respond({ response_type: 'ephemeral', text, replace_original: false }).catch((error: unknown) =>
        context.logger.warn({ err: error }, 'could not answer the command'),
      );
    const replyWithStatus = async (text: string) => reply(await withAutoAnswerStatus(context, command, text));
    const reference = `${command.command} ${command.trigger_id}`;
    context.turns.track('the command', async () => {
      try {
        switch (subcommand.toLowerCase()) {
          case 'ingest':
            if (webAddressesIn(argument).length > 0) {
              context.turns.ingest(
                slackWebPagesJob(context, {
                  teamId: command.team_id,
                  channel: command.channel_id,
                  target: ingestTargetFromText(argument, context.services.config.ingest.defaultSet),
                  user: command.user_id,
                  urls: webAddressesIn(argument),
                  destination: { channel: command.channel_id },
                  reference,
                }),
              );
              return;
            }
            await context.client.views.open({
              trigger_id: command.trigger_id,
              view: ingestModal(
                {
                  channel: command.channel_id,
                  user: command.user_id,
                  team: command.team_id,
                },
                context.services.config.ingest.defaultSet,
              ) as never,
            });
            return;
          case 'docs':
          case 'documents':
          case 'list':
            await replyWithStatus(
              await listDocuments(
                context,
                await withLinks(
                  context.services.coordination,
                  placeSets(command.team_id, command.channel_id),
                  context.logger,
                ),
              ),
            );
            return;
          case 'forget':
          case 'remove':
            await reply(
              await forget(
                context,
                placeSets(command.team_id, command.channel_id),
                command.user_id,
                unescapeSlackText(argument),
              ),
            );
            return;
          case 'move':
            await reply(
              await move(
                context,
                placeSets(command.team_id, command.channel_id),
                command.user_id,
                unescapeSlackText(argument),
              ),
            );
            return;
          case 'use':
          case 'unuse':
            await reply(
              await useChannel(context, {
                teamId: command.team_id,
                channel: command.channel_id,
                user: command.user_id,
                argument,
                link: subcommand.toLowerCase() === 'use',
              }),
            );
            return;
          case 'autoanswer':
            await reply(
              await autoAnswerCommand(context, command, argument, () =>
                isWorkspaceAdmin(context, command.user_id),
              ),
            );
            return;
          case 'ask':
            return runPrivateAsk(context, command, respond, argument);
          case 'handoff':
            await reply(
              await runHandOffCommand(context, {
                teamId: command.team_id,
                channel: command.channel_id,
                user: command.user_id,
                argument,
              }),
            );
            return;
          case '':
          case 'help':
            await replyWithStatus(helpText);
            return;
          default:
            await reply(
              `I don’t know \`${safeMrkdwn(subcommand)}\`. To ask a question, mention me in a channel.\n\n${helpText}`,
            );
        }
      } catch (error) {
        const ragentError = toRagentError(error);
        context.logger.error({ err: error, code: ragentError.code, reference }, 'command failed');
        await reply(`:warning: ${safeMrkdwn(ragentError.message)}`);
      }
    });
  });
}

async function listDocuments(context: SlackContext, sets: PlaceSets): Promise<string> {
  const documents = await documentsFor(context.services.ingestion, scopesOfSets(sets));
  if (documents.length === 0) {
    return noDocumentsText({ ...slackTerms, ingestCommand: '`/ragent ingest`' });
  }
  const lines: string[] = [];
  let listed = 0;
  for (const group of groupBySet(documents, sets)) {
    lines.push(`*${setTitle(group.set)}* (${group.documents.length})`);
    for (const document of group.documents) {
      if (listed++ < maxListed) lines.push(describeDocument(document));
    }
  }
  const more = documents.length > maxListed ? `\n…and ${documents.length - maxListed} more.` : '';
  return `${documentSetsIntro}\n${lines.join('\n')}${more}`;
}

function describeDocument(document: DocumentRecord): string {
  return `• *${safeMrkdwn(document.name)}* — ${document.pages} pages, ${document.children} chunks, added ${document.ingestedAt.slice(0, 10)}`;
}

async function forget(context: SlackContext, sets: PlaceSets, user: string, name: string): Promise<string> {
  if (!name) return 'Which document? Use `/ragent forget <name>`; `/ragent docs` lists them.';
  const outcome = await forgetDocument(context.services.ingestion, {
    idOrName: name,
    scopes: [...(sets.channel ? [sets.channel] : []), sets.place],
    uploader: user,
    isAdmin: () => isWorkspaceAdmin(context, user),
    logger: context.logger,
  });
  const document = safeMrkdwn(outcome.document.name);
  return outcome.kind === 'denied'
    ? `:warning: ${forgetDeniedText(document, slackTerms)} Ask them to run \`/ragent forget ${document}\`.`
    : `:wastebasket: ${removedText(`*${document}*`, outcome.document.pages, setOfScope(outcome.document.scope, sets))}`;
}

/** `/ragent move <name> to channel|workspace`: between this channel's set and the workspace's. */
async function move(context: SlackContext, sets: PlaceSets, user: string, argument: string): Promise<string> {
  const parsed = /^(.+?)\s+to\s+(?:this\s+|the\s+(?:whole\s+)?)?(channel|workspace)$/i.exec(argument);
  if (!parsed?.[1] || !parsed[2]) {
    return 'Which document, and where to? Use `/ragent move <name> to channel` or `/ragent move <name> to workspace`; `/ragent docs` lists the documents.';
  }
  const outcome = await moveDocument(context.services.ingestion, {
    idOrName: parsed[1],
    sets,
    to: parseIngestTarget(parsed[2].toLowerCase(), 'channel'),
    uploader: user,
    isAdmin: () => isWorkspaceAdmin(context, user),
    logger: context.logger,
  });
  const document = `*${safeMrkdwn(outcome.document.name)}*`;
  switch (outcome.kind) {
    case 'moved':
      return `:package: ${movedText(document, outcome.from, outcome.to, outcome.cleanUpPending)}`;
    case 'denied':
      return `:warning: ${moveDeniedText(document, slackTerms)}`;
    case 'taken':
      return `:warning: ${moveTakenText(document, outcome.to)}`;
  }
}

/**
 * `/ragent use #oncall` / `unuse #oncall` (workspace admins): this channel also searches #oncall's
 * set. The channel comes from Slack's own mention markup (`<#C123|name>`), in this workspace.
 */
async function useChannel(
  context: SlackContext,
  request: { teamId: string; channel: string; user: string; argument: string; link: boolean },
): Promise<string> {
  const verb = request.link ? 'use' : 'unuse';
  const mentioned = /^<#([CG][A-Z0-9]+)(?:\|[^>]*)?>$/.exec(request.argument)?.[1];
  if (!mentioned)
    return `Which channel? Use \`/ragent ${verb} #channel\` and pick the channel from the list.`;
  if (isDirectMessageChannel(request.channel))
    return 'Use this command in the channel that should search more.';
  if (!(await isWorkspaceAdmin(context, request.user)))
    return `:warning: ${linkDeniedText(slackTerms.admin)}`;
  const channel = channelScope(request.teamId, request.channel);
  const linked = channelScope(request.teamId, mentioned);
  const shown = `<#${mentioned}>`;
  const { coordination } = context.services;
  return request.link
    ? linkedText(
        shown,
        await linkChannel(coordination, { channel, linked, placeName: 'workspace', logger: context.logger }),
      )
    : unlinkedText(shown, await unlinkChannel(coordination, { channel, linked, logger: context.logger }));
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
