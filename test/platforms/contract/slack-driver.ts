/** The contract driver for Slack: the real Slack module against the fake Web API, over HTTP or Socket Mode. */
import type { ChatScript } from '../../fakes/fake-ollama.ts';
import { messageShortcut, messageTs } from '../../fakes/fake-slack-events.ts';
import { blockText, defaultChannel, isPlaceholder, startSlackHarness } from '../../slack/slack-harness.ts';
import { slackModel, userMessageOf } from '../../slack/slack-model.ts';
import { roleOf } from '../../support/model-roles.ts';
import type { ContractThread, DriverFactory, PlatformDriver } from './platform-driver.ts';

export function slackDriver(mode: 'http' | 'socket'): DriverFactory {
  return {
    name: `Slack (${mode === 'http' ? 'HTTP' : 'Socket Mode'})`,
    start: async (options = {}) => {
      const harness = await startSlackHarness({
        mode,
        model: options.model ?? (slackModel as ChatScript),
        ...(options.environment ? { environment: options.environment } : {}),
      });
      const { slack } = harness;
      if (options.streaming === false) slack.setStreamingSupported(false);
      /** The latest person's message per thread, as sent (to redeliver it). */
      const lastEnvelope = new Map<string, Record<string, unknown>>();
      const someoneElse = 'UDANA';
      slack.addUser({ id: someoneElse, name: 'dana', displayName: 'Dana' });
      const send = async (
        thread: ContractThread,
        type: 'app_mention' | 'message',
        text: string,
        fields = {},
      ) => {
        const { envelope } = harness.envelope(type, text, { threadTs: thread.id, ...fields });
        lastEnvelope.set(thread.id, envelope);
        await deliver(envelope);
      };
      const deliver = async (envelope: Record<string, unknown>) => {
        if (mode === 'socket') await slack.sendEnvelope(envelope, { type: 'events_api' });
        else {
          const delivery = await harness.sender.event(envelope);
          if (delivery.status !== 200) throw new Error(`event rejected: HTTP ${delivery.status}`);
        }
      };
      /** The newest person's message per thread (root ts), for "Ask ragent". */
      const latest = new Map<string, { ts: string; threadTs?: string; text: string; user: string }>();
      /** "Ask ragent" chosen on `message` by the asker (UASKER): HTTP interactivity or Socket Mode. */
      const shortcut = async (message: { ts: string; threadTs?: string; text: string; user: string }) => {
        const payload = messageShortcut({
          team: slack.teamId,
          user: 'UASKER',
          channel: defaultChannel,
          callbackId: 'ask_ragent',
          message,
        });
        if (mode === 'socket') await slack.sendEnvelope(payload, { type: 'interactive' });
        else {
          const delivery = await harness.sender.interaction(payload);
          if (delivery.status !== 200) throw new Error(`shortcut rejected: HTTP ${delivery.status}`);
        }
      };
      const finished = (thread: ContractThread) =>
        slack
          .messages(defaultChannel, thread.id)
          .filter((message) => message.ts !== thread.id && !message.user && !isPlaceholder(message))
          .map((message) => `${message.text}\n${blockText(message)}`);
      const driver: PlatformDriver = {
        name: `slack-${mode}`,
        mention: async (text) => ({ id: await harness.mention(text) }),
        // A thread people started without the bot: its first message is theirs.
        foreignThread: async () => ({ id: messageTs() }),
        mentionInThread: (thread, text) => send(thread, 'app_mention', `<@${slack.botUserId}> ${text}`),
        reply: (thread, text, replyOptions = {}) =>
          send(thread, 'message', replyOptions.mentionSomeoneElse ? `<@${someoneElse}> ${text}` : text),
        replyAsBot: (thread, text) => send(thread, 'message', text, { botId: 'B0OTHER', user: 'UOTHERBOT' }),
        editInThread: (thread, text) => send(thread, 'message', text, { subtype: 'message_changed' }),
        redeliverLast: async (thread) => {
          const envelope = lastEnvelope.get(thread.id);
          if (!envelope) throw new Error('nothing to redeliver');
          await deliver(envelope);
        },
        threadWithHistory: async (history) => {
          let root: string | undefined;
          for (const [index, entry] of history.entries()) {
            const user = `U${entry.author.toUpperCase().replace(/[^A-Z0-9]/g, '')}`;
            slack.addUser({ id: user, name: entry.author.toLowerCase(), displayName: entry.author });
            const text = `${entry.pingEveryone ? '<!channel> ' : ''}${entry.mentionSomeone ? `<@${someoneElse}> ` : ''}${entry.text}`;
            const ts = slack.addMessage({
              channel: defaultChannel,
              user,
              text,
              ts: messageTs(),
              ...(index > 0 && root ? { threadTs: root } : {}),
            });
            root ??= ts;
            latest.set(root, { ts, text, user, ...(ts === root ? {} : { threadTs: root }) });
          }
          if (!root) throw new Error('a thread needs a message');
          return { id: root };
        },
        askOnNewMessage: async (text) => {
          const ts = slack.addMessage({ channel: defaultChannel, user: 'UPOSTER', text, ts: messageTs() });
          latest.set(ts, { ts, text, user: 'UPOSTER' });
          await shortcut(latest.get(ts)!);
          return { id: ts };
        },
        askOnLatest: async (thread) => {
          const message = latest.get(thread.id);
          if (!message) throw new Error('no person’s message in that thread');
          await shortcut(message);
        },
        someoneElseMention: `<@${someoneElse}>`,
        failNextThreadRead: () => slack.failNext('conversations.replies', 'missing_scope'),
        modelRequests: () =>
          harness.ollama.chatRequests().map((request) => ({
            role: roleOf(request),
            text: request.messages.map((message) => message.content).join('\n'),
          })),
        replies: async (thread, count) => {
          await harness.waitForReply(defaultChannel, thread.id, count);
          return finished(thread);
        },
        repliesNow: finished,
        shownTexts: () => {
          const streams = new Map<string, string>();
          const texts: string[] = [];
          for (const call of slack.calls) {
            if (call.method === 'chat.startStream') continue;
            if (call.method === 'chat.appendStream') {
              const ts = String(call.body.ts);
              streams.set(ts, `${streams.get(ts) ?? ''}${String(call.body.markdown_text ?? '')}`);
            } else if (call.method === 'chat.postMessage' || call.method === 'chat.update')
              texts.push(JSON.stringify({ text: call.body.text, blocks: call.body.blocks }));
          }
          // A stream's first piece came with chat.startStream (its ts is in the fake's message list).
          const started = slack
            .callsTo('chat.startStream')
            .map((call) => String(call.body.markdown_text ?? ''));
          const streamed = slack
            .messages(defaultChannel)
            .filter((message) => message.streamed)
            .map((message, index) => `${started[index] ?? ''}${streams.get(message.ts) ?? ''}`);
          return [...texts, ...streamed];
        },
        questionsAsked: () =>
          harness.ollama
            .chatRequests()
            .filter((request) => request.format)
            .map(userMessageOf),
        barrier: async () => {
          await harness.barrier();
        },
        close: () => harness.close(),
      };
      return driver;
    },
  };
}
