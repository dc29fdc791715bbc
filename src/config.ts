/**
 * All settings, read once from the environment (and a `.env` file) into a typed, frozen object.
 * Nothing else in the code base reads `process.env`.
 */
import { existsSync, readFileSync } from 'node:fs';
import { hostname } from 'node:os';
import path from 'node:path';
import { parse as parseDotenv } from 'dotenv';
import { z } from 'zod';
import {
  commaList,
  decimal,
  emptyToUndefined,
  flag,
  optionalText,
  optionalUrl,
  text,
  url,
  wholeNumber,
} from './config-fields.ts';
import { errorMessages } from './error-messages-en.ts';
import { RagentError } from './errors.ts';
import { isFetchAllowEntry } from './network-address.ts';
import { type PlatformConfigs, platformSettingsList } from './platform-settings/settings-registry.ts';
import { findProjectRoot } from './project-root.ts';

type Environment = Record<string, string | undefined>;

const headersProblem = 'must be a JSON object of header names to text values';
const headerObject = () =>
  z.preprocess((value) => {
    const cleaned = emptyToUndefined(value);
    if (typeof cleaned !== 'string') return cleaned;
    try {
      return JSON.parse(cleaned);
    } catch {
      return cleaned;
    }
  }, z.record(z.string(), z.string({ error: headersProblem }), { error: headersProblem }).optional());

