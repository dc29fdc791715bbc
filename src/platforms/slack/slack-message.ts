/**
 * What the adapter posts: a message payload (fallback `text` + Block Kit `blocks`) and the options
 * every post carries (no unfurling; text is never parsed for mentions).
 */
import type { webApi } from '@slack/bolt';
import { sendWithFallbacks } from '../../replies/send-with-fallbacks.ts';
import { shortenText } from '../../replies/shorten-text.ts';
import { splitMessage } from '../../replies/split-message.ts';
import { markdownToMrkdwn } from './markdown-to-mrkdwn.ts';
import { neutralizeMentions } from './slack-text.ts';

type WebClient = webApi.WebClient;

export interface SlackMessage {
  /** mrkdwn; shown in notifications, and in the message itself when there are no blocks. */
  text: string;
  blocks?: Array<Record<string, unknown>>;
  /** Blocks to send instead where Slack refuses `blocks` (classic buttons for the `feedback_buttons` element). */
  fallbackBlocks?: Array<Record<string, unknown>>;
}

/** A message's simpler form: its fallback blocks in place of its blocks (undefined: it has none). */
export function simplerMessage({ text, fallbackBlocks }: SlackMessage): SlackMessage | undefined {
  return fallbackBlocks && { text, blocks: fallbackBlocks };
}

export interface SlackDestination {
  channel: string;
  /** Post into this thread (omit for a top-level message). */
  threadTs?: string;
}

/** Slack's recommended ceiling for a message's `text`. */
export const maxTextLength = 3_900;

export function truncateText(text: string, limit = maxTextLength): string {
  return shortenText(text, limit);
}

/** Slack's limit for the text of one `section` block. */
export const maxSectionText = 3_000;

export interface SendOptions {
  /** Slack refused the message's blocks and took its `fallbackBlocks`. */
  onFallbackBlocks?: () => void;
}

/** Slack's answers for blocks it does not take: unknown type, a field over its limit, too much text in all. */
const refusedBlocks = new Set(['invalid_blocks', 'msg_too_long', 'msg_blocks_too_long']);

/**
 * Sends with the message's blocks; where Slack refuses them: its own fallback blocks (if any), then
 * `markdown` blocks (which an older workspace or API path may not take) as mrkdwn `section` blocks,
 * then its plain fallback text alone.
 */
async function withBlockFallback<T>(
  message: SlackMessage,
  send: (blocks: SlackMessage['blocks']) => Promise<T>,
  options: SendOptions = {},
): Promise<T> {
  const { blocks, fallbackBlocks } = message;
  if (!blocks?.length) return send(blocks);
  const simpler = fallbackBlocks?.length ? fallbackBlocks : blocks;
  const sections = simpler.some((block) => block.type === 'markdown')
    ? [simpler.flatMap(asSectionBlocks)]
    : [];
  const variants = [blocks, ...(simpler === blocks ? [] : [simpler]), ...sections, undefined] as const;
  return sendWithFallbacks(
    variants,
    async (variant) => {
      const sent = await send(variant);
      if (variant && variant === fallbackBlocks) options.onFallbackBlocks?.();
      return sent;
    },
    (error) => refusedBlocks.has(slackErrorCode(error) ?? ''),
  );
}

function asSectionBlocks(block: Record<string, unknown>): Array<Record<string, unknown>> {
  if (block.type !== 'markdown') return [block];
  const mrkdwn = neutralizeMentions(markdownToMrkdwn(String(block.text ?? '')));
  return splitMessage(mrkdwn, maxSectionText).map((text) => ({
    type: 'section',
    text: { type: 'mrkdwn', text },
  }));
}

export async function postMessage(
  client: WebClient,
  destination: SlackDestination,
  message: SlackMessage,
  options: SendOptions = {},
): Promise<string> {
  return withBlockFallback(
    message,
    async (blocks) => {
      const result = await client.chat.postMessage({
        channel: destination.channel,
        ...(destination.threadTs ? { thread_ts: destination.threadTs } : {}),
        text: truncateText(message.text),
        ...(blocks ? { blocks } : {}),
        unfurl_links: false,
        unfurl_media: false,
        parse: 'none',
        link_names: false,
      } as Parameters<WebClient['chat']['postMessage']>[0]);
      return String(result.ts);
    },
    options,
  );
}

export async function updateMessage(
  client: WebClient,
  channel: string,
  ts: string,
  message: SlackMessage,
  options: SendOptions = {},
): Promise<void> {
  await withBlockFallback(
    message,
    async (blocks) => {
      await client.chat.update({
        channel,
        ts,
        text: truncateText(message.text),
        // An empty list removes blocks a previous version of the message had.
        blocks: (blocks ?? []) as never,
        parse: 'none',
        link_names: false,
      });
    },
    options,
  );
}

/** The Slack error code of a failed Web API call (`not_in_channel`, …), if it is one. */
export function slackErrorCode(error: unknown): string | undefined {
  const data = (error as { data?: { error?: unknown } } | undefined)?.data;
  return typeof data?.error === 'string' ? data.error : undefined;
}
