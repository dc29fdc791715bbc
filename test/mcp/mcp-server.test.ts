/**
 * `ragent mcp` through the MCP SDK's own client: in process (the SDK's linked in-memory transports),
 * as a real `node bin/ragent.js mcp` process on stdio, and over streamable HTTP with and without the
 * bearer token. The services are the real ones on a data dir with Markdown documents in three scopes,
 * the model the scripted fake Ollama.
 */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../../src/logger.ts';
import { createMcpServer } from '../../src/mcp/create-mcp-server.ts';
import { type HttpMcpServer, serveHttp } from '../../src/mcp/serve-http.ts';
import { type FakeChatRequest, type FakeOllama, startFakeOllama } from '../fakes/fake-ollama.ts';
import { defaultScripts } from '../graph/graph-harness.ts';
import { type Role, type RoleScript, scriptByRole } from '../support/model-roles.ts';
import { runCli } from '../support/run-cli.ts';
import { createTestServices, type TestServices, testEnvironment } from '../support/test-services.ts';

const bin = fileURLToPath(new URL('../../bin/ragent.js', import.meta.url));
const ceiling = ['shared', 'slack:T-ONE'];
const token = 'a-test-token-of-enough-length';

const documents: Array<{ name: string; scope: string; text: string }> = [
  {
    name: 'operations.md',
    scope: 'shared',
    text: '# Operations\n\n## Backup schedule\n\nThe backup runs every night and keeps seven copies.\n\n## Restore\n\nTo restore a backup, stop the service and copy the files back.\n',
  },
  {
    name: 'team-handbook.md',
    scope: 'slack:T-ONE',
    text: '# Handbook\n\n## Backup duty\n\nThe on-call engineer checks the backup report every Monday.\n',
  },
  {
    name: 'secret-plans.md',
    scope: 'slack:T-OTHER',
    text: '# Secret\n\n## Backup vault\n\nThe backup vault of the other workspace is confidential.\n',
  },
];

const toolResults = (request: FakeChatRequest) =>
  request.messages.filter((message) => message.role === 'tool').map((message) => message.content ?? '');

const text = (result: CallToolResult) =>
  result.content.map((part) => (part.type === 'text' ? part.text : '')).join('\n');

