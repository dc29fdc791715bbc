import { describe, expect, it } from 'vitest';
import { layOutNotice, layOutReply, type NoticeWriting } from '../../src/replies/lay-out-notice.ts';
import { clarificationHint, type PlatformTerms } from '../../src/turns/messages-en.ts';

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

  it('composes and lays out a reply in one go, names and commands as they are where the platform gives no way', () => {
    const terms = { docsCommand: '/docs' } as PlatformTerms;
    const interrupted = {
      kind: 'interrupted-ingest' as const,
      ingest: { file: 'a.pdf', added: [], notAdded: ['a.pdf'] },
    };
    expect(layOutReply(interrupted, { ...writing, readsEveryReply: true, terms }).notice).toBe(
      'R ragent restarted while ingesting a.pdf; nothing was added — run /ragent ingest again.',
    );
    const named = { ...writing, readsEveryReply: true, terms, name: (text: string) => `<${text}>` };
    expect(layOutReply(interrupted, { ...named, command: (text: string) => `[${text}]` }).notice).toBe(
      'R ragent restarted while ingesting <a.pdf>; nothing was added — run [/ragent ingest] again.',
    );
    const question = { kind: 'clarification' as const, question: 'Which one?' };
    expect(layOutReply(question, { ...writing, readsEveryReply: false, terms })).toEqual(
      layOutNotice({ icon: 'question', markdown: 'Which one?', hint: clarificationHint(false) }, writing),
    );
  });
});
