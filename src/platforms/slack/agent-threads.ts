/**
 * Slack's agent surface, where a conversation with ragent starts: the assistant split view
 * (`assistant_thread_started`, manifest `assistant_view`) and the agent view that replaces it
 * (manifest `agent_view`: the app's Messages tab, `app_home_opened` with tab `messages`). Each gets up
 * to four suggested prompts: those configured (RAGENT_SLACK_SUGGESTED_PROMPTS), else one per document
 * that thread can search, newest first — titles shown literally, never a ping.
 *
 * The prompts come from the sets the thread searches (a DM with ragent: the workspace's and `shared`),
 * never from the channel the person is viewing (`assistant_thread_context_changed`): a prompt must not
 * promise documents its answer cannot read, nor show a channel's titles elsewhere.
 */
import type { App } from '@slack/bolt';
import { maxSuggestedPrompts } from '../../platform-settings/slack-settings.ts';
import {
  suggestedPromptMessage,
  suggestedPromptsTitle,
  suggestedPromptTitle,
} from '../../turns/messages-en.ts';
import { placeScopes, type SlackContext } from './slack-context.ts';
import { slackErrorCode } from './slack-message.ts';
import { neutralizeMentions } from './slack-text.ts';

/** Slack shows a prompt's title on a button: a long one is cut. */
const titleLength = 75;

export interface SuggestedPrompt {
  title: string;
  message: string;
}

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
    const prompts = await suggestedPrompts(context, teamId, channel);
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

/** The configured prompts, else one per searchable document (newest first); at most four. */
export async function suggestedPrompts(
  context: SlackContext,
  teamId: string,
  channel: string,
): Promise<SuggestedPrompt[]> {
  const configured = context.services.config.slack.suggestedPrompts;
  if (configured.length > 0) {
    return configured.slice(0, maxSuggestedPrompts).map((prompt) => ({
      title: cut(neutralizeMentions(prompt), titleLength),
      message: neutralizeMentions(prompt),
    }));
  }
  const scopes = await placeScopes(context, teamId, channel);
  const documents = await context.services.ingestion.listDocuments(scopes);
  const names = [
    ...new Set(
      [...documents]
        .sort((a, b) => b.ingestedAt.localeCompare(a.ingestedAt))
        .map((document) => literalName(document.name)),
    ),
  ].slice(0, maxSuggestedPrompts);
  return names.map((name) => ({
    title: cut(suggestedPromptTitle(name), titleLength),
    message: suggestedPromptMessage(name),
  }));
}

/** A document's name as a plain, inert line (no pings, no line breaks, bounded). */
function literalName(name: string): string {
  return cut(neutralizeMentions(name.replace(/\s+/g, ' ').trim()), 120);
}

function cut(text: string, length: number): string {
  return text.length <= length ? text : `${text.slice(0, length - 1)}…`;
}
