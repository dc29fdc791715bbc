/**
 * A fake Ollama server that speaks the real HTTP wire format the `ollama` / `@langchain/ollama`
 * clients use: `/api/chat` (NDJSON streaming or not, `tools`/`tool_calls`, `format` for structured
 * output), `/api/embed` (batched, deterministic vectors), `/api/tags`, `/api/version`.
 * Each test scripts the chat replies with a function and can make the server fail on demand.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { closeServer, listenLocally, readBody, sendJson } from './http-helpers.ts';

export interface OllamaToolCall {
  function: { name: string; arguments: Record<string, unknown> };
}

export interface OllamaMessage {
  role: 'system' | 'user' | 'assistant' | 'tool';
  content: string;
  tool_calls?: OllamaToolCall[];
  tool_name?: string;
  images?: string[];
}

export interface OllamaTool {
  type: 'function';
  function: { name: string; description?: string; parameters?: Record<string, unknown> };
}

export interface FakeChatRequest {
  model: string;
  messages: OllamaMessage[];
  tools?: OllamaTool[];
  format?: unknown;
  options?: Record<string, unknown>;
  stream?: boolean;
}

export type FailureKind =
  | 'http-500'
  | 'http-404-model'
  | 'timeout'
  | 'malformed'
  | 'disconnect'
  /** HTTP 429 with `Retry-After` (seconds, see `retryAfter`). */
  | 'rate-limit';

export type FakeChatReply =
  | {
      content?: string;
      toolCalls?: Array<{ name: string; arguments: Record<string, unknown> }>;
      /** Wait this long before answering. */
      delayMs?: number;
      /** When streaming: send the text word by word, waiting this long before each word. */
      tokenDelayMs?: number;
    }
  | { fail: FailureKind };

/** Decides the reply to one chat request; `index` counts chat requests from 0. */
export type ChatScript = (request: FakeChatRequest, index: number) => FakeChatReply | Promise<FakeChatReply>;

export interface RecordedRequest {
  method: string;
  path: string;
  headers: IncomingMessage['headers'];
  body: unknown;
  at: number;
}

export interface FakeOllamaOptions {
  chat?: ChatScript;
  /** Dimension of `/api/embed` vectors unless the request asks for `dimensions` (default 64). */
  embedDimension?: number;
  /** Models `/api/tags` lists (default: the two default models). */
  models?: string[];
  /** Port to listen on (default: any free port). */
  port?: number;
  /** When streaming, send every reply word by word with this delay before each word (default: 3 pieces, no delay). */
  tokenDelayMs?: number;
  /** `Retry-After` of a `rate-limit` failure, in seconds (default "0"). */
  retryAfter?: string;
  /** A chat model without tools: `/api/show` omits the capability and chat requests with tools get 400. */
  refuseTools?: boolean;
}

export interface FakeOllama {
  /** Base URL, e.g. http://127.0.0.1:43123 */
  url: string;
  port: number;
  requests: RecordedRequest[];
  chatRequests(): FakeChatRequest[];
  embedRequests(): Array<{ model: string; input: string | string[]; dimensions?: number }>;
  setChat(script: ChatScript): void;
  setModels(models: string[]): void;
  /** The next `count` requests to `/api/chat` or `/api/embed` (or `path`) fail this way. */
  failNext(kind: FailureKind, count?: number, path?: string): void;
  /** Every request fails this way until cleared with `failAlways(undefined)`. */
  failAlways(kind: FailureKind | undefined): void;
  /** Requests currently being answered. */
  inFlight(): number;
  /** Highest number of chat requests answered at the same time. */
  maxConcurrentChats(): number;
  close(): Promise<void>;
}

export const defaultFakeModels = ['granite4.1:8b', 'qwen3-embedding:0.6b'];

/** A deterministic embedding: hashed bag of words, L2-normalised, so similar texts get similar vectors. */
export function fakeEmbedding(text: string, dimension: number): number[] {
  const vector = new Array<number>(dimension).fill(0);
  const words = text.toLowerCase().match(/[a-z0-9]+/g) ?? [];
  for (const word of words) {
    let hash = 2166136261;
    for (let i = 0; i < word.length; i++) {
      hash ^= word.charCodeAt(i);
      hash = Math.imul(hash, 16777619);
    }
    const index = (hash >>> 0) % dimension;
    vector[index] = (vector[index] ?? 0) + ((hash >>> 31) & 1 ? -1 : 1);
  }
  const norm = Math.sqrt(vector.reduce((sum, value) => sum + value * value, 0));
  if (norm === 0) {
    vector[0] = 1;
    return vector;
  }
  return vector.map((value) => value / norm);
}

/** Rough token count, for `prompt_eval_count` / `eval_count`. */
function approximateTokens(text: string): number {
  return Math.max(1, Math.ceil(text.length / 4));
}

