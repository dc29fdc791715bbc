import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { renderReport } from '../../src/adapters/cli/commands/doctor-command.ts';
import { loadConfig } from '../../src/config.ts';
import { checkDataDir } from '../../src/doctor/check-data-dir.ts';
import { normaliseModelName } from '../../src/doctor/check-ollama.ts';
import type { CheckResult, DoctorReport } from '../../src/doctor/check-result.ts';
import { checkNodeVersion } from '../../src/doctor/check-runtime.ts';
import { runDoctor } from '../../src/doctor/run-doctor.ts';
import { checkPlatforms } from '../../src/platforms/check-platforms.ts';
import { type FakeOllama, startFakeOllama } from '../fakes/fake-ollama.ts';
import { type FakeOpenAi, startFakeOpenAi } from '../fakes/fake-openai.ts';
import { closedPort, fakeQdrant, type SmallServer, startSmallServer } from './small-http-server.ts';

let workDir: string;
beforeAll(async () => {
  workDir = await mkdtemp(path.join(tmpdir(), 'ragent-doctor-'));
});
afterAll(async () => {
  await rm(workDir, { recursive: true, force: true });
});

const configFor = (environment: Record<string, string>) =>
  loadConfig({ RAGENT_DATA_DIR: path.join(workDir, 'data'), ...environment }, { envFile: false });

const find = (report: DoctorReport, title: string): CheckResult | undefined =>
  report.results.find((result) => result.title === title);

const text = (report: DoctorReport) => renderReport(report, { quiet: false, color: false });

