/**
 * A file attached to one question belongs to its thread: the operators' report never lists it among
 * the documents to retire, the MCP server's list_documents never shows it (even to a server whose
 * scopes include the thread's), no set of a place decodes to it, and the runner adds exactly that
 * thread's files to a turn's place. Real services (SQLite) and the MCP SDK's own client.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  channelScope,
  decodeScope,
  isThreadFilesScope,
  placeOfScope,
  placeScope,
  threadFilesScope,
} from '../../src/core/ids.ts';
import { sharedScope } from '../../src/core/types.ts';
import { createLogger } from '../../src/logger.ts';
import { createMcpServer } from '../../src/mcp/create-mcp-server.ts';
import { buildReport } from '../../src/operators/report.ts';
import { withThreadFiles } from '../../src/turns/thread-files.ts';
import { type FakeOllama, startFakeOllama } from '../fakes/fake-ollama.ts';
import { createTestServices, type TestServices } from '../support/test-services.ts';

const thread = 'slack:T1:C1:1700000000.000100';
const threadFiles = threadFilesScope(thread);
const channel = channelScope('slack', 'T1', 'C1');

describe('files attached to a question stay out of every listing', () => {
  let fake: FakeOllama;
  let services: TestServices;
  beforeAll(async () => {
    fake = await startFakeOllama();
    services = await createTestServices({ ollamaUrl: fake.url, environment: { RAGENT_EMBEDDINGS: 'none' } });
    const text = (title: string) => new TextEncoder().encode(`# ${title}\n\nThe backup runs every night.\n`);
    await services.ingestion.ingest({
      name: 'attached.md',
      bytes: text('Attached'),
      scope: threadFiles,
      uploader: 'U1',
    });
    await services.ingestion.ingest({
      name: 'handbook.md',
      bytes: text('Handbook'),
      scope: channel,
      uploader: 'U1',
    });
  });
  afterAll(async () => {
    await services?.dispose();
    await fake?.close();
  });

  it('the report’s uncited documents leave it out (every scope’s documents given)', async () => {
    const report = buildReport([], [], await services.index.listAllDocuments!());
    expect(report.uncitedDocuments).toEqual([{ name: 'handbook.md', scope: channel }]);
  });

  it('a workspace’s documents (its chat report and home view) leave it out', async () => {
    const listed = await services.ingestion.listPlaceDocuments(placeScope('slack', 'T1'));
    expect(listed.map((document) => document.name)).toEqual(['handbook.md']);
  });

  it('MCP list_documents leaves it out, even where the server was opened on that scope', async () => {
    const server = createMcpServer(
      { ...services, scopes: [channel, threadFiles], logger: createLogger({ level: 'silent' }) },
      '0.1.0',
    );
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await server.connect(serverSide);
    const client = new Client({ name: 'test-client', version: '1.0.0' });
    await client.connect(clientSide);
    try {
      const result = (await client.callTool({ name: 'list_documents', arguments: {} })) as CallToolResult;
      const names = (result.structuredContent as { documents: Array<{ name: string }> }).documents.map(
        (each) => each.name,
      );
      expect(names).toEqual(['handbook.md']);
    } finally {
      await client.close();
    }
  });

  it('is no set of any place, and a turn’s place gets its own thread’s files only, once', () => {
    expect(isThreadFilesScope(threadFiles)).toBe(true);
    expect(isThreadFilesScope(channel)).toBe(false);
    expect(decodeScope(threadFiles)).toBeUndefined();
    expect(placeOfScope(threadFiles)).toBeUndefined();
    // The thread id is one escaped part: another thread's files are another scope.
    expect(threadFilesScope('slack:T1:C1:1700000000.000200')).not.toBe(threadFiles);
    const place = { threadId: thread, scopes: [channel, placeScope('slack', 'T1'), sharedScope], user: 'U1' };
    const searched = withThreadFiles(place);
    expect(searched.scopes).toEqual([...place.scopes, threadFiles]);
    expect(withThreadFiles(searched).scopes).toEqual(searched.scopes);
  });
});