/** The core variables (every platform's own come from its settings: `src/platform-settings/settings-registry.ts`). */
const coreEnvironment = {
  RAGENT_DATA_DIR: text('./data'),
  LOG_LEVEL: z.preprocess(
    emptyToUndefined,
    z
      .enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'], {
        error: 'must be one of fatal, error, warn, info, debug, trace, silent',
      })
      .optional(),
  ),
  OLLAMA_BASE_URL: url('http://127.0.0.1:11434'),
  OLLAMA_MODEL: text('granite4.1:8b'),
  OLLAMA_EMBED_MODEL: text('qwen3-embedding:0.6b'),
  OLLAMA_NUM_CTX: wholeNumber(16_384, 2_048, 262_144),
  OLLAMA_TIMEOUT_S: wholeNumber(120, 1, 3_600),
  OLLAMA_API_KEY: optionalText(),
  OLLAMA_HEADERS: headerObject(),
  RAGENT_LLM_PROVIDER: z.preprocess(
    (value) => (typeof value === 'string' ? emptyToUndefined(value.toLowerCase()) : value),
    z
      .enum(['ollama', 'openai'], { error: 'must be "ollama" or "openai" (any OpenAI-compatible server)' })
      .default('ollama'),
  ),
  RAGENT_EMBEDDINGS: z.preprocess(
    (value) => (typeof value === 'string' ? emptyToUndefined(value.toLowerCase()) : value),
    z
      .enum(['ollama', 'openai', 'none'], {
        error: 'must be "ollama" or "openai" (hybrid search) or "none" (BM25 only)',
      })
      .default('ollama'),
  ),
  OPENAI_BASE_URL: url('https://api.openai.com/v1'),
  OPENAI_API_KEY: optionalText(),
  OPENAI_MODEL: optionalText(),
  OPENAI_EMBED_MODEL: optionalText(),
  OPENAI_TIMEOUT_S: wholeNumber(120, 1, 3_600),
  RAGENT_EMBED_BATCH: wholeNumber(32, 1, 1_024),
  QDRANT_URL: optionalUrl(),
  QDRANT_API_KEY: optionalText(),
  QDRANT_COLLECTION: text('ragent'),
  QDRANT_SHARDS: wholeNumber(1, 1, 1_024),
  QDRANT_REPLICATION_FACTOR: wholeNumber(1, 1, 64),
  QDRANT_WRITE_CONSISTENCY: wholeNumber(1, 1, 64),
  DATABASE_URL: z.preprocess(
    emptyToUndefined,
    z
      .string()
      .trim()
      .refine((value) => /^postgres(ql)?:\/\/[^/]+/.test(value) && URL.canParse(value), {
        error: 'must be a PostgreSQL URL like postgres://user:password@host:5432/ragent',
      })
      .optional(),
  ),
  RAGENT_REPLICA_ID: z.preprocess(
    emptyToUndefined,
    z
      .string()
      .trim()
      .regex(/^[\w.:@-]{1,100}$/, { error: 'must be 1-100 letters, digits or . : @ _ -' })
      .optional(),
  ),
  RAGENT_DB_POOL: wholeNumber(10, 2, 200),
  RAGENT_MAX_FILE_MB: wholeNumber(50, 1, 2_048),
  RAGENT_INGEST_WORKERS: wholeNumber(2, 1, 64),
  RAGENT_MAX_PAGES: wholeNumber(10_000, 1, 1_000_000),
  RAGENT_MAX_TEXT_MB: wholeNumber(25, 1, 1_024),
  RAGENT_MAX_CHUNKS: wholeNumber(100_000, 1, 10_000_000),
  RAGENT_INGEST_TIMEOUT_S: wholeNumber(300, 1, 86_400),
  RAGENT_INGEST_MEMORY_MB: wholeNumber(1_024, 128, 65_536),
  RAGENT_MAX_ROWS: wholeNumber(200_000, 1, 10_000_000),
  RAGENT_MAX_UNZIPPED_MB: wholeNumber(256, 1, 16_384),
  RAGENT_MAX_ZIP_ENTRIES: wholeNumber(10_000, 1, 1_000_000),
  RAGENT_INGEST_DEFAULT_SET: z.preprocess(
    (value) => (typeof value === 'string' ? emptyToUndefined(value.toLowerCase()) : value),
    z.enum(['channel', 'workspace'], { error: 'must be "channel" or "workspace"' }).default('channel'),
  ),
  RAGENT_FETCH_ALLOW: commaList(
    z.string().refine(isFetchAllowEntry, {
      error: 'must list host names, IP addresses or CIDR ranges, separated by commas',
    }),
  ),
  RAGENT_FETCH_TIMEOUT_S: wholeNumber(30, 1, 3_600),
  RAGENT_FETCH_MAX_MB: wholeNumber(20, 1, 2_048),
  RAGENT_CRAWL_CONCURRENCY: wholeNumber(4, 1, 32),
  RAGENT_OCR: flag(true),
  RAGENT_OCR_LANGS: z.preprocess(
    (value) => (typeof value === 'string' ? emptyToUndefined(value.toLowerCase()) : value),
    z
      .string()
      .trim()
      .regex(/^[a-z][a-z_]*(\s*[+,]\s*[a-z][a-z_]*)*$/, {
        error: 'must be tesseract language codes joined by + or , (e.g. eng or eng+deu)',
      })
      .default('eng'),
  ),
  RAGENT_OCR_MODEL: z.preprocess(
    (value) => (typeof value === 'string' ? emptyToUndefined(value.toLowerCase()) : value),
    z.enum(['fast', 'best'], { error: 'must be "fast" or "best"' }).default('fast'),
  ),
  RAGENT_OCR_PAGE_SECONDS: wholeNumber(60, 1, 3_600),
  RAGENT_OCR_MAX_MEGAPIXELS: wholeNumber(50, 1, 1_000),
  RAGENT_LLM_CONCURRENCY: wholeNumber(2, 1, 64),
  RAGENT_LLM_CLUSTER_CONCURRENCY: z.preprocess(
    emptyToUndefined,
    z.coerce
      .number({ error: 'must be a number' })
      .int({ error: 'must be a whole number' })
      .min(1, { error: 'must be at least 1' })
      .max(1_024, { error: 'must be at most 1024' })
      .optional(),
  ),
  RAGENT_ANSWER_TIMEOUT_S: wholeNumber(300, 5, 3_600),
  RAGENT_NODE_TIMEOUT_S: wholeNumber(120, 1, 3_600),
  RAGENT_MAX_TOOL_CALLS: wholeNumber(8, 1, 100),
  RAGENT_MAX_ITERATIONS: wholeNumber(10, 1, 100),
  RAGENT_COMPRESSION_CONTEXT_SHARE: decimal(0.55, 0.1, 0.9),
  RAGENT_MIN_RELEVANCE: decimal(0, 0, 1_000),
  RAGENT_MAX_CLARIFICATIONS: wholeNumber(3, 0, 20),
  RAGENT_FOLLOW_UPS: flag(true),
  RAGENT_ADMINS: commaList(
    z.string().regex(/^[A-Za-z0-9_.-]+$/, { error: 'must list user ids, separated by commas' }),
  ),
  RAGENT_RETENTION_DAYS: wholeNumber(90, 0, 36_500),
  RAGENT_MCP_TOKEN: optionalText(),
  RAGENT_THREAD_FILES_DAYS: wholeNumber(7, 1, 36_500),
  RAGENT_THREAD_CONTEXT_MESSAGES: wholeNumber(50, 0, 1_000),
  RAGENT_THREAD_CONTEXT_TOKENS: wholeNumber(2_000, 1, 100_000),
};