describe('doctor against Ollama', () => {
  let ollama: FakeOllama | undefined;
  afterEach(async () => {
    await ollama?.close();
    ollama = undefined;
  });

  it('is green when Ollama is up with both models pulled', async () => {
    ollama = await startFakeOllama();
    const report = await runDoctor(configFor({ OLLAMA_BASE_URL: ollama.url }));
    expect(report.ok).toBe(true);
    expect(find(report, 'Ollama')).toMatchObject({ status: 'pass', detail: `0.13.0 at ${ollama.url}` });
    expect(find(report, 'Chat model')).toMatchObject({
      status: 'pass',
      detail: 'granite4.1:8b is pulled and calls tools',
    });
    expect(find(report, 'Embedding model')).toMatchObject({
      status: 'pass',
      detail: 'qwen3-embedding:0.6b is pulled (64 dimensions)',
    });
    expect(report.results.filter((result) => result.status === 'fail')).toEqual([]);
    expect(text(report)).toMatch(/^✓ Ollama +0\.13\.0/m);
    expect(text(report)).toMatch(/Ready/);
    expect(ollama.requests.map((request) => request.path).sort()).toEqual([
      '/api/embed',
      '/api/show',
      '/api/tags',
      '/api/version',
    ]);
  });

  it('fails a chat model that cannot call tools, naming OLLAMA_MODEL', async () => {
    ollama = await startFakeOllama({ refuseTools: true });
    const report = await runDoctor(configFor({ OLLAMA_BASE_URL: ollama.url }));
    expect(report.ok).toBe(false);
    expect(find(report, 'Chat model')).toMatchObject({
      status: 'fail',
      detail: expect.stringContaining('cannot call tools'),
      fix: [expect.stringContaining('OLLAMA_MODEL')],
    });
  });

  it('sends the proxy credentials to Ollama and never prints them', async () => {
    ollama = await startFakeOllama();
    const report = await runDoctor(
      configFor({
        OLLAMA_BASE_URL: ollama.url,
        OLLAMA_API_KEY: 'proxy-token-123',
        RAGENT_EMBEDDINGS: 'none',
      }),
    );
    expect(report.ok).toBe(true);
    expect(
      ollama.requests.every((request) => request.headers.authorization === 'Bearer proxy-token-123'),
    ).toBe(true);
    expect(text(report)).not.toContain('proxy-token-123');
  });

  it('says how to install Ollama and which models to pull when nothing listens', async () => {
    const url = `http://127.0.0.1:${await closedPort()}`;
    const report = await runDoctor(configFor({ OLLAMA_BASE_URL: url }));
    expect(report.ok).toBe(false);
    const ollamaResult = find(report, 'Ollama');
    expect(ollamaResult?.status).toBe('fail');
    expect(ollamaResult?.detail).toContain('connection refused');
    const output = text(report);
    expect(output).toContain('https://ollama.com/download');
    expect(output).toContain('ollama serve');
    expect(output).toContain('ollama pull granite4.1:8b');
    expect(output).toContain('ollama pull qwen3-embedding:0.6b');
    expect(output).toMatch(/^✗ Ollama/m);
    expect(output).toContain('1 problem to fix');
  });

  it('names the exact pull command for a missing model', async () => {
    ollama = await startFakeOllama({ models: ['granite4.1:8b', 'llama3:latest'] });
    const report = await runDoctor(configFor({ OLLAMA_BASE_URL: ollama.url }));
    expect(report.ok).toBe(false);
    expect(find(report, 'Chat model')?.status).toBe('pass');
    expect(find(report, 'Embedding model')).toMatchObject({
      status: 'fail',
      detail: 'qwen3-embedding:0.6b is not pulled',
    });
    expect(find(report, 'Embedding model')?.fix?.[0]).toBe('Pull it: ollama pull qwen3-embedding:0.6b');
    expect(text(report)).not.toContain('ollama pull granite4.1:8b');
  });

  it('treats a model name with or without :latest as the same model', async () => {
    expect(normaliseModelName('qwen3')).toBe('qwen3:latest');
    expect(normaliseModelName('hf.co/org/model')).toBe('hf.co/org/model:latest');
    expect(normaliseModelName('localhost:5000/model')).toBe('localhost:5000/model:latest');
    ollama = await startFakeOllama({ models: ['mistral:latest', 'nomic-embed-text'] });
    const report = await runDoctor(
      configFor({
        OLLAMA_BASE_URL: ollama.url,
        OLLAMA_MODEL: 'mistral',
        OLLAMA_EMBED_MODEL: 'nomic-embed-text:latest',
      }),
    );
    expect(report.ok).toBe(true);
  });

  it('does not require the embedding model when embeddings are off', async () => {
    ollama = await startFakeOllama({ models: ['granite4.1:8b'] });
    const report = await runDoctor(configFor({ OLLAMA_BASE_URL: ollama.url, RAGENT_EMBEDDINGS: 'none' }));
    expect(report.ok).toBe(true);
    expect(find(report, 'Embedding model')).toMatchObject({ status: 'skip' });
  });

  it('reports a model list that cannot be read', async () => {
    ollama = await startFakeOllama();
    ollama.failNext('http-500', 1, '/api/tags');
    const report = await runDoctor(configFor({ OLLAMA_BASE_URL: ollama.url }));
    expect(report.ok).toBe(false);
    expect(find(report, 'Models')).toMatchObject({
      status: 'fail',
      detail: expect.stringContaining('HTTP 500'),
    });
  });

  it('gives up on an Ollama that never answers, within the timeout', async () => {
    ollama = await startFakeOllama();
    ollama.failAlways('timeout');
    const report = await runDoctor(configFor({ OLLAMA_BASE_URL: ollama.url }), { timeoutMs: 200 });
    expect(find(report, 'Ollama')).toMatchObject({
      status: 'fail',
      detail: expect.stringContaining('no answer within 0.2 s'),
    });
  });

  it('notices when the URL points at something that is not Ollama', async () => {
    const other = await startSmallServer(fakeQdrant(undefined));
    try {
      const report = await runDoctor(configFor({ OLLAMA_BASE_URL: other.url }));
      expect(find(report, 'Ollama')).toMatchObject({
        status: 'fail',
        detail: expect.stringContaining('HTTP 404'),
      });
    } finally {
      await other.close();
    }
  });
});

