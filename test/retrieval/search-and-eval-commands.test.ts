import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createCliContext } from '../../src/adapters/cli/cli-context.ts';
import { buildProgram } from '../../src/cli.ts';
import { makeDocument } from './make-document.ts';

describe('ragent search and ragent eval', () => {
  let directory: string;
  let context: ReturnType<typeof createCliContext>;
  let printed: string;

  beforeEach(async () => {
    directory = mkdtempSync(path.join(tmpdir(), 'ragent-cli-search-'));
    context = createCliContext({
      RAGENT_DATA_DIR: directory,
      RAGENT_EMBEDDINGS: 'none',
      LOG_LEVEL: 'silent',
    });
    const output = new PassThrough();
    printed = '';
    output.on('data', (chunk) => {
      printed += String(chunk);
    });
    context.output = output;
    const { index } = await context.services();
    await index.replaceDocument(
      makeDocument({
        id: 'bash',
        name: 'bash.pdf',
        scope: 'shared',
        texts: ['The trap builtin runs commands on signals.', 'Arrays hold values indexed by number.'],
      }),
    );
    await index.replaceDocument(
      makeDocument({ id: 'other', name: 'team.pdf', scope: 'slack:T1', texts: ['trap secrets of team one'] }),
    );
  });
  afterEach(async () => {
    await context.close();
    rmSync(directory, { recursive: true, force: true });
  });

  const run = (...args: string[]) => buildProgram(context).parseAsync(['node', 'ragent', ...args]);

  it('prints hits with score, file, pages and section, from the shared scope by default', async () => {
    await run('search', 'trap signals', '--k', '3');
    expect(printed).toMatch(/ 1\. \d+\.\d{4} {2}bash\.pdf {2}p\. 1 {2}bash\.pdf › Section 1/);
    expect(printed).toContain('The trap builtin runs commands on signals.');
    expect(printed).not.toContain('team.pdf');
  });

  it('prints JSON and searches only the scopes given', async () => {
    await run('search', 'trap', '--scope', 'slack:T1', '--json');
    const hits = JSON.parse(printed);
    expect(hits).toHaveLength(1);
    expect(hits[0]).toMatchObject({ rank: 1, file: 'team.pdf', pages: [1, 1], scope: 'slack:T1' });
  });

  it('rejects a bad --k', async () => {
    await expect(run('search', 'trap', '--k', '0')).rejects.toMatchObject({ code: 'INVALID_INPUT' });
  });

  it('evaluates a question file and prints exactly the metric keys with --json', async () => {
    const file = path.join(directory, 'questions.jsonl');
    writeFileSync(
      file,
      [
        JSON.stringify({ question: 'signal trap', evidence: ['trap builtin'], doc: 'bash.pdf' }),
        JSON.stringify({ question: 'team secrets', evidence: ['secrets of team one'] }),
      ].join('\n'),
    );
    await run('eval', file, '--k', '2', '--json');
    const report = JSON.parse(printed);
    expect(Object.keys(report)).toEqual([
      'hitAtK',
      'parentHitAtK',
      'parentHitAt1',
      'bothHitAtK',
      'docAtK',
      'mrr',
      'childTokens',
      'parentTokens',
      'bothTokens',
      'p50Ms',
      'p95Ms',
      'splits',
      'items',
    ]);
    expect(report.splits).toBeNull();
    expect(report).toMatchObject({ hitAtK: 0.5, parentHitAtK: 0.5, docAtK: 1, mrr: 0.5 });
    printed = '';
    await run('eval', file);
    expect(printed).toContain('hit@5         0.500');
    expect(printed).toMatch(/parent hit@1 {2}0\.500/);
    expect(printed).toMatch(/tokens read {3}\d+ \(children\), \d+ \(parents\), \d+ \(both\)/);
    expect(printed).toMatch(/both hit@5 {4}0\.500/);
    expect(printed).toContain('✗ team secrets');
  });
});
