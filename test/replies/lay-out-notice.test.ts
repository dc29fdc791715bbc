import { describe, expect, it } from 'vitest';
import { layOutNotice, type NoticeWriting } from '../../src/replies/lay-out-notice.ts';

const writing: NoticeWriting = {
  icons: { question: 'Q', stopped: 'S', warning: 'W', restarted: 'R', 'shutting-down': 'D', info: '' },
  fileIcons: { waiting: '.', downloading: '.', working: '.', added: '+', failed: 'x' },
  markup: { literal: (text) => `'${text}'`, bold: (text) => `<b>${text}</b>` },
  strong: (text) => `<strong>${text}</strong>`,
  small: (text) => `<small>${text}</small>`,
};

describe("a notice's layout, the same on every platform", () => {
  it('puts the icon before a question in the model’s Markdown, the hint in small print', () => {
    expect(layOutNotice({ icon: 'question', markdown: 'Which one?', hint: 'Reply here.' }, writing)).toEqual({
      markdown: 'Q Which one?',
      footer: '<small>Reply here.</small>',
    });
  });

  it('shows what was written, then the notice standing out, then the literal reference', () => {
    const content = {
      icon: 'warning' as const,
      markdown: 'So far',
      words: 'Cut off.',
      strong: true,
      reference: 'r1',
    };
    expect(layOutNotice(content, writing)).toEqual({
      markdown: 'So far',
      notice: 'W <strong>Cut off.</strong>',
      footer: "<small>Reference: 'r1'</small>",
    });
  });

  it('lists ingested files by state, literal name in bold and description; no icon where there is none', () => {
    const files = [{ state: 'added' as const, name: 'a.pdf', description: 'added' }];
    expect(layOutNotice({ icon: 'info', files }, writing).notice).toBe("+ <b>'a.pdf'</b> — 'added'");
    expect(layOutNotice({ icon: 'info', words: 'Done.' }, writing)).toEqual({ notice: 'Done.' });
  });
});
