/**
 * `/ragent handoff @group` (workspace admins): who follows up in this channel when an answer gets 👎
 * or is not found — a user group or a person, picked from Slack's mention list (the command escapes
 * it as `<!subteam^S…|@name>` / `<@U…|name>`); `/ragent handoff off` goes back to RAGENT_HANDOFF_SLACK.
 * Stored as a channel setting, so every replica reads the same.
 */
import { setHandOffTarget } from '../../turns/hand-off.ts';
import {
  handOffClearedText,
  handOffDeniedText,
  handOffSetText,
  handOffUsageText,
} from '../../turns/messages-en.ts';
import { parseSlackHandOffTarget } from './hand-off-line.ts';
import { slackTerms } from './render-reply.ts';
import { isWorkspaceAdmin } from './slack-admins.ts';
import { channelScope, isDirectMessageChannel, type SlackContext } from './slack-context.ts';

export async function runHandOffCommand(
  context: SlackContext,
  request: { teamId: string; channel: string; user: string; argument: string },
): Promise<string> {
  if (isDirectMessageChannel(request.channel))
    return 'Use this command in the channel whose questions should be followed up.';
  const argument = request.argument.trim();
  const off = argument.toLowerCase() === 'off';
  const target = off ? undefined : parseSlackHandOffTarget(argument);
  if (!off && !target) return handOffUsageText;
  if (!(await isWorkspaceAdmin(context, request.user)))
    return `:warning: ${handOffDeniedText(slackTerms.admin)}`;
  await setHandOffTarget(
    context.services.coordination,
    channelScope(request.teamId, request.channel),
    target ?? null,
  );
  // Shown by id: this private reply never pings the group.
  const fallback = context.services.config.slack.handOff;
  return target ? handOffSetText(`\`${target}\``) : handOffClearedText(fallback && `\`${fallback}\``);
}