type PlatformEnvironment = UnionToIntersection<(typeof platformSettingsList)[number]['environment']>;
type UnionToIntersection<Union> = (Union extends unknown ? (value: Union) => void : never) extends (
  value: infer Intersection,
) => void
  ? Intersection
  : never;

/** The raw environment schema: one entry per variable, named as the user types it. */
const environmentSchema = z.object({
  ...coreEnvironment,
  ...(Object.assign(
    {},
    ...platformSettingsList.map((settings) => settings.environment),
  ) as PlatformEnvironment),
});

/** Every variable ragent reads (documented in .env.example and docs/configuration.md). */
export const configVariableNames: readonly string[] = Object.freeze(Object.keys(environmentSchema.shape));

/** How to fix each variable, shown with its error. */
const fixes: Record<string, string> = {
  OLLAMA_BASE_URL: 'Point it at your Ollama server, e.g. http://127.0.0.1:11434.',
  QDRANT_URL:
    'Set it to your Qdrant server, e.g. http://127.0.0.1:6333, or unset it to use the embedded store.',
  RAGENT_EMBEDDINGS:
    'Use "ollama" or "openai" (OPENAI_EMBED_MODEL) for hybrid search, or "none" to search with BM25 only.',
  RAGENT_LLM_PROVIDER: 'Use "ollama" (default) or "openai" with OPENAI_BASE_URL and OPENAI_MODEL.',
  OPENAI_BASE_URL: "Point it at the server's OpenAI API, e.g. http://127.0.0.1:8000/v1 for vLLM.",
  OPENAI_MODEL: 'Set it to a chat model the server lists under /v1/models.',
  OPENAI_EMBED_MODEL: 'Set it to an embedding model the server lists under /v1/models.',
  OLLAMA_HEADERS: 'Write it as JSON, e.g. {"X-Proxy-Key":"…"}.',
  LOG_LEVEL: 'Use info for normal operation, debug when investigating.',
  DATABASE_URL: 'Unset it to run one process on SQLite, or set it to your PostgreSQL server.',
  ...Object.assign({}, ...platformSettingsList.map((settings) => settings.fixes)),
};

export type EnvironmentVariables = z.infer<typeof environmentSchema>;

