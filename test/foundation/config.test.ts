import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.ts';
import { isRagentError, type RagentError } from '../../src/errors.ts';

const load = (environment: Record<string, string | undefined>) => loadConfig(environment, { envFile: false });

function configError(environment: Record<string, string | undefined>): RagentError {
  try {
    load(environment);
  } catch (error) {
    if (isRagentError(error)) return error;
    throw error;
  }
  throw new Error('expected loadConfig to reject the environment');
}

describe('loadConfig', () => {
  it('gives every setting a working default', () => {
    const config = load({});
    expect(config.dataDir).toBe(path.resolve('data'));
    expect(config.ollama).toMatchObject({
      baseUrl: 'http://127.0.0.1:11434',
      model: 'granite4.1:8b',
      embedModel: 'qwen3-embedding:0.6b',
      numCtx: 16_384,
      temperature: 0,
      timeoutMs: 120_000,
    });
    expect(config.embeddings).toBe('ollama');
    expect(config.qdrant).toBeUndefined();
    expect(config.logLevel).toBeUndefined();
    expect(config.slack).toMatchObject({ botToken: undefined, appToken: undefined, port: 3000 });
    expect(config.discord).toMatchObject({ token: undefined, messageContentIntent: false });
    expect(config.ingest.maxFileBytes).toBe(50 * 1024 * 1024);
    expect(config.secrets).toEqual([]);
  });

  it('reads, trims and converts the values people type', () => {
    const config = load({
      RAGENT_DATA_DIR: '/srv/ragent ',
      OLLAMA_BASE_URL: 'http://ollama:11434/',
      RAGENT_EMBEDDINGS: 'NONE',
      OLLAMA_NUM_CTX: '32768',
      DISCORD_MESSAGE_CONTENT: 'yes',
      QDRANT_URL: 'http://qdrant:6333/',
      QDRANT_API_KEY: 'qdrant-key-123',
      OLLAMA_MODEL: '   ',
    });
    expect(config.dataDir).toBe('/srv/ragent');
    expect(config.ollama.baseUrl).toBe('http://ollama:11434');
    expect(config.ollama.model).toBe('granite4.1:8b');
    expect(config.embeddings).toBe('none');
    expect(config.ollama.numCtx).toBe(32_768);
    expect(config.discord.messageContentIntent).toBe(true);
    expect(config.qdrant).toEqual({
      url: 'http://qdrant:6333',
      apiKey: 'qdrant-key-123',
      collection: 'ragent',
      shards: 1,
      replicationFactor: 1,
      writeConsistency: 1,
    });
  });

  it('reads the replica settings: DATABASE_URL, replica id, pool, Qdrant collection layout, Discord shards', () => {
    const single = load({});
    expect(single.database).toBeUndefined();
    expect(single.replicaId).toMatch(new RegExp(`-${process.pid}$`));
    expect(single.discord.shards).toBe(1);
    const replicas = load({
      DATABASE_URL: 'postgresql://ragent:pw-secret-1@db:5432/ragent',
      RAGENT_REPLICA_ID: 'web-1',
      RAGENT_DB_POOL: '4',
      QDRANT_URL: 'http://qdrant:6333',
      QDRANT_SHARDS: '6',
      QDRANT_REPLICATION_FACTOR: '2',
      QDRANT_WRITE_CONSISTENCY: '2',
      RAGENT_DISCORD_SHARDS: '4',
    });
    expect(replicas.database).toEqual({ url: 'postgresql://ragent:pw-secret-1@db:5432/ragent', poolSize: 4 });
    expect(replicas.replicaId).toBe('web-1');
    expect(replicas.qdrant).toMatchObject({ shards: 6, replicationFactor: 2, writeConsistency: 2 });
    expect(replicas.discord.shards).toBe(4);
    expect(replicas.secrets).toEqual(
      expect.arrayContaining(['postgresql://ragent:pw-secret-1@db:5432/ragent', 'pw-secret-1']),
    );
    expect(() => load({ RAGENT_REPLICA_ID: 'two words' })).toThrow(/RAGENT_REPLICA_ID/);
    expect(() => load({ QDRANT_SHARDS: '0' })).toThrow(/QDRANT_SHARDS must be at least 1/);
  });

  it('collects every secret so the logger can scrub it', () => {
    const config = load({
      SLACK_BOT_TOKEN: 'xoxb-1-2-abcdef',
      SLACK_APP_TOKEN: 'xapp-1-A1-2-abcdef',
      SLACK_SIGNING_SECRET: 'signing-secret-value',
      DISCORD_TOKEN: 'discord-token-value',
      QDRANT_URL: 'http://qdrant:6333',
      QDRANT_API_KEY: 'qdrant-key-value',
    });
    expect([...config.secrets].sort()).toEqual(
      [
        'xoxb-1-2-abcdef',
        'xapp-1-A1-2-abcdef',
        'signing-secret-value',
        'discord-token-value',
        'qdrant-key-value',
      ].sort(),
    );
  });

  it('reads the model providers: the OpenAI-compatible server and the Ollama proxy credentials', () => {
    const defaults = load({});
    expect(defaults.llmProvider).toBe('ollama');
    expect(defaults.ollama.headers).toEqual({});
    expect(defaults.openai).toMatchObject({ baseUrl: 'https://api.openai.com/v1', temperature: 0, seed: 42 });
    const config = load({
      RAGENT_LLM_PROVIDER: 'OpenAI',
      RAGENT_EMBEDDINGS: 'ollama',
      OPENAI_BASE_URL: 'http://vllm:8000/',
      OPENAI_MODEL: 'ibm-granite/granite-4.1-8b',
      OPENAI_API_KEY: 'sk-openai-secret',
      OLLAMA_API_KEY: 'ollama-proxy-secret',
      OLLAMA_HEADERS: '{"X-Team":"docs-team-key"}',
    });
    expect(config.llmProvider).toBe('openai');
    expect(config.openai).toMatchObject({
      baseUrl: 'http://vllm:8000/v1',
      model: 'ibm-granite/granite-4.1-8b',
      apiKey: 'sk-openai-secret',
      timeoutMs: 120_000,
    });
    expect(load({ OPENAI_BASE_URL: 'http://llama:8080/v1/' }).openai.baseUrl).toBe('http://llama:8080/v1');
    expect(config.ollama.headers).toEqual({
      'X-Team': 'docs-team-key',
      Authorization: 'Bearer ollama-proxy-secret',
    });
    expect(config.secrets).toEqual(
      expect.arrayContaining(['sk-openai-secret', 'ollama-proxy-secret', 'docs-team-key']),
    );
  });

  it('returns a deeply frozen object', () => {
    const config = load({});
    expect(Object.isFrozen(config)).toBe(true);
    expect(Object.isFrozen(config.ollama)).toBe(true);
    expect(Object.isFrozen(config.slack)).toBe(true);
    expect(Object.isFrozen(config.secrets)).toBe(true);
    expect(() => {
      (config.ollama as { model: string }).model = 'other';
    }).toThrow(TypeError);
  });

  it.each([
    ['OLLAMA_BASE_URL', 'localhost:11434', 'http:// or https:// URL', 'http://127.0.0.1:11434'],
    ['QDRANT_URL', 'ftp://qdrant:6333', 'http:// or https:// URL', 'unset it to use the embedded store'],
    ['OLLAMA_NUM_CTX', 'lots', 'must be a number', 'unset it to use the default'],
    ['OLLAMA_NUM_CTX', '100', 'at least 2048', 'unset it to use the default'],
    ['RAGENT_INGEST_WORKERS', '1.5', 'whole number', 'unset it to use the default'],
    ['SLACK_PORT', '70000', 'at most 65535', 'unset it to use the default'],
    ['RAGENT_EMBEDDINGS', 'cohere', '"ollama"', '"none" to search with BM25 only'],
    ['RAGENT_LLM_PROVIDER', 'vllm', '"openai"', 'OPENAI_BASE_URL and OPENAI_MODEL'],
    ['LOG_LEVEL', 'verbose', 'one of fatal, error', 'Use info for normal operation'],
    ['DISCORD_MESSAGE_CONTENT', 'maybe', 'true or false', 'unset it to use the default'],
    ['DISCORD_APPLICATION_ID', 'my-bot', 'numeric application id', '"General Information"'],
    ['RAGENT_HANDOFF_DISCORD', 'role:12345', 'role:<role id> or user:<user id>', 'Developer Mode'],
  ])('rejects %s=%s naming the variable, the value and the fix', (variable, value, problem, fix) => {
    const error = configError({ [variable]: value });
    expect(error.code).toBe('CONFIG_INVALID');
    const line = error.message.split('\n').find((candidate) => candidate.includes(variable));
    expect(line).toBeDefined();
    expect(line).toContain(problem);
    expect(line).toContain(JSON.stringify(value));
    expect(line).toContain(fix);
    expect(error.details).toEqual({ variables: [variable] });
  });

  it('rejects OLLAMA_HEADERS that are not a JSON object of texts, without echoing it', () => {
    const error = configError({ OLLAMA_HEADERS: '{"X-Key": 5, "secret": "hidden-value"}' });
    const line = error.message.split('\n').find((candidate) => candidate.includes('OLLAMA_HEADERS'));
    expect(line).toContain('JSON object');
    expect(error.message).not.toContain('hidden-value');
  });

  it('requires the OpenAI model names the chosen providers need', () => {
    const error = configError({ RAGENT_LLM_PROVIDER: 'openai', RAGENT_EMBEDDINGS: 'openai' });
    expect(error.details).toEqual({ variables: ['OPENAI_MODEL', 'OPENAI_EMBED_MODEL'] });
    expect(error.message).toContain('OPENAI_MODEL is required when RAGENT_LLM_PROVIDER=openai');
    expect(error.message).toContain('/v1/models');
  });

  it('reports every bad variable at once', () => {
    const error = configError({ OLLAMA_BASE_URL: 'nope', RAGENT_EMBEDDINGS: 'maybe', SLACK_PORT: '-1' });
    expect(error.details?.variables).toEqual(['OLLAMA_BASE_URL', 'RAGENT_EMBEDDINGS', 'SLACK_PORT']);
    expect(error.message.split('\n')).toHaveLength(4);
  });

  it.each([
    ['SLACK_BOT_TOKEN', 'xoxp-user-token-that-is-secret', 'xoxb-', 'OAuth & Permissions'],
    ['SLACK_APP_TOKEN', 'xoxb-wrong-token-that-is-secret', 'xapp-', 'connections:write'],
  ])('rejects a wrong %s without echoing it', (variable, value, prefix, fix) => {
    const error = configError({ [variable]: value });
    expect(error.message).toContain(variable);
    expect(error.message).toContain(prefix);
    expect(error.message).toContain(fix);
    expect(error.message).not.toContain(value);
    expect(error.message).not.toContain('that-is-secret');
  });
});

describe('loadConfig with a .env file', () => {
  let directory: string;
  beforeAll(async () => {
    directory = await mkdtemp(path.join(tmpdir(), 'ragent-config-'));
    await writeFile(
      path.join(directory, '.env'),
      ['# comment', 'OLLAMA_MODEL=model-from-file', 'LOG_LEVEL=debug', 'QDRANT_COLLECTION="docs"', ''].join(
        '\n',
      ),
    );
  });
  afterAll(async () => {
    await rm(directory, { recursive: true, force: true });
  });

  it('reads the file, and the real environment wins', () => {
    const config = loadConfig({ OLLAMA_MODEL: 'model-from-env' }, { envFile: path.join(directory, '.env') });
    expect(config.ollama.model).toBe('model-from-env');
    expect(config.logLevel).toBe('debug');
  });

  it('reports a bad value from the file like one from the environment', () => {
    expect(() => loadConfig({ LOG_LEVEL: 'loud' }, { envFile: path.join(directory, '.env') })).toThrow(
      /LOG_LEVEL .*"loud"/,
    );
  });

  it('ignores a missing file', () => {
    const config = loadConfig({}, { envFile: path.join(directory, 'missing.env') });
    expect(config.ollama.model).toBe('granite4.1:8b');
  });
});