describe('ragent mcp', () => {
  let fake: FakeOllama;
  let services: TestServices;
  const scripts: Record<Role, RoleScript> = { ...defaultScripts };
  let client: Client;

  beforeAll(async () => {
    fake = await startFakeOllama({ chat: scriptByRole(scripts) });
    services = await createTestServices({ ollamaUrl: fake.url });
    for (const document of documents) {
      await services.ingestion.ingest({
        name: document.name,
        scope: document.scope,
        uploader: 'test',
        bytes: new TextEncoder().encode(document.text),
      });
    }
    const server = createMcpServer(
      { ...services, scopes: ceiling, logger: createLogger({ level: 'silent' }) },
      '0.1.0',
    );
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await server.connect(serverSide);
    client = new Client({ name: 'test-client', version: '1.0.0' });
    await client.connect(clientSide);
  });

  afterAll(async () => {
    await client?.close();
    await services?.dispose();
    await fake?.close();
  });

  const call = async (name: string, args: Record<string, unknown>) =>
    (await client.callTool({ name, arguments: args })) as CallToolResult;

  it('lists the three tools with their input schemas, and output schemas for structured results', async () => {
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name).sort()).toEqual(['ask', 'list_documents', 'search_documents']);
    const search = tools.find((tool) => tool.name === 'search_documents');
    expect(search?.inputSchema.required).toEqual(['query']);
    expect(Object.keys(search?.inputSchema.properties ?? {}).sort()).toEqual(['k', 'query', 'scope']);
    expect(Object.keys(search?.outputSchema?.properties ?? {}).sort()).toEqual(['hits', 'scopes']);
    const ask = tools.find((tool) => tool.name === 'ask');
    expect(ask?.inputSchema.required).toEqual(['question']);
    expect(Object.keys(ask?.outputSchema?.properties ?? {}).sort()).toEqual(['answer', 'outcome', 'sources']);
    expect(tools.find((tool) => tool.name === 'list_documents')?.inputSchema.required ?? []).toEqual([]);
  });

  it('search_documents finds passages in every scope of the server, with file, location and score, as text and structuredContent', async () => {
    const result = await call('search_documents', { query: 'backup', k: 10 });
    expect(result.isError).toBeFalsy();
    const structured = result.structuredContent as {
      scopes: string[];
      hits: Array<{
        file: string;
        scope: string;
        score: number;
        text: string;
        location: { pages: number[]; section?: string };
      }>;
    };
    expect(structured.scopes).toEqual(ceiling);
    const files = new Set(structured.hits.map((hit) => hit.file));
    expect(files).toEqual(new Set(['operations.md', 'team-handbook.md']));
    const schedule = structured.hits.find((hit) => hit.text.includes('every night'));
    expect(schedule).toMatchObject({ file: 'operations.md', scope: 'shared', location: { pages: [1, 1] } });
    expect(schedule?.location.section).toContain('Backup schedule');
    expect(schedule?.score).toBeGreaterThan(0);
    // The other workspace's document matches the query too, and never comes back.
    expect(JSON.stringify(result)).not.toContain('confidential');
    expect(text(result)).toContain('operations.md (p. 1');
  });

  it('a scope argument narrows the search to one of the server’s scopes', async () => {
    const result = await call('search_documents', { query: 'backup', scope: 'slack:T-ONE' });
    const structured = result.structuredContent as { scopes: string[]; hits: Array<{ file: string }> };
    expect(structured.scopes).toEqual(['slack:T-ONE']);
    expect(structured.hits.length).toBeGreaterThan(0);
    expect(structured.hits.every((hit) => hit.file === 'team-handbook.md')).toBe(true);
  });

  it('a scope outside the server’s is refused with isError and a clear message, by every tool', async () => {
    for (const [name, args] of [
      ['search_documents', { query: 'backup', scope: 'slack:T-OTHER' }],
      ['list_documents', { scope: 'slack:T-OTHER' }],
      ['ask', { question: 'What is in the backup vault?', scope: 'slack:T-OTHER' }],
    ] as const) {
      const result = await call(name, args);
      expect(result.isError, name).toBe(true);
      expect(text(result)).toContain('The scope "slack:T-OTHER" is not open to this server');
      expect(text(result)).toContain('shared, slack:T-ONE');
      expect(JSON.stringify(result)).not.toContain('confidential');
    }
  });

  it('list_documents lists the documents of the server’s scopes, or of the one asked for', async () => {
    const all = await call('list_documents', {});
    const names = (all.structuredContent as { documents: Array<{ name: string }> }).documents.map(
      (each) => each.name,
    );
    expect(names.sort()).toEqual(['operations.md', 'team-handbook.md']);
    const narrowed = await call('list_documents', { scope: 'shared' });
    expect(
      (narrowed.structuredContent as { documents: Array<{ name: string; pages: number }> }).documents,
    ).toMatchObject([{ name: 'operations.md', scope: 'shared' }]);
  });

  it('ask runs the agent: the answer with its numbered citation and the cited source, and the outcome', async () => {
    scripts.orchestrator = (request) => {
      const results = toolResults(request);
      if (results.length === 0)
        return { toolCalls: [{ name: 'search_child_chunks', arguments: { query: 'backup schedule' } }] };
      const citation = /Cite as: \[(\d+)\]\n(?:.*\n){3}Section: [^\n]*Backup schedule/.exec(
        results.join('\n'),
      )?.[1];
      return { content: `The backup runs every night [${citation}].` };
    };
    const result = await call('ask', { question: 'When does the backup run?', scope: 'shared' });
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toMatchObject({
      outcome: 'answered',
      answer: 'The backup runs every night [1].',
      sources: [{ file: 'operations.md', location: { pages: [1, 1] } }],
    });
    expect(text(result)).toContain('[1] operations.md (p. 1');
    // The agent searched the narrowed scope only.
    const searched = fake.chatRequests().flatMap(toolResults).join('\n');
    expect(searched).not.toContain('team-handbook.md');
  });

  it('ask says when the documents do not cover the question: not-found, no sources', async () => {
    scripts.orchestrator = (request) =>
      toolResults(request).length === 0
        ? { toolCalls: [{ name: 'search_child_chunks', arguments: { query: 'backup encryption' } }] }
        : { content: 'NOT_FOUND\nThe documents do not say whether backups are encrypted.' };
    // A client that asks for progress hears the agent's steps while it works.
    const progress: string[] = [];
    const result = (await client.callTool(
      { name: 'ask', arguments: { question: 'Are backups encrypted?' } },
      undefined,
      {
        onprogress: (update) => progress.push(update.message ?? ''),
      },
    )) as CallToolResult;
    expect(result.structuredContent).toMatchObject({ outcome: 'not-found', sources: [] });
    expect(text(result)).toContain('Searched the documents for “backup encryption”');
    expect(progress.some((message) => message.includes('backup encryption'))).toBe(true);
  });

  it('ask with the model server failing is an isError result saying what went wrong, and the next ask works', async () => {
    fake.failAlways('http-404-model');
    const failed = await call('ask', { question: 'When does the backup run?', scope: 'shared' });
    fake.failAlways(undefined);
    expect(failed.isError).toBe(true);
    expect(text(failed)).toMatch(/granite4\.1:8b/);
    scripts.orchestrator = (request) =>
      toolResults(request).length === 0
        ? { toolCalls: [{ name: 'search_child_chunks', arguments: { query: 'backup' } }] }
        : { content: 'The backup runs every night.' };
    const next = await call('ask', { question: 'When does the backup run?', scope: 'shared' });
    expect(next.structuredContent).toMatchObject({ outcome: 'answered' });
  });

  it('serves the same tools as a real `ragent mcp` process on stdio (stdout carries only the protocol)', async () => {
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [bin, 'mcp', '--scope', 'shared'],
      env: {
        PATH: process.env.PATH ?? '',
        HOME: services.dataDir,
        LOG_LEVEL: 'debug',
        ...testEnvironment({ ollamaUrl: fake.url, dataDir: services.dataDir }),
      },
      cwd: services.dataDir,
      stderr: 'pipe',
    });
    let stderr = '';
    transport.stderr?.on('data', (chunk: Buffer) => {
      stderr += chunk.toString('utf8');
    });
    const stdioClient = new Client({ name: 'stdio-test', version: '1.0.0' });
    // A line on stdout that is not a protocol message reaches the client as an error.
    const errors: Error[] = [];
    stdioClient.onerror = (error) => errors.push(error);
    try {
      await stdioClient.connect(transport);
      const { tools } = await stdioClient.listTools();
      expect(tools.map((tool) => tool.name).sort()).toEqual(['ask', 'list_documents', 'search_documents']);
      const result = (await stdioClient.callTool({
        name: 'search_documents',
        arguments: { query: 'backup' },
      })) as CallToolResult;
      const hits = (result.structuredContent as { hits: Array<{ file: string }> }).hits;
      expect(hits.map((hit) => hit.file)).toContain('operations.md');
      expect(hits.every((hit) => hit.file === 'operations.md')).toBe(true);
      const refused = (await stdioClient.callTool({
        name: 'search_documents',
        arguments: { query: 'backup', scope: 'slack:T-ONE' },
      })) as CallToolResult;
      expect(refused.isError).toBe(true);
      expect(stderr).toContain('ragent MCP server on stdio (scopes: shared)');
      expect(errors).toEqual([]);
    } finally {
      await stdioClient.close();
    }
    // Starting tsx and the services takes a while on a busy machine.
  }, 120_000);

  it('answers the requests piped in before stdin ends, then exits 0 (`… | ragent mcp` in a script)', async () => {
    const child = spawn(process.execPath, [bin, 'mcp'], {
      cwd: services.dataDir,
      env: {
        PATH: process.env.PATH ?? '',
        HOME: services.dataDir,
        ...testEnvironment({ ollamaUrl: fake.url, dataDir: services.dataDir }),
      },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString('utf8');
    });
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    const messages = [
      {
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: {
          protocolVersion: '2025-06-18',
          capabilities: {},
          clientInfo: { name: 'pipe', version: '1' },
        },
      },
      { jsonrpc: '2.0', method: 'notifications/initialized' },
      {
        jsonrpc: '2.0',
        id: 2,
        method: 'tools/call',
        params: { name: 'search_documents', arguments: { query: 'backup' } },
      },
    ];
    child.stdin.end(messages.map((message) => `${JSON.stringify(message)}\n`).join(''));
    expect(await exited).toBe(0);
    const replies = stdout
      .trim()
      .split('\n')
      .map(
        (line) =>
          JSON.parse(line) as {
            id: number;
            result: { structuredContent?: { hits: Array<{ file: string }> } };
          },
      );
    expect(replies.map((reply) => reply.id)).toEqual([1, 2]);
    expect(replies[1]?.result.structuredContent?.hits[0]?.file).toBe('operations.md');
  }, 120_000);

  describe('over streamable HTTP', () => {
    let http: HttpMcpServer;
    beforeAll(async () => {
      const logger = createLogger({ level: 'silent' });
      http = await serveHttp({
        createServer: () => createMcpServer({ ...services, scopes: ceiling, logger }, '0.1.0'),
        token,
        port: 0,
        host: '127.0.0.1',
        logger,
      });
    });
    afterAll(async () => {
      await http?.close();
    });

    it('listens on 127.0.0.1 and answers 401 without the token or with a wrong one', async () => {
      expect(http.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
      const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} });
      const headers = { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' };
      const missing = await fetch(http.url, { method: 'POST', headers, body });
      expect(missing.status).toBe(401);
      expect(missing.headers.get('www-authenticate')).toContain('Bearer');
      const wrong = await fetch(http.url, {
        method: 'POST',
        headers: { ...headers, Authorization: 'Bearer not-the-token-at-all-no' },
        body,
      });
      expect(wrong.status).toBe(401);
      // The SDK's client without the token cannot even connect.
      const anonymous = new Client({ name: 'anonymous', version: '1.0.0' });
      await expect(anonymous.connect(new StreamableHTTPClientTransport(new URL(http.url)))).rejects.toThrow();
    });

    it('serves the tools to the SDK client that sends the token, with the same scope ceiling', async () => {
      const httpClient = new Client({ name: 'http-test', version: '1.0.0' });
      await httpClient.connect(
        new StreamableHTTPClientTransport(new URL(http.url), {
          requestInit: { headers: { Authorization: `Bearer ${token}` } },
        }),
      );
      try {
        const { tools } = await httpClient.listTools();
        expect(tools.map((tool) => tool.name).sort()).toEqual(['ask', 'list_documents', 'search_documents']);
        const result = (await httpClient.callTool({
          name: 'list_documents',
          arguments: {},
        })) as CallToolResult;
        const names = (result.structuredContent as { documents: Array<{ name: string }> }).documents.map(
          (each) => each.name,
        );
        expect(names.sort()).toEqual(['operations.md', 'team-handbook.md']);
        const refused = (await httpClient.callTool({
          name: 'list_documents',
          arguments: { scope: 'slack:T-OTHER' },
        })) as CallToolResult;
        expect(refused.isError).toBe(true);
      } finally {
        await httpClient.close();
      }
    });
  });

  it('ragent mcp --http refuses to start without a token (or with a short one), before opening anything', async () => {
    for (const args of [
      ['mcp', '--http', '0'],
      ['mcp', '--http', '0', '--token', 'short'],
    ]) {
      const run = await runCli(args, testEnvironment({ ollamaUrl: fake.url, dataDir: services.dataDir }));
      expect(run.thrown).toMatchObject({ code: 'INVALID_INPUT' });
      expect(String((run.thrown as Error).message)).toContain(
        'needs --token (or RAGENT_MCP_TOKEN) with at least 16 characters',
      );
    }
    // A short RAGENT_MCP_TOKEN is refused the same way.
    const short = await runCli(['mcp', '--http', '0'], {
      ...testEnvironment({ ollamaUrl: fake.url, dataDir: services.dataDir }),
      RAGENT_MCP_TOKEN: 'too-short',
    });
    expect(short.thrown).toMatchObject({ code: 'INVALID_INPUT' });
  });
});