describe('doctor against an OpenAI-compatible server', () => {
  let openai: FakeOpenAi | undefined;
  afterEach(async () => {
    await openai?.close();
    openai = undefined;
  });
  const openAiConfig = (server: FakeOpenAi, extra: Record<string, string> = {}) =>
    configFor({
      RAGENT_LLM_PROVIDER: 'openai',
      RAGENT_EMBEDDINGS: 'openai',
      OPENAI_BASE_URL: server.url,
      OPENAI_MODEL: 'fake-chat',
      OPENAI_EMBED_MODEL: 'fake-embed',
      OPENAI_API_KEY: 'sk-doctor-key',
      ...extra,
    });

  it('checks the server, both models, tools, JSON schema and the embedding dimension — and not Ollama', async () => {
    openai = await startFakeOpenAi({ apiKey: 'sk-doctor-key', embedDimension: 32 });
    const report = await runDoctor(openAiConfig(openai));
    expect(report.ok).toBe(true);
    expect(find(report, 'Model server')).toMatchObject({ status: 'pass' });
    expect(find(report, 'Chat model')).toMatchObject({
      status: 'pass',
      detail: 'fake-chat accepts tools and JSON-schema output',
    });
    expect(find(report, 'Embedding model')).toMatchObject({
      status: 'pass',
      detail: 'fake-embed (32 dimensions)',
    });
    expect(find(report, 'Ollama')).toBeUndefined();
    const chat = openai.chatRequests();
    expect(chat.some((request) => request.tools?.length)).toBe(true);
    expect(chat.some((request) => request.response_format?.type === 'json_schema')).toBe(true);
    expect(text(report)).not.toContain('sk-doctor-key');
  });

  it('names the setting when the server refuses tools or JSON schema, or lacks the model', async () => {
    openai = await startFakeOpenAi({
      refuseTools: true,
      refuseJsonSchema: true,
      models: ['fake-chat', 'other'],
    });
    const report = await runDoctor(openAiConfig(openai, { OPENAI_API_KEY: '' }));
    expect(report.ok).toBe(false);
    const chat = find(report, 'Chat model');
    expect(chat?.status).toBe('fail');
    expect(chat?.detail).toMatch(/tool calling .*JSON-schema output/);
    expect(chat?.fix?.join('\n')).toContain('--enable-auto-tool-choice');
    expect(chat?.fix?.join('\n')).toContain('OPENAI_MODEL');
    expect(find(report, 'Embedding model')).toMatchObject({
      status: 'fail',
      fix: [expect.stringContaining('OPENAI_EMBED_MODEL'), expect.any(String)],
    });
  });

  it('says how to fix an unreachable server and a refused key', async () => {
    const url = `http://127.0.0.1:${await closedPort()}/v1`;
    const down = await runDoctor(
      configFor({
        RAGENT_LLM_PROVIDER: 'openai',
        OPENAI_BASE_URL: url,
        OPENAI_MODEL: 'x',
        RAGENT_EMBEDDINGS: 'none',
      }),
    );
    expect(find(down, 'Model server')).toMatchObject({ status: 'fail' });
    expect(find(down, 'Model server')?.fix?.join('\n')).toContain('OPENAI_BASE_URL');
    openai = await startFakeOpenAi({ apiKey: 'sk-right' });
    const refused = await runDoctor(openAiConfig(openai, { OPENAI_API_KEY: 'sk-wrong' }));
    expect(find(refused, 'Model server')).toMatchObject({
      status: 'fail',
      detail: expect.stringContaining('HTTP 401'),
      fix: ['Check OPENAI_API_KEY.'],
    });
  });
});

describe('doctor against Qdrant', () => {
  let ollama: FakeOllama;
  let qdrant: SmallServer | undefined;
  beforeAll(async () => {
    ollama = await startFakeOllama();
  });
  afterAll(async () => {
    await ollama.close();
  });
  afterEach(async () => {
    await qdrant?.close();
    qdrant = undefined;
  });

  it('uses the embedded store when QDRANT_URL is unset', async () => {
    const report = await runDoctor(configFor({ OLLAMA_BASE_URL: ollama.url }));
    expect(find(report, 'Vector store')).toMatchObject({
      status: 'pass',
      detail: expect.stringContaining('embedded'),
    });
  });

  it('fails with a fix when Qdrant is configured but unreachable', async () => {
    const url = `http://127.0.0.1:${await closedPort()}`;
    const report = await runDoctor(configFor({ OLLAMA_BASE_URL: ollama.url, QDRANT_URL: url }));
    expect(report.ok).toBe(false);
    const result = find(report, 'Vector store');
    expect(result).toMatchObject({ status: 'fail', detail: expect.stringContaining('not reachable') });
    expect(result?.fix?.join('\n')).toContain('unset QDRANT_URL');
  });

  it('sends the API key in the api-key header and never prints it', async () => {
    const apiKey = 'qdrant-secret-key-4242';
    qdrant = await startSmallServer(fakeQdrant(apiKey));
    const good = await runDoctor(
      configFor({ OLLAMA_BASE_URL: ollama.url, QDRANT_URL: qdrant.url, QDRANT_API_KEY: apiKey }),
    );
    expect(find(good, 'Vector store')).toMatchObject({ status: 'pass' });
    expect(qdrant.requests[0]?.headers['api-key']).toBe(apiKey);

    const bad = await runDoctor(
      configFor({ OLLAMA_BASE_URL: ollama.url, QDRANT_URL: qdrant.url, QDRANT_API_KEY: 'wrong-key-000000' }),
    );
    expect(bad.ok).toBe(false);
    expect(find(bad, 'Vector store')?.fix?.[0]).toContain('QDRANT_API_KEY is not accepted');
    for (const report of [good, bad]) {
      expect(JSON.stringify(report)).not.toContain(apiKey);
      expect(JSON.stringify(report)).not.toContain('wrong-key-000000');
    }
  });

  it('never prints credentials embedded in a URL', async () => {
    qdrant = await startSmallServer(fakeQdrant(undefined));
    const withCredentials = qdrant.url.replace('http://', 'http://admin:hunter2-password@');
    const report = await runDoctor(configFor({ OLLAMA_BASE_URL: ollama.url, QDRANT_URL: withCredentials }));
    expect(text(report)).not.toContain('hunter2-password');
  });
});

