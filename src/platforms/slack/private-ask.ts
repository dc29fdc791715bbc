/**
 * `/ragent ask <question>` and its Share button on Slack: the payloads read into the core's private
 * ask (`turns/private-ask.ts`) and Share (`turns/share-private-answer.ts`); Slack gives the asker's
 * private notices (the command's or the press's `response_url`), the asker's display name, and the
 * shared post in the channel.
 */
import type { App, BlockButtonAction, RespondFn, SlashCommand } from '@slack/bolt';
import { platformSaidText } from '../../turns/messages-en.ts';
import { runPrivateAsk as askInCore } from '../../turns/private-ask.ts';
import { sharePrivateAnswer } from '../../turns/share-private-answer.ts';
import { openPrivateSurface, privateLocation, shareActionId } from './private-surface.ts';
import { renderAnswer } from './render-answer.ts';
import { slackActor } from './slack-admins.ts';
import { placeScopes, type SlackContext } from './slack-context.ts';
import { slackMarkup } from './slack-markup.ts';
import { postMessage, slackErrorCode } from './slack-message.ts';
import { cleanIncomingText, safeMrkdwn } from './slack-text.ts';

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
    reference: `${command.command} ask ${command.trigger_id}`,
    // A command has no message timestamp: the time it arrived orders the asker's private turns.
    position: (Date.now() / 1000).toFixed(6),
    location: privateLocation(where),
    scopes: () => placeScopes(context, where.teamId, where.channel),
    open: () => openPrivateSurface({ ...where, client: context.client, logger: context.logger, respond }),
  };
  await askInCore(context.turns, question, async (text) => {
    await respond({ response_type: 'ephemeral', replace_original: false, text: safeMrkdwn(text) });
  });
}

/** The Share button of private answers. */
export function registerShareAction(app: App, context: SlackContext): void {
  app.action<BlockButtonAction>(shareActionId, async ({ ack, action, body, respond }) => {
    await ack();
    context.turns.track('sharing a private answer', async () => {
      // Not `err`: a failed request's URL is the response_url, a credential of sorts.
      const unanswered = (error: unknown) =>
        context.logger.debug({ status: statusOf(error) }, 'could not answer the Share press');
      const name = (await displayName(context, body.user.id)) ?? body.user.name;
      const actor = slackActor(context, { id: body.user.id, ...(name ? { name } : {}) });
      const press = { platform: 'slack', workspace: body.team?.id ?? body.user.team_id ?? '', actor };
      await sharePrivateAnswer(
        context.services.coordination,
        { ...press, answerId: action.value ?? '' },
        {
          markup: slackMarkup,
          logger: context.logger,
          tell: (text) =>
            respond({ response_type: 'ephemeral', replace_original: false, text: safeMrkdwn(text) }).then(
              () => {},
              unanswered,
            ),
          post: async (credit, shared) => {
            const creditBlock = { type: 'section', text: { type: 'mrkdwn', text: credit } };
            const [first, ...rest] = renderAnswer(shared.answer, shared.threadId);
            const messages = first
              ? [
                  {
                    text: `${credit}\n\n${first.text}`,
                    blocks: [creditBlock, ...(first.blocks ?? [])],
                    ...(first.fallbackBlocks
                      ? { fallbackBlocks: [creditBlock, ...first.fallbackBlocks] }
                      : {}),
                  },
                  ...rest,
                ]
              : [{ text: credit }];
            for (const message of messages)
              await postMessage(context.client, { channel: shared.asker.channel }, message);
          },
          // The private message keeps the answer (when it was one message), now without Share.
          markShared: async (note, shared) => {
            const [first, ...rest] = renderAnswer(shared.answer, shared.threadId);
            const kept = rest.length === 0 ? first : undefined;
            await respond({
              response_type: 'ephemeral',
              replace_original: true,
              text: kept ? kept.text : note,
              blocks: [
                ...((kept?.fallbackBlocks ?? kept?.blocks ?? []) as never[]),
                { type: 'context', elements: [{ type: 'mrkdwn', text: note }] },
              ] as never,
            }).catch(unanswered);
          },
          refusal: (error) => {
            const code = slackErrorCode(error);
            return code ? platformSaidText('Slack', code) : undefined;
          },
        },
      );
    });
  });
}

/** The asker's name as Slack shows it (display name, else real name). */
async function displayName(context: SlackContext, user: string): Promise<string | undefined> {
  try {
    const result = await context.client.users.info({ user });
    const profile = result.user?.profile;
    const name = profile?.display_name || profile?.real_name || result.user?.real_name || result.user?.name;
    return name || undefined;
  } catch (error) {
    context.logger.debug({ code: slackErrorCode(error) }, 'could not read the asker’s name');
    return undefined;
  }
}

function statusOf(error: unknown): number | undefined {
  return (error as { response?: { status?: number } }).response?.status;
}
