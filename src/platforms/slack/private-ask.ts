/**
 * `/ragent ask <question>` and its Share button on Slack: the payloads read into the core's private
 * ask and Share (`commands/private-ask.ts`, `answer-actions/share-private-answer.ts`); Slack gives the private
 * notices (the command's or the press's `response_url`), the presser's name, and the shared post.
 */
import type { App, BlockButtonAction, RespondFn, SlashCommand } from '@slack/bolt';
import { sharePrivateAnswer } from '../../answer-actions/share-private-answer.ts';
import { runPrivateAsk as askInCore } from '../../commands/private-ask.ts';
import { platformSaidText } from '../../turns/messages-en.ts';
import { privatePort, shareActionId } from './private-surface.ts';
import { renderAnswer } from './render-answer.ts';
import { slackActor } from './slack-admins.ts';
import { placeScopes, type SlackContext } from './slack-context.ts';
import { slackMarkup } from './slack-markup.ts';
import { postMessage, slackErrorCode } from './slack-message.ts';
import { cleanIncomingText } from './slack-text.ts';

/** `/ragent ask <question>`: acknowledged already; the answer goes to the asker only. */
export async function runPrivateAsk(
  context: SlackContext,
  command: SlashCommand,
  respond: RespondFn,
  argument: string,
): Promise<void> {
  const where = { teamId: command.team_id, channel: command.channel_id, user: command.user_id };
  const question = {
    asker: { platform: 'slack', workspace: where.teamId, channel: where.channel, user: where.user },
    id: command.trigger_id,
    text: cleanIncomingText(argument, context.botUserId),
    command: command.command,
    scopes: () => placeScopes(context, where.teamId, where.channel),
    port: privatePort(context, { ...where, respond }),
  };
  await askInCore(context.turns, question);
}

/** The Share button of private answers. */
export function registerShareAction(app: App, context: SlackContext): void {
  app.action<BlockButtonAction>(shareActionId, async ({ ack, action, body, respond }) => {
    await ack();
    context.turns.track('sharing a private answer', async () => {
      const name = (await displayName(context, body.user.id)) ?? body.user.name;
      const actor = slackActor(context, { id: body.user.id, ...(name ? { name } : {}) });
      const press = { platform: 'slack', workspace: body.team?.id ?? body.user.team_id ?? '', actor };
      const where = { teamId: press.workspace, channel: body.channel?.id ?? '', user: body.user.id, respond };
      await sharePrivateAnswer(
        context.services.coordination,
        { ...press, answerId: action.value ?? '' },
        {
          markup: slackMarkup,
          // The press's response_url tells the presser, and replaces the private message it came from.
          port: privatePort(context, where),
          answer: (shared) => renderAnswer(shared.answer, shared.threadId),
          // The credit always joins the first part (its text is shortened where Slack needs it).
          credit: {
            join: (credit, { text, blocks = [], fallbackBlocks }) => {
              const above = creditBlock(credit);
              const fallback = fallbackBlocks && { fallbackBlocks: [above, ...fallbackBlocks] };
              return { text: `${credit}\n\n${text}`, blocks: [above, ...blocks], ...fallback };
            },
            alone: (credit) => ({ text: credit, blocks: [creditBlock(credit)] }),
          },
          post: (channel, message) => postMessage(context.client, { channel }, message),
          refusal: (error) => {
            const code = slackErrorCode(error);
            return code ? platformSaidText('Slack', code) : undefined;
          },
        },
      );
    });
  });
}

function creditBlock(credit: string): Record<string, unknown> {
  return { type: 'section', text: { type: 'mrkdwn', text: credit } };
}

/** The asker's name as Slack shows it (display name, else real name). */
async function displayName(context: SlackContext, user: string): Promise<string | undefined> {
  const found = await context.client.users.info({ user }).then(
    (result) => result.user,
    (error: unknown) => void context.logger.debug({ code: slackErrorCode(error) }, 'could not read the name'),
  );
  return found?.profile?.display_name || found?.profile?.real_name || found?.real_name || found?.name;
}
