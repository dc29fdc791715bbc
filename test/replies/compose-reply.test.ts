import { describe, expect, it } from 'vitest';
import { RagentError } from '../../src/errors.ts';
import { composeReply } from '../../src/replies/compose-reply.ts';
import type { PlatformTerms } from '../../src/turns/messages-en.ts';

const terms = { docsCommand: '`/docs`' } as PlatformTerms;
const platform = {
  readsEveryReply: false,
  terms,
  name: (name: string) => `<name:${name}>`,
  command: (command: string) => `<command:${command}>`,
};

describe('a reply composed once for every platform', () => {
  it('writes the names and the command of an interrupted ingest as the platform writes them', () => {
    const content = composeReply(
      {
        kind: 'interrupted-ingest',
        ingest: {
          file: '[Verify](https://evil.example).pdf',
          added: [],
          notAdded: ['[Verify](https://evil.example).pdf'],
        },
      },
      platform,
    );
    expect(content.words).toBe(
      'ragent restarted while ingesting <name:[Verify](https://evil.example).pdf>; nothing was added — run <command:/ragent ingest> again.',
    );
  });

  it('ends an ingest with what to ask next when a file was added, else with the reference', () => {
    const added = composeReply(
      {
        kind: 'ingest-result',
        reference: 'ref-1',
        files: [
          {
            name: 'a.pdf',
            state: 'added',
            seconds: 1,
            report: { status: 'ingested', seconds: 1, document: { pages: 1, children: 2 } } as never,
          },
        ],
      },
      platform,
    );
    expect(added.hint).toBe('Ask about it by mentioning me in a channel. `/docs` lists what I can search.');
    expect(added.reference).toBeUndefined();
    const failed = composeReply(
      {
        kind: 'ingest-result',
        reference: 'ref-2',
        files: [{ name: 'b.pdf', state: 'failed', error: new RagentError('FILE_EMPTY', 'broken') }],
      },
      platform,
    );
    expect(failed).toMatchObject({ reference: 'ref-2', files: [{ name: 'b.pdf', state: 'failed' }] });
    expect(failed.hint).toBeUndefined();
  });

  it('closes a code block left open in an answer cut off, and says why with the reference', () => {
    const content = composeReply(
      { kind: 'cut-off', text: '```bash\nwhile true', notice: 'Cut off.', reference: 'ref-3' },
      platform,
    );
    expect(content).toEqual({
      icon: 'warning',
      markdown: '```bash\nwhile true\n```',
      words: 'Cut off.',
      strong: true,
      reference: 'ref-3',
    });
  });

  it('hints how to continue a clarification as the platform reads replies', () => {
    const question = composeReply({ kind: 'clarification', question: 'Which one?' }, platform);
    expect(question).toEqual({
      icon: 'question',
      markdown: 'Which one?',
      hint: 'Reply to this message (or mention me) to continue.',
    });
  });
});