/** Every setting; each chat platform's under its name (see `PlatformConfigs`). */
export interface Config extends PlatformConfigs {
  /** Absolute: RAGENT_DATA_DIR resolved against the project root (see project-root.ts). */
  dataDir: string;
  /** Undefined when LOG_LEVEL is not set: each entry point picks its own default. */
  logLevel: EnvironmentVariables['LOG_LEVEL'];
  ollama: {
    baseUrl: string;
    model: string;
    embedModel: string;
    numCtx: number;
    temperature: number;
    seed: number;
    timeoutMs: number;
    /** Sent with every request (OLLAMA_HEADERS, and OLLAMA_API_KEY as a bearer token). Secret. */
    headers: Readonly<Record<string, string>>;
  };
  /** Which server answers chat: Ollama, or any OpenAI-compatible one. */
  llmProvider: 'ollama' | 'openai';
  openai: {
    /** Ends in /v1. */
    baseUrl: string;
    apiKey: string | undefined;
    /** Required when RAGENT_LLM_PROVIDER=openai. */
    model: string | undefined;
    /** Required when RAGENT_EMBEDDINGS=openai. */
    embedModel: string | undefined;
    temperature: number;
    seed: number;
    timeoutMs: number;
  };
  /** Which server embeds; "none" = BM25 only. */
  embeddings: 'ollama' | 'openai' | 'none';
  embedBatchSize: number;
  qdrant:
    | {
        url: string;
        apiKey: string | undefined;
        collection: string;
        /** Used when ragent creates the collection. */
        shards: number;
        replicationFactor: number;
        writeConsistency: number;
      }
    | undefined;
  /** Shared state of several replicas (DATABASE_URL); undefined = one process on SQLite. */
  database: { url: string; poolSize: number } | undefined;
  /** This process among the replicas (RAGENT_REPLICA_ID, default host name + pid). */
  replicaId: string;
  /** The limits are shaped as the ingest's IngestLimits. */
  ingest: {
    maxFileBytes: number;
    workers: number;
    maxPages: number;
    maxTextChars: number;
    maxChunks: number;
    timeoutMs: number;
    workerMemoryMb: number;
    maxRows: number;
    maxUnzippedBytes: number;
    maxZipEntries: number;
    /** Where a chat upload goes unless the user picks: the channel's set or the workspace's/server's. */
    defaultSet: 'channel' | 'workspace';
  };
  /** Fetching web pages (`ragent ingest <url>`, `/ragent ingest <url>`). */
  fetch: {
    /** RAGENT_FETCH_ALLOW: private hosts, addresses or ranges a chat may still fetch. */
    allow: string[];
    timeoutMs: number;
    maxBytes: number;
    /** Pages fetched at the same time by a crawl. */
    crawlConcurrency: number;
  };
  /** Text recognition of images and of PDF pages without a text layer (shaped as the ingest's OcrSettings). */
  ocr: {
    enabled: boolean;
    /** Tesseract language codes, each from its @tesseract.js-data/<code> package. */
    languages: string[];
    /** RAGENT_OCR_MODEL: Tesseract's fast model where ragent ships one, or each package's best. */
    model: 'fast' | 'best';
    pageTimeoutMs: number;
    maxPixels: number;
  };
  limits: {
    llmConcurrency: number;
    /** Model calls at once across all replicas (RAGENT_LLM_CLUSTER_CONCURRENCY, with DATABASE_URL); undefined: per replica only. */
    llmClusterConcurrency: number | undefined;
    answerTimeoutMs: number;
    nodeTimeoutMs: number;
    maxToolCalls: number;
    maxIterations: number;
    /** Compress an agent's research when its next prompt would exceed this share of `ollama.numCtx`. */
    compressionContextShare: number;
    /** Search hits scoring below this are dropped (0: off); the scale depends on the search mode. */
    minRelevance: number;
    maxClarificationRounds: number;
  };
  /** In a thread the bot is in, whether people's replies are turns without a mention (RAGENT_FOLLOW_UPS). */
  followUps: boolean;
  /**
   * User ids (as the chat platform writes them) who may run admin commands besides the platform's own
   * admins (RAGENT_ADMINS): for teams whose bot operators are not workspace or server admins.
   */
  admins: readonly string[];
  /** Days the question text of a turn record is kept (RAGENT_RETENTION_DAYS); 0: never stored. */
  retentionDays: number;
  mcp: {
    /** The bearer token of `ragent mcp --http` (its --token wins); unset = --token is needed. */
    token: string | undefined;
  };
  /** Days a file attached to a question stays in its thread's own set (RAGENT_THREAD_FILES_DAYS). */
  threadFilesDays: number;
  /** Joining a thread: how much of what was said before is read (messages: 0 = off; tokens of the newest kept). */
  threadContext: { messages: number; tokens: number };
  /** Every secret value, so the logger can scrub them wherever they appear. */
  secrets: readonly string[];
}

export interface LoadConfigOptions {
  /**
   * Read this `.env` file too (variables already in the environment win). Default: `.env` in the
   * project root, the nearest directory at or above `cwd` with a package.json.
   */
  envFile?: string | false;
  /** Where the project root is looked for. Default: process.cwd(). */
  cwd?: string;
}

export function loadConfig(environment: Environment = process.env, options: LoadConfigOptions = {}): Config {
  const root = findProjectRoot(options.cwd);
  const merged = { ...readEnvFile(options.envFile, root), ...definedOnly(environment) };
  const parsed = environmentSchema.safeParse(merged);
  const issues = parsed.success ? missingVariables(parsed.data) : parsed.error.issues;
  if (!parsed.success || issues.length > 0) {
    const lines = issues.map((issue) => {
      const variable = String(issue.path[0] ?? 'configuration');
      const value = merged[variable];
      const shown =
        value === undefined ? '' : ` (got ${JSON.stringify(isSecretVariable(variable) ? '…' : value)})`;
      const fix = fixes[variable]
        ? ` ${fixes[variable]}`
        : ' Fix it in your environment or .env file, or unset it to use the default.';
      return `${variable} ${issue.message}${shown}.${fix}`;
    });
    throw new RagentError('CONFIG_INVALID', errorMessages.CONFIG_INVALID.settings({ lines }), {
      details: { variables: issues.map((issue) => issue.path[0]) },
    });
  }
  return deepFreeze(toConfig(parsed.data, root));
}

