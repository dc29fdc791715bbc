import { describe, expect, it } from 'vitest';
import { markdownToMrkdwn } from '../../src/platforms/slack/markdown-to-mrkdwn.ts';
import { formatSources, renderAnswer } from '../../src/platforms/slack/render-answer.ts';
import { cleanIncomingText, neutralizeMentions } from '../../src/platforms/slack/slack-text.ts';
import { emptyAnswerText } from '../../src/turns/messages-en.ts';
import { makeAnswer as answer } from '../support/make-answer.ts';

describe('Markdown → mrkdwn', () => {
  it('converts emphasis, headings, links, lists and strikethrough', () => {
    const input = [
      '# Loops',
      'A **while** loop and an *until* loop, ~~not~~ a [manual](https://www.gnu.org/bash).',
      '- first',
      '  - nested',
      '> quoted **bold**',
    ].join('\n');
    expect(markdownToMrkdwn(input)).toBe(
      [
        '*Loops*',
        'A *while* loop and an _until_ loop, ~not~ a <https://www.gnu.org/bash|manual>.',
        '• first',
        '    • nested',
        '>quoted *bold*',
      ].join('\n'),
    );
  });

  it('keeps code verbatim and escapes &, <, > everywhere', () => {
    const input = [
      'Use `a **b** <c>` & more',
      '```bash',
      'while [ $i -lt 3 ]; do **x** <y>; done',
      '```',
    ].join('\n');
    expect(markdownToMrkdwn(input)).toBe(
      [
        'Use `a **b** &lt;c&gt;` &amp; more',
        '```',
        'while [ $i -lt 3 ]; do **x** &lt;y&gt;; done',
        '```',
      ].join('\n'),
    );
  });
});

describe('mentions', () => {
  it('neutralises every kind of ping and keeps the text readable', () => {
    const text = neutralizeMentions(
      '<!channel> <!here|here> <!everyone> <!subteam^S1|devs> <@U1> @channel @Here @everyone',
    );
    for (const ping of [
      '<!channel>',
      '<!here',
      '<!everyone>',
      '<!subteam',
      '<@U1>',
      '@channel',
      '@Here',
      '@everyone',
    ]) {
      expect(text).not.toContain(ping);
    }
    expect(text.replace(/\u2060/g, '')).toContain('<!channel>');
  });

  it('cleans an incoming mention into the question a person typed', () => {
    expect(
      cleanIncomingText('<@UBOT> how do I use &lt;pre&gt; in <https://x.org|the docs>? cc <@U2|bob>', 'UBOT'),
    ).toBe('how do I use <pre> in the docs (https://x.org)? cc @bob');
  });
});

describe('answer rendering', () => {
  it('shows the body with sources as a context line (file and pages)', () => {
    const messages = renderAnswer(
      answer(
        'A while loop repeats.\n\nSources:\n- bash.pdf (p. 12–13)',
        [
          { file: 'bash.pdf', docId: 'd1', pages: [12, 13] },
          { file: 'bash.pdf', docId: 'd1', pages: [40, 40] },
          { file: 'R <!channel>.pdf', docId: 'd2', pages: [7, 7] },
        ],
        'A while loop repeats.',
      ),
      'slack:T1:C1:1.0',
    );
    expect(messages).toHaveLength(1);
    const blocks = messages[0]?.blocks ?? [];
    expect(blocks[0]).toEqual({ type: 'markdown', text: 'A while loop repeats.' });
    const context = JSON.stringify(blocks[1]);
    expect(context).toContain('*bash.pdf* pp. 12–13, 40');
    expect(context).toContain('p. 7');
    expect(context).not.toContain('<!channel>');
    // Slack's feedback element, each choice carrying the ids and its vote …
    expect(blocks[2]).toMatchObject({ type: 'context_actions', elements: [{ type: 'feedback_buttons' }] });
    const element = (blocks[2] as { elements: Array<Record<string, { value: string }>> }).elements[0];
    expect(JSON.parse(element?.negative_button?.value ?? '{}')).toEqual({
      threadId: 'slack:T1:C1:1.0',
      answerId: 'answer-1',
      vote: 'down',
    });
    // … and the classic buttons where Slack refuses it, the rest of the message the same.
    const fallback = messages[0]?.fallbackBlocks ?? [];
    expect(fallback.slice(0, 2)).toEqual(blocks.slice(0, 2));
    expect(fallback[2]).toMatchObject({ type: 'actions' });
    const value = JSON.parse(
      (fallback[2] as { elements: Array<{ value: string }> }).elements[0]?.value ?? '{}',
    );
    expect(value).toEqual({ threadId: 'slack:T1:C1:1.0', answerId: 'answer-1' });
  });

  it('splits a long answer within Slack’s markdown limit, buttons on the last part only', () => {
    const paragraph = `${'Loops repeat commands. '.repeat(40)}\n\n`;
    const messages = renderAnswer(answer(paragraph.repeat(30)), 'slack:T1:C1:1.0');
    expect(messages.length).toBeGreaterThan(1);
    for (const message of messages) {
      const markdown = (message.blocks ?? []).filter((block) => block.type === 'markdown');
      expect(markdown.reduce((sum, block) => sum + String(block.text).length, 0)).toBeLessThanOrEqual(12_000);
      expect(message.text.length).toBeLessThanOrEqual(40_000);
    }
    expect(
      messages.filter((message) => message.blocks?.some((block) => block.type === 'context_actions')),
    ).toHaveLength(1);
    expect(messages.at(-1)?.blocks?.slice(-2)).toMatchObject([
      { type: 'context_actions' },
      { type: 'actions', block_id: 'ragent_answer_actions' },
    ]);
  });

  it('formats no sources as nothing', () => {
    expect(formatSources([])).toBeUndefined();
  });

  it('links a source to its upload, only on Slack’s own https pages', () => {
    const page = (file: string, link: string) => ({
      file,
      docId: file,
      pages: [2, 2] as [number, number],
      link,
    });
    expect(formatSources([page('a&b.pdf', 'https://team.slack.com/files/U1/F1/a&b.pdf')])).toBe(
      ':page_facing_up: *<https://team.slack.com/files/U1/F1/a&amp;b.pdf|a&amp;b.pdf>* p. 2',
    );
    for (const link of [
      'http://team.slack.com/files/F1',
      'https://slack.com.evil.example/files/F1',
      'https://evil.example/?x=.slack.com',
      'not a link',
    ]) {
      expect(formatSources([page('c.pdf', link)])).toBe(':page_facing_up: *c.pdf* p. 2');
    }
    expect(formatSources([page('d.pdf', 'https://team.slack.com/files/F1/d|x>y.pdf')])).toBe(
      ':page_facing_up: *<https://team.slack.com/files/F1/d%7Cx%3Ey.pdf|d.pdf>* p. 2',
    );
  });
});

describe('an empty answer on Slack', () => {
  it('still shows one message, saying so, with the answer’s buttons under it', () => {
    const messages = renderAnswer(answer('  \n'), 'slack:T1:C1:1.0');
    expect(messages).toHaveLength(1);
    expect(messages[0]?.text).toContain(emptyAnswerText);
    expect(JSON.stringify(messages[0]?.blocks)).toContain('feedback_buttons');
  });
});
