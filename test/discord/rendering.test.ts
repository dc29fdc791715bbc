import { describe, expect, it } from 'vitest';
import type { Answer } from '../../src/core/types.ts';
import { parseActionCustomId } from '../../src/platforms/discord/answer-action-rows.ts';
import { threadName } from '../../src/platforms/discord/message-thread.ts';
import { renderAnswer, sourcesEmbed } from '../../src/platforms/discord/render-answer.ts';
import { makeAnswer as answer } from '../support/make-answer.ts';

describe('rendering for Discord', () => {
  it('shows the body with the sources in an embed, or the whole Markdown when there are none', () => {
    const sources: Answer['sources'] = [
      { file: 'bash_ref.pdf', docId: 'd1', pages: [12, 13] },
      { file: 'faq.pdf', docId: 'd2', pages: [4, 4] },
    ];
    const [part] = renderAnswer(
      answer(
        'Loops repeat.\n\nSources:\n- bash_ref.pdf (p. 12–13)\n- faq.pdf (p. 4)',
        sources,
        'Loops repeat.',
      ),
    );
    expect(part?.content).toBe('Loops repeat.');
    expect(part?.embeds[0]?.description).toBe('📄 **bash\\_ref.pdf** — pp. 12–13\n📄 **faq.pdf** — p. 4');
    // No sources: the answer says so itself and no embed is added.
    const [bare] = renderAnswer(answer('Not found.\n\nSources: none (nothing relevant was found).', []));
    expect(bare?.content).toContain('Sources: none');
    expect(bare?.embeds).toEqual([]);
  });

  it('keeps the sources embed within Discord limits', () => {
    const many = Array.from({ length: 400 }, (_, i) => ({
      file: `file-${i}.pdf`,
      docId: `${i}`,
      pages: [1, 2] as [number, number],
    }));
    const embed = sourcesEmbed(many);
    expect(embed.description!.length).toBeLessThanOrEqual(4_096);
    expect(embed.description).toMatch(/… and \d+ more$/);
  });

  it('links a source to its upload message on Discord only, the name escaped', () => {
    const link = 'https://discord.com/channels/1/2/3';
    const page = (file: string, to: string) => ({
      file,
      docId: file,
      pages: [1, 1] as [number, number],
      link: to,
    });
    expect(sourcesEmbed([page('a]b_c.pdf', link)]).description).toBe(
      `📄 **[a\\]b\\_c.pdf](${link})** — p. 1`,
    );
    for (const other of [
      'https://cdn.discordapp.com/attachments/1/2/a.pdf',
      'https://discord.com/channels/1/2/3)x',
      'http://discord.com/channels/1/2/3',
    ]) {
      expect(sourcesEmbed([page('a.pdf', other)]).description).toBe('📄 **a.pdf** — p. 1');
    }
  });

  it('round-trips the feedback button ids', () => {
    const [part] = renderAnswer(answer('Yes.', []));
    const ids = part!.components[0]!.components.map((button) =>
      'custom_id' in button ? button.custom_id : '',
    );
    expect(ids.map(parseActionCustomId)).toEqual([
      { action: 'vote:up', answerId: 'answer-1' },
      { action: 'vote:down', answerId: 'answer-1' },
    ]);
    expect(parseActionCustomId('something-else')).toBeUndefined();
    expect(parseActionCustomId('ragent:feedback:up:')).toBeUndefined();
  });

  it('names threads after the question, within 100 characters', () => {
    expect(threadName('  \n**How** do I `loop`?\nmore', 'alice')).toBe('How do I loop?');
    expect(threadName('x'.repeat(300), 'alice')).toHaveLength(100);
    expect(threadName('```', 'alice')).toBe('Question from alice');
    // Never half an emoji: the cut is by code point.
    const emoji = threadName(`${'x'.repeat(98)}😀😀😀`, 'alice');
    expect(emoji).toBe(`${'x'.repeat(98)}😀…`);
    expect(emoji).not.toMatch(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])/);
  });
});