describe('doctor: data directory', () => {
  it('accepts an existing writable directory and leaves nothing behind', async () => {
    const directory = path.join(workDir, 'existing');
    await rm(directory, { recursive: true, force: true });
    await import('node:fs/promises').then(({ mkdir }) => mkdir(directory));
    expect(await checkDataDir(directory)).toMatchObject({
      status: 'pass',
      detail: `${directory} (writable)`,
    });
    expect(await readdir(directory)).toEqual([]);
  });

  it('accepts a directory it could create, without creating it', async () => {
    const directory = path.join(workDir, 'not-yet', 'data');
    expect(await checkDataDir(directory)).toMatchObject({
      status: 'pass',
      detail: expect.stringContaining('will be created'),
    });
    await expect(readdir(directory)).rejects.toThrow();
  });

  it('rejects a file, or a path below a file', async () => {
    const file = path.join(workDir, 'a-file');
    await writeFile(file, 'x');
    expect(await checkDataDir(file)).toMatchObject({
      status: 'fail',
      detail: expect.stringContaining('is a file'),
    });
    const below = await checkDataDir(path.join(file, 'data'));
    expect(below).toMatchObject({ status: 'fail', detail: expect.stringContaining('cannot be created') });
    expect(below.fix?.join('\n')).toContain('RAGENT_DATA_DIR');
  });
});

describe('doctor: runtime', () => {
  it('requires Node 20.19 or newer and recommends a current LTS', () => {
    expect(checkNodeVersion('18.20.0').status).toBe('fail');
    expect(checkNodeVersion('20.18.1').status).toBe('fail');
    expect(checkNodeVersion('20.19.0').status).toBe('warn');
    expect(checkNodeVersion('22.12.0').status).toBe('pass');
    expect(checkNodeVersion('24.1.0').status).toBe('pass');
  });
});

