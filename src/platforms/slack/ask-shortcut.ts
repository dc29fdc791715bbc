/**
 * "Ask ragent", a message shortcut (callback id `ask_ragent`): the person who chose it from a
 * message's menu asks ragent that message. It is answered in the message's thread (a reply's
 * thread, or the thread under a top-level message), through the same runner as a mention: scopes
 * from the channel, the asker as the turn's user, the thread read first when ragent is not in it
 * yet. Pressed twice, or delivered twice, the message is answered once (one key per message).
 */
import type { App, MessageShortcut } from '@slack/bolt';
import { encodeId } from '../../core/ids.ts';
import { restartingText } from '../../turns/messages-en.ts';
import { readSlackThread } from './read-slack-thread.ts';
import { placeScopes, type SlackContext } from './slack-context.ts';
import { slackThreadId } from './slack-ids.ts';
import { openAnswerSurface, slackAnswerLocation } from './slack-surfaces.ts';
import { cleanIncomingText } from './slack-text.ts';

export const askShortcutCallbackId = 'ask_ragent';

export function registerAskShortcut(app: App, context: SlackContext): void {
  app.shortcut<MessageShortcut>(askShortcutCallbackId, async ({ shortcut, ack, body }) => {
    await ack();
    askOnMessage(context, shortcut, body.team?.id ?? shortcut.user.team_id ?? 'unknown');
  });
}

function askOnMessage(context: SlackContext, shortcut: MessageShortcut, teamId: string): void {
  const channel = shortcut.channel.id;
  const { message } = shortcut;
  const user = shortcut.user.id;
  const threadTs = message.thread_ts ?? message.ts;
  const threadId = slackThreadId(teamId, channel, threadTs);
  const isRoot = threadTs === message.ts;
  if (context.turns.stopping) {
    // Said only to the asker: nothing was started.
    context.turns.track('telling the asker ragent restarts', async () => {
      await context.client.chat.postEphemeral({ channel, user, text: restartingText });
    });
    return;
  }
  context.turns.answer({
    // One answer per message, however often it is asked for.
    key: encodeId('slack', [teamId, channel, 'ask', message.ts]),
    text: cleanIncomingText(message.text ?? '', context.botUserId),
    reference: `shortcut ${channel}/${message.ts}`,
    logFields: { threadId, shortcut: askShortcutCallbackId },
    location: slackAnswerLocation(teamId, channel, threadTs),
    thread: { threadId, position: message.ts },
    claim: true,
    open: async () => ({
      surface: await openAnswerSurface(context.surfaces, { teamId, channel, threadTs, user }),
      place: { threadId, scopes: await placeScopes(context, teamId, channel), user },
    }),
    // Asked on a thread's first message: the replies so far; on a reply: what came before it.
    readThread: (limit) =>
      readSlackThread(
        context,
        isRoot
          ? { channel, threadTs, exclude: message.ts, skipOwn: true }
          : { channel, threadTs, before: message.ts },
        limit,
      ),
  });
}
