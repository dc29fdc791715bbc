/**
 * `/ragent autoanswer on|off` on Slack (workspace admins and owners, or users in RAGENT_ADMINS): this
 * channel's top-level questions are answered in a thread without a mention. The switch itself, and
 * what counts as a question, are the runner's (`turns/auto-answer.ts`, `turns/decide-turn.ts`).
 */
import { parseOnOff, readAutoAnswer, setAutoAnswer } from '../../turns/auto-answer.ts';
import {
  autoAnswerDeniedText,
  autoAnswerNotHereText,
  autoAnswerSetText,
  autoAnswerStatusText,
  autoAnswerUsageText,
} from '../../turns/messages-en.ts';
import { slackTerms } from './render-reply.ts';
import { channelScope, isDirectMessageChannel, type SlackContext } from './slack-context.ts';

export const autoAnswerSubcommand = 'autoanswer';

export async function autoAnswerCommand(
  context: SlackContext,
  command: { team_id: string; channel_id: string; user_id: string },
  argument: string,
  /** Whether the user is a workspace admin or owner, or listed in RAGENT_ADMINS. */
  isAdmin: () => Promise<boolean>,
): Promise<string> {
  const request = { teamId: command.team_id, channel: command.channel_id, user: command.user_id, argument };
  const on = parseOnOff(request.argument);
  if (on === undefined) return autoAnswerUsageText('`/ragent autoanswer on|off`');
  if (isDirectMessageChannel(request.channel)) return autoAnswerNotHereText;
  if (!(await isAdmin())) return `:warning: ${autoAnswerDeniedText(slackTerms.admin)}`;
  const changed = await setAutoAnswer(context.services.coordination, {
    channel: channelScope(request.teamId, request.channel),
    on,
    user: request.user,
    logger: context.logger,
  });
  return autoAnswerSetText(`<#${request.channel}>`, on, changed);
}

/** `text` with the channel's auto-answer line under it (for `/ragent docs` and `help`; none in a DM). */
export async function withAutoAnswerStatus(
  context: SlackContext,
  command: { team_id: string; channel_id: string },
  text: string,
): Promise<string> {
  const where = { teamId: command.team_id, channel: command.channel_id };
  if (isDirectMessageChannel(where.channel)) return text;
  const on = await readAutoAnswer(
    context.services.coordination,
    channelScope(where.teamId, where.channel),
    context.logger,
  );
  return `${text}\n\n${autoAnswerStatusText(on, '`/ragent autoanswer`')}`;
}