const defaultChat: ChatScript = () => ({ content: 'OK' });

export async function startFakeOllama(options: FakeOllamaOptions = {}): Promise<FakeOllama> {
  let chat = options.chat ?? defaultChat;
  let models = options.models ?? defaultFakeModels;
  const embedDimension = options.embedDimension ?? 64;
  const requests: RecordedRequest[] = [];
  const pendingFailures: Array<{ kind: FailureKind; path: string | undefined }> = [];
  let permanentFailure: FailureKind | undefined;
  let chatIndex = 0;
  let inFlight = 0;
  let chatsInFlight = 0;
  let maxChats = 0;

  /** As Ollama: `name` and `name:latest` are the same model. */
  const serves = (model: string): boolean => {
    const bare = (name: string) => name.replace(/:latest$/, '');
    return models.some((name) => bare(name) === bare(model));
  };

  const takeFailure = (path: string): FailureKind | undefined => {
    if (permanentFailure) return permanentFailure;
    const position = pendingFailures.findIndex(
      (failure) =>
        failure.path === path ||
        (failure.path === undefined && (path === '/api/chat' || path === '/api/embed')),
    );
    if (position < 0) return undefined;
    const [failure] = pendingFailures.splice(position, 1);
    return failure?.kind;
  };

  const server: Server = createServer((request, response) => {
    inFlight++;
    response.on('close', () => {
      inFlight--;
    });
    handle(request, response).catch((error: unknown) => {
      if (!response.headersSent) sendJson(response, 500, { error: String(error) });
      else response.destroy();
    });
  });

  async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const path = new URL(request.url ?? '/', 'http://localhost').pathname;
    const raw = (await readBody(request)).toString('utf8');
    let body: unknown;
    try {
      body = raw.length > 0 ? JSON.parse(raw) : undefined;
    } catch {
      sendJson(response, 400, { error: 'invalid JSON body' });
      return;
    }
    requests.push({ method: request.method ?? 'GET', path, headers: request.headers, body, at: Date.now() });

    const failure = takeFailure(path);
    if (failure && (await fail(failure, response))) return;

    if (path === '/api/version' && request.method === 'GET')
      return sendJson(response, 200, { version: '0.13.0' });
    if (path === '/api/tags' && request.method === 'GET') {
      return sendJson(response, 200, {
        models: models.map((name) => ({
          name,
          model: name,
          modified_at: '2026-11-01T00:00:00Z',
          size: 1_000_000,
          digest: 'sha256:fake',
          details: { format: 'gguf', family: 'fake', parameter_size: '1B', quantization_level: 'Q4_K_M' },
        })),
      });
    }
    if (path === '/api/show' && request.method === 'POST') {
      const model = String((body as { model?: unknown } | undefined)?.model ?? '');
      if (!serves(model)) return sendJson(response, 404, { error: `model '${model}' not found` });
      const embedding = /embed/i.test(model);
      return sendJson(response, 200, {
        details: { format: 'gguf', family: 'fake' },
        capabilities: embedding
          ? ['embedding']
          : options.refuseTools
            ? ['completion']
            : ['completion', 'tools'],
      });
    }
    if (path === '/api/embed' && request.method === 'POST')
      return embed(body as Record<string, unknown>, response);
    if (path === '/api/chat' && request.method === 'POST')
      return answerChat(body as FakeChatRequest, response);
    sendJson(response, 404, { error: `404 page not found: ${path}` });
  }

  function embed(body: Record<string, unknown>, response: ServerResponse): void {
    const model = String(body.model ?? '');
    if (!serves(model)) {
      sendJson(response, 404, { error: `model "${model}" not found, try pulling it first` });
      return;
    }
    const input = body.input;
    const texts = Array.isArray(input) ? input.map(String) : [String(input ?? '')];
    const dimension = typeof body.dimensions === 'number' ? body.dimensions : embedDimension;
    sendJson(response, 200, {
      model,
      embeddings: texts.map((text) => fakeEmbedding(text, dimension)),
      total_duration: 1000,
      load_duration: 0,
      prompt_eval_count: texts.reduce((sum, text) => sum + approximateTokens(text), 0),
    });
  }

  async function answerChat(body: FakeChatRequest, response: ServerResponse): Promise<void> {
    if (!serves(body.model)) {
      return sendJson(response, 404, { error: `model "${body.model}" not found, try pulling it first` });
    }
    if (options.refuseTools && body.tools?.length) {
      return sendJson(response, 400, {
        error: `registry.ollama.ai/library/${body.model} does not support tools`,
      });
    }
    const index = chatIndex++;
    chatsInFlight++;
    maxChats = Math.max(maxChats, chatsInFlight);
    try {
      const reply = await chat(body, index);
      if ('fail' in reply) {
        await fail(reply.fail, response);
        return;
      }
      if (reply.delayMs) await sleep(reply.delayMs);
      const promptTokens = body.messages.reduce(
        (sum, message) => sum + approximateTokens(message.content ?? ''),
        0,
      );
      const content = reply.content ?? '';
      const message: OllamaMessage = { role: 'assistant', content };
      if (reply.toolCalls?.length) {
        message.tool_calls = reply.toolCalls.map((call) => ({
          function: { name: call.name, arguments: call.arguments },
        }));
      }
      const final = {
        model: body.model,
        created_at: new Date().toISOString(),
        done: true,
        done_reason: 'stop',
        total_duration: 1000,
        load_duration: 0,
        prompt_eval_count: promptTokens,
        prompt_eval_duration: 1,
        eval_count: approximateTokens(content),
        eval_duration: 1,
      };
      if (body.stream === false) {
        return sendJson(response, 200, { ...final, message });
      }
      response.writeHead(200, { 'content-type': 'application/x-ndjson' });
      const tokenDelayMs = reply.tokenDelayMs ?? options.tokenDelayMs;
      const pieces = tokenDelayMs === undefined ? splitIntoPieces(content) : splitIntoWords(content);
      for (const [position, piece] of pieces.entries()) {
        if (tokenDelayMs) await sleep(tokenDelayMs);
        if (response.destroyed) return;
        const chunk: OllamaMessage = { role: 'assistant', content: piece };
        if (position === pieces.length - 1 && message.tool_calls) chunk.tool_calls = message.tool_calls;
        response.write(
          `${JSON.stringify({ model: body.model, created_at: new Date().toISOString(), message: chunk, done: false })}\n`,
        );
      }
      response.end(`${JSON.stringify({ ...final, message: { role: 'assistant', content: '' } })}\n`);
    } finally {
      chatsInFlight--;
    }
  }

  /** Sends a failure; returns true when the response is finished. */
  async function fail(kind: FailureKind, response: ServerResponse): Promise<boolean> {
    switch (kind) {
      case 'http-500':
        sendJson(response, 500, { error: 'fake ollama: internal error' });
        return true;
      case 'rate-limit':
        response.setHeader('retry-after', options.retryAfter ?? '0');
        sendJson(response, 429, { error: 'fake ollama: too many requests' });
        return true;
      case 'http-404-model':
        sendJson(response, 404, { error: 'model not found, try pulling it first' });
        return true;
      case 'malformed':
        response.writeHead(200, { 'content-type': 'application/json' });
        response.end('{"model": "oops", "message": {"role": "assist');
        return true;
      case 'disconnect':
        response.socket?.destroy();
        return true;
      case 'timeout':
        // Never answer; the client's own timeout or abort ends it, or close() does.
        await new Promise<void>((resolve) => response.on('close', () => resolve()));
        return true;
    }
  }

  const port = await listenLocally(server, options.port);

  return {
    url: `http://127.0.0.1:${port}`,
    port,
    requests,
    chatRequests: () =>
      requests.filter((entry) => entry.path === '/api/chat').map((entry) => entry.body as FakeChatRequest),
    embedRequests: () =>
      requests
        .filter((entry) => entry.path === '/api/embed')
        .map((entry) => entry.body as { model: string; input: string | string[]; dimensions?: number }),
    setChat: (script) => {
      chat = script;
    },
    setModels: (next) => {
      models = next;
    },
    failNext: (kind, count = 1, path) => {
      for (let i = 0; i < count; i++) pendingFailures.push({ kind, path });
    },
    failAlways: (kind) => {
      permanentFailure = kind;
    },
    inFlight: () => inFlight,
    maxConcurrentChats: () => maxChats,
    close: () => closeServer(server),
  };
}

function splitIntoPieces(content: string): string[] {
  if (content.length === 0) return [''];
  const pieces: string[] = [];
  const size = Math.max(1, Math.ceil(content.length / 3));
  for (let start = 0; start < content.length; start += size) pieces.push(content.slice(start, start + size));
  return pieces;
}

/** Words with their trailing space, as a model streams them. */
export function splitIntoWords(content: string): string[] {
  return content.length === 0 ? [''] : (content.match(/\s*\S+\s*/g) ?? [content]);
}

function sleep(milliseconds: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, milliseconds));
}

/** Helpers for routing scripted replies by what a request looks like. */
export function systemPrompt(request: FakeChatRequest): string {
  return request.messages
    .filter((message) => message.role === 'system')
    .map((message) => message.content)
    .join('\n');
}

export function lastUserMessage(request: FakeChatRequest): string {
  const users = request.messages.filter((message) => message.role === 'user');
  return users[users.length - 1]?.content ?? '';
}

export function toolNames(request: FakeChatRequest): string[] {
  return (request.tools ?? []).map((tool) => tool.function.name);
}
