/**
 * `ragent docs move <name> --from S --to S`, run in this process through the real program: the document
 * changes set with its chunks and upload link, within one workspace/server (or shared) only; a name
 * already in the target is refused; with Qdrant, a move whose clean-up failed says so.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { RagentError } from '../../../src/errors.ts';
import { encodeSparseQuery } from '../../../src/retrieval/bm25.ts';
import { openQdrantChunkIndex } from '../../../src/retrieval/qdrant-chunk-index.ts';
import { openSqliteChunkIndex } from '../../../src/retrieval/sqlite-chunk-index.ts';
import { type FakeQdrant, startFakeQdrant } from '../../fakes/fake-qdrant.ts';
import { makeDocument } from '../../retrieval/make-document.ts';
import { runCli } from '../../support/run-cli.ts';

const channel = 'slack:T1:C1';
const workspace = 'slack:T1';
const link = 'https://example.slack.com/files/U1/F1/handbook.pdf';
const handbook = (scope = channel) => {
  const input = makeDocument({ id: 'handbook', scope, texts: ['vacation days accrue monthly'] });
  return { ...input, document: { ...input.document, uploader: 'slack:U1', link } };
};

let workDir: string;
let fake: FakeQdrant | undefined;
beforeEach(async () => {
  workDir = await mkdtemp(path.join(tmpdir(), 'ragent-docs-move-'));
});
afterEach(async () => {
  await fake?.close();
  fake = undefined;
  await rm(workDir, { recursive: true, force: true });
  process.exitCode = undefined;
});

const dataDir = () => path.join(workDir, 'data');
const indexFile = () => path.join(dataDir(), 'index.sqlite');
const run = (args: string[], environment: Record<string, string> = {}) =>
  runCli(args, { RAGENT_DATA_DIR: dataDir(), RAGENT_EMBEDDINGS: 'none', ...environment });

async function searchedIn(scope: string): Promise<string[]> {
  const index = openSqliteChunkIndex({ file: indexFile() });
  try {
    const hits = await index.search(
      { text: 'vacation', sparse: encodeSparseQuery('vacation') },
      { scopes: [scope], k: 5 },
    );
    return hits.map((hit) => hit.child.documentName);
  } finally {
    await index.close();
  }
}

describe('ragent docs move', () => {
  it('moves a channel’s document to its workspace, keeping its uploader and upload link', async () => {
    const index = openSqliteChunkIndex({ file: indexFile() });
    await index.replaceDocument(handbook());
    await index.close();

    const moved = await run(['docs', 'move', 'handbook.pdf', '--from', channel, '--to', workspace]);
    expect(moved.thrown).toBeUndefined();
    expect(moved.code).toBe(0);
    expect(moved.text).toBe('Moved handbook.pdf (handbook) from slack:T1:C1 to slack:T1.\n');
    expect(await searchedIn(channel)).toEqual([]);
    expect(await searchedIn(workspace)).toEqual(['handbook.pdf']);
    const listed = await run(['docs', 'list', '--scope', workspace, '--json']);
    expect(JSON.parse(listed.text)).toMatchObject([
      { id: 'handbook', scope: workspace, uploader: 'slack:U1', link },
    ]);
    // And on to shared (the operator's set), by id.
    expect((await run(['docs', 'move', 'handbook', '--from', workspace, '--to', 'shared'])).code).toBe(0);
    expect(await searchedIn('shared')).toEqual(['handbook.pdf']);
  });

  it('refuses another workspace, the same set, a name already there and a missing document', async () => {
    const index = openSqliteChunkIndex({ file: indexFile() });
    await index.replaceDocument(handbook());
    await index.replaceDocument({
      ...handbook(workspace),
      document: { ...handbook(workspace).document, id: 'newer' },
    });
    await index.close();

    const refusals = [
      [['--to', 'slack:T2'], 'MOVE_REFUSED', /only between the sets of one workspace or server/],
      [['--to', 'discord:G1:C1'], 'MOVE_REFUSED', /not in the same one/],
      [['--to', channel], 'MOVE_REFUSED', /already in slack:T1:C1/],
      [['--to', workspace], 'DOCUMENT_NAME_TAKEN', /slack:T1 already has a document named handbook\.pdf/],
    ] as const;
    for (const [target, code, message] of refusals) {
      const refused = await run(['docs', 'move', 'handbook.pdf', '--from', channel, ...target]);
      expect(refused.text).toBe('');
      expect(refused.thrown).toBeInstanceOf(RagentError);
      expect(refused.thrown).toMatchObject({ code, message: expect.stringMatching(message) });
    }
    const missing = await run(['docs', 'move', 'nothing.pdf', '--from', 'slack:T1:C2', '--to', workspace]);
    expect(missing.thrown).toMatchObject({ code: 'DOCUMENT_NOT_FOUND' });
    expect(await searchedIn(channel)).toEqual(['handbook.pdf']);
  });

  it('with Qdrant, says when the move is done but the old copy’s clean-up is still pending', async () => {
    fake = await startFakeQdrant();
    const index = await openQdrantChunkIndex({ url: fake.url, apiKey: undefined, collection: 'ragent' });
    await index.replaceDocument(handbook());
    // Every delete after the commit (the clean-up of the old copy) fails.
    let committed = false;
    fake.failRequest({
      where: (request) => {
        if (request.query.ordering === 'strong' && request.method === 'PUT') committed = true;
        return committed && request.path.endsWith('/points/delete');
      },
    });
    const { text, notices, code } = await run(
      ['docs', 'move', 'handbook.pdf', '--from', channel, '--to', workspace],
      { QDRANT_URL: fake.url },
    );
    expect(code).toBe(0);
    expect(text).toBe('Moved handbook.pdf (handbook) from slack:T1:C1 to slack:T1.\n');
    expect(notices).toMatch(
      /searched only in slack:T1 now, but removing what is left of it in slack:T1:C1 failed/,
    );
    const search = (scope: string) =>
      index.search({ text: 'vacation', sparse: encodeSparseQuery('vacation') }, { scopes: [scope], k: 5 });
    expect(await search(channel)).toEqual([]);
    expect((await search(workspace)).map((hit) => hit.child.scope)).toEqual([workspace]);
    await index.close();
  });
});
