/**
 * `/ragent ask <question>` on Slack: a private answer (turns/private-answers.ts) shown only to the
 * asker (private-surface.ts), and its Share button, which posts the question and the answer in the
 * channel as a new message, crediting the asker by name (never a ping), once however often it is
 * pressed and on whichever replica. The private message then says it was shared.
 */
import type { App, BlockButtonAction, RespondFn, SlashCommand } from '@slack/bolt';
import { toRagentError } from '../../errors.ts';
import {
  alreadySharedText,
  askEmptyText,
  askedText,
  restartingText,
  sharedNoteText,
  shareFailedText,
  shareGoneText,
  shareNotYoursText,
} from '../../turns/messages-en.ts';
import { askPrivately, claimShare, privateThreadId, type SharedAnswer } from '../../turns/private-answers.ts';
import { shortenText } from '../shared/shorten-text.ts';
import { openPrivateSurface, privateLocation, shareActionId } from './private-surface.ts';
import { renderAnswer } from './render-answer.ts';
import { placeScopes, type SlackContext } from './slack-context.ts';
import { postMessage, type SlackMessage, slackErrorCode } from './slack-message.ts';
import { cleanIncomingText, safeMrkdwn } from './slack-text.ts';

/** The question as shown in the credit line of a shared answer (a section takes 3,000 characters). */
const maxSharedQuestion = 1_000;

/** `/ragent ask <question>`: acknowledged already; the answer goes to the asker only. */
export async function runPrivateAsk(
  context: SlackContext,
  command: SlashCommand,
  respond: RespondFn,
  argument: string,
): Promise<void> {
  const tell = (text: string) =>
    respond({ response_type: 'ephemeral', replace_original: false, text: safeMrkdwn(text) });
  const text = cleanIncomingText(argument, context.botUserId);
  if (!text) return void (await tell(askEmptyText));
  if (context.turns.stopping) return void (await tell(restartingText));
  const where = { teamId: command.team_id, channel: command.channel_id, user: command.user_id };
  askPrivately(context.turns, {
    asker: { platform: 'slack', workspace: where.teamId, channel: where.channel, user: where.user },
    id: command.trigger_id,
    text,
    reference: `${command.command} ask ${command.trigger_id}`,
    // A command has no message timestamp: the time it arrived orders the asker's private turns.
    position: (Date.now() / 1000).toFixed(6),
    location: privateLocation(where),
    scopes: () => placeScopes(context, where.teamId, where.channel),
    open: () => openPrivateSurface({ ...where, client: context.client, logger: context.logger, respond }),
  });
}

/** The Share button of private answers. */
export function registerShareAction(app: App, context: SlackContext): void {
  app.action<BlockButtonAction>(shareActionId, async ({ ack, action, body, respond }) => {
    await ack();
    context.turns.track('sharing a private answer', () => share(context, body, action.value ?? '', respond));
  });
}

async function share(
  context: SlackContext,
  body: BlockButtonAction,
  answerId: string,
  respond: RespondFn,
): Promise<void> {
  const tell = async (text: string) => {
    await respond({ response_type: 'ephemeral', replace_original: false, text: safeMrkdwn(text) }).catch(
      (error: unknown) =>
        context.logger.debug({ status: statusOf(error) }, 'could not answer the Share press'),
    );
  };
  const team = body.team?.id ?? body.user.team_id ?? '';
  let outcome: Awaited<ReturnType<typeof claimShare>>;
  try {
    outcome = await claimShare(context.services.coordination, {
      platform: 'slack',
      workspace: team,
      user: body.user.id,
      answerId,
    });
  } catch (error) {
    context.logger.error({ err: error, answerId }, 'could not check the share');
    return tell(shareFailedText(toRagentError(error).message));
  }
  switch (outcome.kind) {
    case 'already-shared':
      return tell(alreadySharedText);
    case 'not-yours':
      return tell(shareNotYoursText);
    case 'gone':
      return tell(shareGoneText);
    case 'share':
      break;
  }
  const { shared } = outcome;
  try {
    const name = await displayName(context, body.user.id, body.user.name);
    for (const message of sharedMessages(shared, name))
      await postMessage(context.client, { channel: shared.asker.channel }, message);
  } catch (error) {
    const code = slackErrorCode(error);
    context.logger.error({ code, answerId }, 'could not share the answer');
    // The share is claimed: a second press would say "already shared". Say what happened instead.
    return tell(shareFailedText(code ? `Slack said ${code}.` : toRagentError(error).message));
  }
  context.logger.info({ answerId, channel: shared.asker.channel }, 'private answer shared');
  // The private message keeps the answer, now without the Share button, and says it was shared.
  const [first, ...rest] = renderAnswer(shared.answer, privateThreadId(shared.asker));
  const kept = rest.length === 0 && first ? first : undefined;
  await respond({
    response_type: 'ephemeral',
    replace_original: true,
    text: kept ? kept.text : sharedNoteText,
    blocks: [
      ...((kept?.fallbackBlocks ?? kept?.blocks ?? []) as never[]),
      { type: 'context', elements: [{ type: 'mrkdwn', text: `:white_check_mark: _${sharedNoteText}_` }] },
    ] as never,
  }).catch((error: unknown) =>
    context.logger.debug({ status: statusOf(error) }, 'could not mark the private answer as shared'),
  );
}

/**
 * The shared answer in the channel: the credit line (the asker's name, as text), then the answer as
 * it was delivered, with its sources and 👍/👎.
 */
function sharedMessages(shared: SharedAnswer, name: string): SlackMessage[] {
  const credit = askedText(
    `*${safeMrkdwn(name)}*`,
    safeMrkdwn(shortenText(shared.question, maxSharedQuestion)),
  );
  const messages = renderAnswer(shared.answer, privateThreadId(shared.asker));
  const [first] = messages;
  if (!first) return [{ text: credit }];
  const creditBlock = { type: 'section', text: { type: 'mrkdwn', text: credit } };
  first.text = `${credit}\n\n${first.text}`;
  first.blocks = [creditBlock, ...(first.blocks ?? [])];
  if (first.fallbackBlocks) first.fallbackBlocks = [creditBlock, ...first.fallbackBlocks];
  return messages;
}

/** The asker's name as Slack shows it (display name, else real name, else the name in the payload). */
async function displayName(context: SlackContext, user: string, fallback: string | undefined) {
  try {
    const result = await context.client.users.info({ user });
    const profile = result.user?.profile;
    const name = profile?.display_name || profile?.real_name || result.user?.real_name || result.user?.name;
    if (name) return name;
  } catch (error) {
    context.logger.debug({ code: slackErrorCode(error) }, 'could not read the asker’s name');
  }
  return fallback || 'Someone';
}

function statusOf(error: unknown): number | undefined {
  return (error as { response?: { status?: number } }).response?.status;
}