describe('doctor: chat platform tokens', () => {
  const slackBot = 'xoxb-123456789012-1234567890123-AbCdEfGhIjKlMnOpQrStUvWx';
  const slackApp = 'xapp-1-A0123456789-1234567890123-0123456789abcdef0123456789abcdef';
  const applicationId = '123456789012345678';
  const discordToken = `${Buffer.from(applicationId).toString('base64url')}.GaBcDe.${'x'.repeat(38)}`;
  const platforms = (environment: Record<string, string>) => checkPlatforms(configFor(environment));

  it('warns, without failing, when no platform is configured', () => {
    const [result] = platforms({});
    expect(result).toMatchObject({ title: 'Chat platforms', status: 'warn' });
    expect(result?.fix?.join('\n')).toContain('ragent chat');
  });

  it('accepts well-formed Slack tokens for Socket Mode and HTTP mode', () => {
    expect(platforms({ SLACK_BOT_TOKEN: slackBot, SLACK_APP_TOKEN: slackApp })).toEqual([
      { title: 'Slack', status: 'pass', detail: 'tokens look right (Socket Mode)' },
    ]);
    expect(platforms({ SLACK_BOT_TOKEN: slackBot, SLACK_SIGNING_SECRET: 'a'.repeat(32) })[0]).toMatchObject({
      status: 'pass',
      detail: 'tokens look right (HTTP mode on port 3000)',
    });
  });

  it('fails a Slack set-up that cannot receive events or has no bot token', () => {
    const noReceiver = platforms({ SLACK_BOT_TOKEN: slackBot })[0];
    expect(noReceiver).toMatchObject({ status: 'fail' });
    expect(noReceiver?.fix?.join('\n')).toMatch(/SLACK_APP_TOKEN[\s\S]*SLACK_SIGNING_SECRET/);
    expect(platforms({ SLACK_APP_TOKEN: slackApp })[0]).toMatchObject({
      status: 'fail',
      detail: 'SLACK_APP_TOKEN is set but SLACK_BOT_TOKEN is not',
    });
  });

  it('warns about a truncated Slack token', () => {
    expect(platforms({ SLACK_BOT_TOKEN: 'xoxb-123456', SLACK_APP_TOKEN: slackApp })[0]?.status).toBe('warn');
  });

  it('says plainly when Discord follow-ups need the Message Content intent, and what to tick', () => {
    const withoutIntent = platforms({ DISCORD_TOKEN: discordToken, DISCORD_APPLICATION_ID: applicationId });
    expect(withoutIntent[1]).toMatchObject({ title: 'Discord follow-ups', status: 'warn' });
    expect(withoutIntent[1]?.fix?.join(' ')).toContain('Message Content Intent');
    expect(withoutIntent[1]?.fix?.join(' ')).toContain(
      'Auto-answer channels and forums (/ragent autoanswer)',
    );
    const others: Array<Record<string, string>> = [
      { DISCORD_MESSAGE_CONTENT: 'true' },
      { RAGENT_FOLLOW_UPS: 'off' },
    ];
    for (const environment of others) {
      expect(
        platforms({ DISCORD_TOKEN: discordToken, DISCORD_APPLICATION_ID: applicationId, ...environment }),
      ).toHaveLength(1);
    }
  });

  it('checks the Discord token shape and the application id', () => {
    expect(
      platforms({ DISCORD_TOKEN: discordToken, DISCORD_APPLICATION_ID: applicationId })[0],
    ).toMatchObject({
      status: 'pass',
    });
    expect(platforms({ DISCORD_TOKEN: `Bot ${discordToken}` })[0]).toMatchObject({
      status: 'fail',
      detail: 'DISCORD_TOKEN starts with "Bot "',
    });
    expect(platforms({ DISCORD_TOKEN: 'not-a-token' })[0]?.status).toBe('fail');
    expect(platforms({ DISCORD_TOKEN: discordToken })[0]).toMatchObject({
      status: 'warn',
      detail: expect.stringContaining('DISCORD_APPLICATION_ID is not set'),
    });
    expect(
      platforms({ DISCORD_TOKEN: discordToken, DISCORD_APPLICATION_ID: '999999999999999999' })[0],
    ).toMatchObject({
      status: 'warn',
      detail: expect.stringContaining('different application'),
    });
  });

  it('never prints a token', () => {
    const results = [
      ...platforms({ SLACK_BOT_TOKEN: slackBot, SLACK_APP_TOKEN: 'xapp-odd-value' }),
      ...platforms({ DISCORD_TOKEN: `Bot ${discordToken}` }),
      ...platforms({ DISCORD_TOKEN: discordToken }),
    ];
    const output = renderReport({ results, ok: false }, { quiet: false, color: false });
    for (const secret of [slackBot, 'xapp-odd-value', discordToken]) expect(output).not.toContain(secret);
  });
});

describe('doctor rendering', () => {
  const report: DoctorReport = {
    ok: false,
    results: [
      { title: 'Ollama', status: 'pass', detail: 'up' },
      { title: 'Chat model', status: 'fail', detail: 'missing', fix: ['ollama pull x'] },
      { title: 'Chat platforms', status: 'warn', detail: 'none', fix: ['set tokens'] },
    ],
  };

  it('aligns the results and puts each fix under its problem', () => {
    expect(renderReport(report, { quiet: false, color: false })).toBe(
      [
        '✓ Ollama          up',
        '✗ Chat model      missing',
        '                  → ollama pull x',
        '! Chat platforms  none',
        '                  → set tokens',
        '',
        '1 problem to fix, 1 warning.',
        '',
      ].join('\n'),
    );
  });

  it('prints only problems when quiet, and nothing when all is well', () => {
    const quiet = renderReport(report, { quiet: true, color: false });
    expect(quiet).toContain('✗ Chat model');
    expect(quiet).not.toContain('Ollama');
    expect(quiet).not.toContain('Chat platforms');
    const healthy: DoctorReport = { ok: true, results: [{ title: 'Ollama', status: 'pass', detail: 'up' }] };
    expect(renderReport(healthy, { quiet: true, color: false })).toBe('');
  });
});
