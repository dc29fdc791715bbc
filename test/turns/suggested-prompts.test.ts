/** The prompts offered where a conversation starts (src/turns/suggested-prompts.ts). */
import { describe, expect, it } from 'vitest';
import type { DocumentRecord } from '../../src/core/types.ts';
import { suggestedPrompts } from '../../src/turns/suggested-prompts.ts';

const document = (name: string, ingestedAt: string): DocumentRecord => ({
  id: name,
  name,
  scope: 'shared',
  pages: 1,
  bytes: 1,
  parents: 1,
  children: 1,
  uploader: 'U1',
  ingestedAt,
  embeddingModel: null,
});
const limits = { count: 2, titleLength: 30, inert: (text: string) => text.replaceAll('@', '@\u200b') };

describe('suggested prompts', () => {
  it('offers the configured prompts, inert and bounded, without reading the documents', async () => {
    const prompts = await suggestedPrompts(
      ['Ask @here about the on-call rota and its many rules?', 'b?', 'c?'],
      () => Promise.reject(new Error('not read')),
      limits,
    );
    expect(prompts).toEqual([
      {
        title: 'Ask @\u200bhere about the on-call …',
        message: 'Ask @\u200bhere about the on-call rota and its many rules?',
      },
      { title: 'b?', message: 'b?' },
    ]);
  });

  it('else one per searchable document, newest first, each name once, on one line and inert', async () => {
    const prompts = await suggestedPrompts(
      [],
      async () => [
        document('old.pdf', '2026-01-01T00:00:00Z'),
        document('@everyone\nnotice.pdf', '2026-03-01T00:00:00Z'),
        document('old.pdf', '2026-02-01T00:00:00Z'),
      ],
      { ...limits, titleLength: 100 },
    );
    expect(prompts.map((prompt) => prompt.title)).toEqual([
      'What does @\u200beveryone notice.pdf cover?',
      'What does old.pdf cover?',
    ]);
    expect(prompts[1]?.message).toBe('What does old.pdf say? Give me its main points.');
  });
});
