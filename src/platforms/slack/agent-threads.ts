/**
 * Slack's agent surface, where a conversation with ragent starts: the assistant split view
 * (`assistant_thread_started`, manifest `assistant_view`) and the agent view that replaces it
 * (manifest `agent_view`: the app's Messages tab, `app_home_opened` with tab `messages`). Each gets up
 * to four suggested prompts (turns/suggested-prompts.ts; RAGENT_SLACK_SUGGESTED_PROMPTS), from the
 * sets the thread searches (a DM with ragent: the workspace's and `shared`), never from the channel
 * the person is viewing (`assistant_thread_context_changed`).
 */
import type { App } from '@slack/bolt';
import { maxSuggestedPrompts } from '../../platform-settings/slack-settings.ts';
import { suggestedPromptsTitle } from '../../turns/messages-en.ts';
import { suggestedPrompts } from '../../turns/suggested-prompts.ts';
import { placeScopes, type SlackContext } from './slack-context.ts';
import { slackErrorCode } from './slack-message.ts';
import { neutralizeMentions } from './slack-text.ts';

export function registerAgentThreads(app: App, context: SlackContext): void {
  app.event('assistant_thread_started', async ({ event, body }) => {
    const { channel_id: channel, thread_ts: threadTs } = event.assistant_thread;
    await offerPrompts(context, body.team_id, channel, threadTs);
  });
  app.event('assistant_thread_context_changed', async ({ event }) => {
    // The thread searches its own sets whatever channel is viewed: nothing to change.
    context.logger.debug(
      { channel: event.assistant_thread.channel_id, viewing: event.assistant_thread.context.channel_id },
      'assistant thread context changed',
    );
  });
  app.event('app_home_opened', async ({ event, body }) => {
    // The agent view: the Messages tab is where the conversation starts (no thread yet).
    if (event.tab !== 'messages' || !event.channel) return;
    await offerPrompts(context, body.team_id, event.channel, undefined);
  });
}

async function offerPrompts(
  context: SlackContext,
  teamId: string,
  channel: string,
  threadTs: string | undefined,
): Promise<void> {
  try {
    const prompts = await suggestedPrompts(
      context.services.config.slack.suggestedPrompts,
      async () => context.services.ingestion.listDocuments(await placeScopes(context, teamId, channel)),
      { count: maxSuggestedPrompts, titleLength: 75, inert: neutralizeMentions },
    );
    if (prompts.length === 0) return;
    await context.client.assistant.threads.setSuggestedPrompts({
      channel_id: channel,
      // Only assistant threads take a thread: in the agent view Slack ignores a call that names one.
      ...(threadTs ? { thread_ts: threadTs } : {}),
      title: suggestedPromptsTitle,
      prompts,
    });
  } catch (error) {
    context.logger.debug({ code: slackErrorCode(error), channel }, 'suggested prompts not set');
  }
}