/** Variables another setting makes required. */
function missingVariables(env: EnvironmentVariables): Array<{ path: PropertyKey[]; message: string }> {
  const issues: Array<{ path: PropertyKey[]; message: string }> = [];
  if (env.RAGENT_LLM_PROVIDER === 'openai' && !env.OPENAI_MODEL)
    issues.push({ path: ['OPENAI_MODEL'], message: 'is required when RAGENT_LLM_PROVIDER=openai' });
  if (env.RAGENT_EMBEDDINGS === 'openai' && !env.OPENAI_EMBED_MODEL)
    issues.push({ path: ['OPENAI_EMBED_MODEL'], message: 'is required when RAGENT_EMBEDDINGS=openai' });
  return issues;
}

/** OLLAMA_HEADERS plus OLLAMA_API_KEY as `Authorization: Bearer …`. */
function ollamaHeaders(env: EnvironmentVariables): Record<string, string> {
  return {
    ...env.OLLAMA_HEADERS,
    ...(env.OLLAMA_API_KEY ? { Authorization: `Bearer ${env.OLLAMA_API_KEY}` } : {}),
  };
}

/** OpenAI clients append `/chat/completions` to a base that ends in `/v1`. */
export function normaliseOpenAiBaseUrl(url: string): string {
  const trimmed = url.replace(/\/+$/, '');
  return /\/v\d+$/.test(trimmed) ? trimmed : `${trimmed}/v1`;
}

