/**
 * "Ask ragent", Slack's message shortcut (callback id `ask_ragent`): the payload read into a neutral
 * request; what is asked, where it is answered and how is `turns/ask-on-message.ts`.
 */
import type { App, MessageShortcut } from '@slack/bolt';
import { askOnMessage } from '../../turns/ask-on-message.ts';
import { slackAnswerThread } from './read-slack-thread.ts';
import type { SlackContext } from './slack-context.ts';
import { cleanIncomingText } from './slack-text.ts';

export const askShortcutCallbackId = 'ask_ragent';

export function registerAskShortcut(app: App, context: SlackContext): void {
  app.shortcut<MessageShortcut>(askShortcutCallbackId, async ({ shortcut, ack, body }) => {
    await ack();
    const teamId = body.team?.id ?? shortcut.user.team_id ?? 'unknown';
    const { message } = shortcut;
    const [channel, user] = [shortcut.channel.id, shortcut.user.id];
    const threadTs = message.thread_ts ?? message.ts;
    const ask = {
      platform: 'slack',
      workspace: teamId,
      channel,
      messageId: message.ts,
      text: cleanIncomingText(message.text ?? '', context.botUserId),
      fromBot: message.user === context.botUserId,
      asker: user,
      position: message.ts,
    };
    const thread = {
      ...slackAnswerThread(context, { teamId, channel, threadTs, user }),
      startsThread: threadTs === message.ts,
    };
    context.turns.track('asking ragent on a message', () =>
      askOnMessage(context.turns, ask, {
        tell: async (text) => void (await context.client.chat.postEphemeral({ channel, user, text })),
        confirms: false,
        thread: async () => thread,
      }),
    );
  });
}
