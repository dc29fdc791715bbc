/** `ragent docs list --all`, run in this process through the real program: every scope's documents, grouped. */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { DocumentRecord } from '../../src/core/types.ts';
import { RagentError } from '../../src/errors.ts';
import { openSqliteChunkIndex } from '../../src/retrieval/sqlite-chunk-index.ts';
import { makeDocument } from '../retrieval/make-document.ts';
import { runCli } from '../support/run-cli.ts';

let workDir: string;
beforeAll(async () => {
  workDir = await mkdtemp(path.join(tmpdir(), 'ragent-docs-all-'));
  // A shared manual and two documents of a Slack channel (C0GONE) that no longer exists.
  const index = openSqliteChunkIndex({ file: path.join(workDir, 'data', 'index.sqlite') });
  await index.replaceDocument(makeDocument({ id: 'manual', scope: 'shared', texts: ['fig'] }));
  await index.replaceDocument(makeDocument({ id: 'runbook', scope: 'slack:T1:C0GONE', texts: ['kiwi'] }));
  await index.replaceDocument(makeDocument({ id: 'notes', scope: 'slack:T1:C0GONE', texts: ['lime'] }));
  await index.close();
});
afterAll(async () => {
  await rm(workDir, { recursive: true, force: true });
});
afterEach(() => {
  process.exitCode = undefined;
});

function run(args: string[]) {
  return runCli(args, { RAGENT_DATA_DIR: path.join(workDir, 'data'), RAGENT_EMBEDDINGS: 'none' });
}

describe('ragent docs list --all', () => {
  it('lists every scope’s documents grouped by scope, a gone channel’s with its id', async () => {
    const { code, text } = await run(['docs', 'list', '--all']);
    expect(code).toBe(0);
    const lines = text.split('\n');
    const shared = lines.indexOf('shared');
    const channel = lines.indexOf('slack:T1:C0GONE');
    expect(shared).toBeGreaterThanOrEqual(0);
    expect(channel).toBeGreaterThan(shared);
    expect(lines.slice(shared, channel).join('\n')).toMatch(/manual\.pdf[\s\S]*1 document in shared\./);
    const channelPart = lines.slice(channel).join('\n');
    expect(channelPart).toMatch(/notes\.pdf[\s\S]*runbook\.pdf[\s\S]*2 documents in slack:T1:C0GONE\./);
    expect(text).toContain('3 documents in 2 scopes.');
  });

  it('gives every scope’s documents as JSON, each with its scope', async () => {
    const { text } = await run(['docs', 'list', '--all', '--json']);
    const documents = JSON.parse(text) as DocumentRecord[];
    expect(documents.map((document) => [document.scope, document.name])).toEqual([
      ['shared', 'manual.pdf'],
      ['slack:T1:C0GONE', 'notes.pdf'],
      ['slack:T1:C0GONE', 'runbook.pdf'],
    ]);
  });

  it('still lists only `shared` without --all, and refuses --all with --scope', async () => {
    const plain = await run(['docs', 'list']);
    expect(plain.text).toContain('manual.pdf');
    expect(plain.text).not.toContain('runbook.pdf');
    const both = await run(['docs', 'list', '--all', '--scope', 'shared']);
    expect(both.text).toBe('');
    expect(both.thrown).toBeInstanceOf(RagentError);
    expect(both.thrown).toMatchObject({ code: 'INVALID_INPUT' });
    expect((both.thrown as RagentError).message).toBe('Use either --scope or --all, not both.');
  });
});
