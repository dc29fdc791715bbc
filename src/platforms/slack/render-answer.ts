/**
 * Renders what a turn produced as Slack messages: the answer's Markdown in `markdown` blocks (split
 * within Slack's 12,000-character budget per message, never inside a code block), its sources as a
 * context line (file and pages), and 👍/👎 that carry the thread and answer ids: Slack's
 * `feedback_buttons` element (in a `context_actions` block), with classic buttons as the message's
 * fallback where Slack refuses the element.
 * Everything that reaches Slack is neutralised so that it cannot ping anyone.
 */
import {
  type ActionButton,
  actionValue,
  buttonRowsUnderAnswer,
} from '../../answer-actions/answer-buttons.ts';
import type { Answer, Source, ThreadId } from '../../core/types.ts';
import { shownAnswerText } from '../../replies/lay-out-answer.ts';
import { sourceList } from '../../replies/source-entries.ts';
import { splitMessage } from '../../replies/split-message.ts';
import { answerActionsBlockId, feedbackElementActionId, slackButtons } from './answer-action-buttons.ts';
import { markdownToMrkdwn } from './markdown-to-mrkdwn.ts';
import { isSlackLink } from './slack-link.ts';
import type { SlackMessage } from './slack-message.ts';
import { neutralizeMentions, safeMrkdwn } from './slack-text.ts';

/**
 * Per message. Slack allows 12,000 characters of `markdown` blocks in one payload, and has been seen
 * refusing a message whose blocks carry about 13,200 characters in all (`msg_blocks_too_long`): the
 * last part also carries the sources line (up to 2,900) and the buttons, so a part stays at 9,000.
 */
const maxMarkdownPerMessage = 9_000;
const maxContextText = 2_900;

export function renderAnswer(answer: Answer, threadId: ThreadId): SlackMessage[] {
  const messages = renderMarkdown(shownAnswerText(answer));
  const last = messages[messages.length - 1];
  if (!last) return messages;
  const blocks = last.blocks ?? [];
  const sources = formatSources(answer.sources, { numbered: answer.citesByNumber === true });
  if (sources) blocks.push({ type: 'context', elements: [{ type: 'mrkdwn', text: sources }] });
  const [votes, others] = buttonRowsUnderAnswer(actionValue({ threadId, answerId: answer.id }));
  const [up, down] = votes;
  // 👍/👎 as Slack's element (its choices' values also say which), the other buttons after it.
  const feedbackElement = {
    type: 'feedback_buttons',
    action_id: feedbackElementActionId,
    positive_button: up && feedbackChoice(up, 'up'),
    negative_button: down && feedbackChoice(down, 'down'),
  };
  last.blocks = [
    ...blocks,
    { type: 'context_actions', block_id: 'ragent_feedback', elements: [feedbackElement] },
    { type: 'actions', block_id: answerActionsBlockId, elements: slackButtons(others) },
  ];
  // Where Slack refuses the element (a surface without it), all of them as classic buttons.
  last.fallbackBlocks = [
    ...blocks,
    { type: 'actions', block_id: 'ragent_feedback', elements: slackButtons([...votes, ...others]) },
  ];
  return messages;
}

/** Markdown from the model (an answer, a clarifying question) as one or more messages. */
export function renderMarkdown(markdown: string): SlackMessage[] {
  const safe = neutralizeMentions(markdown);
  return splitMessage(safe, maxMarkdownPerMessage).map((part) => ({
    text: neutralizeMentions(markdownToMrkdwn(part)),
    blocks: [{ type: 'markdown', text: part }],
  }));
}

/**
 * `bash.pdf p. 3–4, 12 · R-intro.pdf p. 7 · costs.xlsx sheet 2026, rows 12–18`, one entry per file in
 * order of first mention; numbered (`[2] *bash.pdf* p. 3`, one line each) when the answer cites by
 * number. A file uploaded in Slack links to its upload, and only to Slack's own https pages.
 */
export function formatSources(
  sources: readonly Source[],
  options: { numbered?: boolean } = {},
): string | undefined {
  if (sources.length === 0) return undefined;
  const numbered = options.numbered === true;
  const list = sourceList(sources, {
    numbered,
    grouped: true,
    ownPage: isSlackLink,
    linkTarget: mrkdwnLinkTarget,
    write: (entry) => {
      const name = entry.link ? `<${entry.link}|${safeMrkdwn(entry.name)}>` : safeMrkdwn(entry.name);
      const head = entry.number ? `[${entry.number}] *${name}*` : `*${name}*`;
      return entry.place ? `${head} ${safeMrkdwn(entry.place)}` : head;
    },
    separator: numbered ? '\n' : '  ·  ',
    budget: maxContextText - sourcesIcon.length,
  });
  return `${sourcesIcon}${list}`;
}

const sourcesIcon = ':page_facing_up: ';

/** A URL as the target of a mrkdwn link: `&` escaped, the characters that would end or split it percent-encoded. */
function mrkdwnLinkTarget(link: string): string {
  return new URL(link).href
    .replace(/[<>|\s]/g, (character) => encodeURIComponent(character))
    .replace(/&/g, '&amp;');
}

/** A choice of the feedback element: the button's value (the thread and answer ids) with its vote. */
function feedbackChoice(button: ActionButton, vote: 'up' | 'down'): Record<string, unknown> {
  return {
    text: { type: 'plain_text', text: button.label, emoji: true },
    value: JSON.stringify({ ...JSON.parse(button.value), vote }),
    accessibility_label: button.description,
  };
}
