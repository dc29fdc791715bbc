/**
 * An answer that cites by number ([1], [2]) shows its sources numbered the same way in both chats —
 * in order, one line each, with the link, the literal file name and the place — so every [n] of the
 * text matches a visible source. Without numbers, today's rendering stays.
 */
import { describe, expect, it } from 'vitest';
import type { Answer } from '../../src/core/types.ts';
import { renderAnswer as renderDiscordAnswer } from '../../src/platforms/discord/render-answer.ts';
import { renderAnswer as renderSlackAnswer } from '../../src/platforms/slack/render-answer.ts';
import { makeAnswer } from '../support/make-answer.ts';

const permalink = 'https://ragent-test.slack.com/files/F1/bash.pdf';
const discordLink = 'https://discord.com/channels/1/2/3';

const sources: Answer['sources'] = [
  { file: 'bash.pdf', docId: 'd1', pages: [12, 13], section: ['Loops', 'While'], link: permalink },
  { file: 'costs.xlsx', docId: 'd2', pages: [12, 18], location: { sheet: '2026', rows: [12, 18] } },
  // The same file again, at another place: its own number, not merged into [1].
  { file: 'bash.pdf', docId: 'd1', pages: [40, 40], link: discordLink },
  { file: '[Verify](https://evil.example) *notes*.pdf', docId: 'd3', pages: [1, 1] },
];

const body = 'Loops repeat [1]. The 2026 budget is set [2]. Until loops exist too [3], see [4].';

function numbered(): Answer {
  return { ...makeAnswer(`${body}\n\nSources:\n- …`, sources, body), citesByNumber: true };
}

function slackSourcesLine(answer: Answer): string {
  const blocks = renderSlackAnswer(answer, 'slack:T1:C1:1.0').at(-1)?.blocks ?? [];
  const context = blocks.find((block) => block.type === 'context') as
    | { elements: Array<{ text: string }> }
    | undefined;
  return context?.elements[0]?.text ?? '';
}

describe('numbered sources', () => {
  it('in Slack: one numbered line per source, in order, linked and literal', () => {
    const lines = slackSourcesLine(numbered())
      .replace(/^:page_facing_up: /, '')
      .split('\n');
    expect(lines).toEqual([
      `[1] *<${permalink}|bash.pdf>* pp. 12–13, Loops › While`,
      '[2] *costs.xlsx* sheet 2026, rows 12–18',
      // Not a Slack page: not linked.
      '[3] *bash.pdf* p. 40',
      expect.stringMatching(/^\[4\] \*.*Verify.*notes.*\.pdf\* p\. 1$/),
    ]);
    // The hostile name never becomes a link (mrkdwn reserves only &, < and >, which are escaped).
    expect(lines[3]).not.toContain('<https://evil.example');
  });

  it('in Slack: without numbers, sources stay grouped by file as before', () => {
    const line = slackSourcesLine({ ...numbered(), citesByNumber: false });
    expect(line).not.toMatch(/\[\d\]/);
    expect(line).toContain(`*<${permalink}|bash.pdf>* pp. 12–13, 40`);
  });

  it('in Discord: the embed numbers each source the way the text cites it', () => {
    const [part] = renderDiscordAnswer(numbered());
    expect(part?.content).toBe(body);
    const lines = (part?.embeds[0]?.description ?? '').split('\n');
    expect(lines).toEqual([
      '\\[1\\] 📄 **bash.pdf** — pp. 12–13, Loops › While',
      '\\[2\\] 📄 **costs.xlsx** — sheet 2026, rows 12–18',
      `\\[3\\] 📄 **[bash.pdf](${discordLink})** — p. 40`,
      expect.stringMatching(/^\\\[4\\\] 📄 \*\*.*Verify.*\*\* — p\. 1$/),
    ]);
    // The hostile name's brackets stay escaped: no live masked link.
    expect(lines[3]).not.toMatch(/(?<!\\)\[[^\]\n]*(?<!\\)\]\(\s*https?:/);

    const [plain] = renderDiscordAnswer({ ...numbered(), citesByNumber: false });
    expect(plain?.embeds[0]?.description?.split('\n')[0]).toBe('📄 **bash.pdf** — pp. 12–13');
  });
});