function toConfig(env: EnvironmentVariables, root: string): Config {
  const platforms = Object.fromEntries(
    platformSettingsList.map((settings) => [settings.name, settings.read(env as never)]),
  ) as unknown as PlatformConfigs;
  const secrets = [
    ...platformSettingsList.flatMap((settings) => settings.secrets(platforms[settings.name] as never)),
    env.QDRANT_API_KEY,
    env.OLLAMA_API_KEY,
    env.OPENAI_API_KEY,
    env.RAGENT_MCP_TOKEN,
    ...Object.values(env.OLLAMA_HEADERS ?? {}),
    env.DATABASE_URL,
    databasePassword(env.DATABASE_URL),
  ].filter((value): value is string => typeof value === 'string' && value.length >= 6);
  return {
    dataDir: path.resolve(root, env.RAGENT_DATA_DIR),
    logLevel: env.LOG_LEVEL,
    ollama: {
      baseUrl: env.OLLAMA_BASE_URL.replace(/\/+$/, ''),
      model: env.OLLAMA_MODEL,
      embedModel: env.OLLAMA_EMBED_MODEL,
      numCtx: env.OLLAMA_NUM_CTX,
      temperature: 0,
      seed: 42,
      timeoutMs: env.OLLAMA_TIMEOUT_S * 1000,
      headers: ollamaHeaders(env),
    },
    llmProvider: env.RAGENT_LLM_PROVIDER,
    openai: {
      baseUrl: normaliseOpenAiBaseUrl(env.OPENAI_BASE_URL),
      apiKey: env.OPENAI_API_KEY,
      model: env.OPENAI_MODEL,
      embedModel: env.OPENAI_EMBED_MODEL,
      temperature: 0,
      seed: 42,
      timeoutMs: env.OPENAI_TIMEOUT_S * 1000,
    },
    embeddings: env.RAGENT_EMBEDDINGS,
    embedBatchSize: env.RAGENT_EMBED_BATCH,
    qdrant: env.QDRANT_URL
      ? {
          url: env.QDRANT_URL.replace(/\/+$/, ''),
          apiKey: env.QDRANT_API_KEY,
          collection: env.QDRANT_COLLECTION,
          shards: env.QDRANT_SHARDS,
          replicationFactor: env.QDRANT_REPLICATION_FACTOR,
          writeConsistency: env.QDRANT_WRITE_CONSISTENCY,
        }
      : undefined,
    database: env.DATABASE_URL ? { url: env.DATABASE_URL, poolSize: env.RAGENT_DB_POOL } : undefined,
    replicaId: env.RAGENT_REPLICA_ID ?? `${hostname()}-${process.pid}`,
    ingest: {
      maxFileBytes: env.RAGENT_MAX_FILE_MB * 1024 * 1024,
      workers: env.RAGENT_INGEST_WORKERS,
      maxPages: env.RAGENT_MAX_PAGES,
      maxTextChars: env.RAGENT_MAX_TEXT_MB * 1024 * 1024,
      maxChunks: env.RAGENT_MAX_CHUNKS,
      timeoutMs: env.RAGENT_INGEST_TIMEOUT_S * 1000,
      workerMemoryMb: env.RAGENT_INGEST_MEMORY_MB,
      maxRows: env.RAGENT_MAX_ROWS,
      maxUnzippedBytes: env.RAGENT_MAX_UNZIPPED_MB * 1024 * 1024,
      maxZipEntries: env.RAGENT_MAX_ZIP_ENTRIES,
      defaultSet: env.RAGENT_INGEST_DEFAULT_SET,
    },
    fetch: {
      allow: env.RAGENT_FETCH_ALLOW,
      timeoutMs: env.RAGENT_FETCH_TIMEOUT_S * 1000,
      maxBytes: env.RAGENT_FETCH_MAX_MB * 1024 * 1024,
      crawlConcurrency: env.RAGENT_CRAWL_CONCURRENCY,
    },
    ocr: {
      enabled: env.RAGENT_OCR,
      languages: [...new Set(env.RAGENT_OCR_LANGS.split(/[+,]/).map((code) => code.trim()))],
      model: env.RAGENT_OCR_MODEL,
      pageTimeoutMs: env.RAGENT_OCR_PAGE_SECONDS * 1000,
      maxPixels: env.RAGENT_OCR_MAX_MEGAPIXELS * 1_000_000,
    },
    limits: {
      llmConcurrency: env.RAGENT_LLM_CONCURRENCY,
      llmClusterConcurrency: env.RAGENT_LLM_CLUSTER_CONCURRENCY,
      answerTimeoutMs: env.RAGENT_ANSWER_TIMEOUT_S * 1000,
      nodeTimeoutMs: env.RAGENT_NODE_TIMEOUT_S * 1000,
      maxToolCalls: env.RAGENT_MAX_TOOL_CALLS,
      maxIterations: env.RAGENT_MAX_ITERATIONS,
      compressionContextShare: env.RAGENT_COMPRESSION_CONTEXT_SHARE,
      minRelevance: env.RAGENT_MIN_RELEVANCE,
      maxClarificationRounds: env.RAGENT_MAX_CLARIFICATIONS,
    },
    followUps: env.RAGENT_FOLLOW_UPS,
    admins: env.RAGENT_ADMINS,
    retentionDays: env.RAGENT_RETENTION_DAYS,
    mcp: { token: env.RAGENT_MCP_TOKEN },
    threadFilesDays: env.RAGENT_THREAD_FILES_DAYS,
    threadContext: { messages: env.RAGENT_THREAD_CONTEXT_MESSAGES, tokens: env.RAGENT_THREAD_CONTEXT_TOKENS },
    ...platforms,
    secrets,
  };
}

function readEnvFile(envFile: string | false | undefined, root: string): Environment {
  if (envFile === false) return {};
  const file = envFile ?? path.join(root, '.env');
  if (!existsSync(file)) return {};
  return parseDotenv(readFileSync(file));
}

function definedOnly(environment: Environment): Environment {
  return Object.fromEntries(Object.entries(environment).filter(([, value]) => value !== undefined));
}

/** Freezes the config and every object in it, so no module can change a setting after start-up. */
function deepFreeze<T extends object>(value: T): T {
  for (const item of Object.values(value)) {
    if (typeof item === 'object' && item !== null && !Object.isFrozen(item)) deepFreeze(item);
  }
  return Object.freeze(value);
}

function isSecretVariable(variable: string): boolean {
  return /TOKEN|SECRET|KEY|HEADERS|DATABASE_URL/.test(variable);
}

function databasePassword(url: string | undefined): string | undefined {
  if (!url || !URL.canParse(url)) return undefined;
  const password = new URL(url).password;
  return password ? decodeURIComponent(password) : undefined;
}
