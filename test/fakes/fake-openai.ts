/**
 * A fake OpenAI-compatible server (as vLLM, llama.cpp server, LM Studio and hosted APIs speak it) on
 * the real wire format the `openai` / `@langchain/openai` clients use: `/v1/chat/completions` with
 * `tools` / `tool_calls`, SSE streaming (`data: …` chunks, tool-call deltas, usage, `[DONE]`) and
 * `response_format` json_schema (recorded; refusable with 400 like servers without it),
 * `/v1/embeddings` (float or base64), `/v1/models`, and error and rate-limit answers.
 * Chat replies are scripted with the same `ChatScript` as the fake Ollama: each request is shown to
 * the script in Ollama's shape (roles, text content, tool calls with parsed arguments, `format` =
 * the JSON schema), so the role scripts of the graph tests work on both fakes.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import {
  type ChatScript,
  type FailureKind,
  type FakeChatRequest,
  fakeEmbedding,
  type OllamaMessage,
  splitIntoWords,
} from './fake-ollama.ts';
import { closeServer, listenLocally, readBody, sendJson } from './http-helpers.ts';

export interface OpenAiToolCall {
  id: string;
  type: 'function';
  function: { name: string; arguments: string };
}

export interface OpenAiMessage {
  role: 'system' | 'developer' | 'user' | 'assistant' | 'tool';
  content: string | null | Array<{ type: string; text?: string }>;
  tool_calls?: OpenAiToolCall[];
  tool_call_id?: string;
}

export interface OpenAiChatRequest {
  model: string;
  messages: OpenAiMessage[];
  tools?: Array<{ type: 'function'; function: { name: string; description?: string; parameters?: unknown } }>;
  response_format?: { type: string; json_schema?: { name: string; schema?: unknown; strict?: boolean } };
  stream?: boolean;
  stream_options?: { include_usage?: boolean };
  temperature?: number;
  seed?: number;
}

export interface FakeOpenAiOptions {
  chat?: ChatScript;
  /** Models `/v1/models` lists and the endpoints accept (default: fake-chat, fake-embed). */
  models?: string[];
  /** Dimension of `/v1/embeddings` vectors (default 64). */
  embedDimension?: number;
  /** When set, every request must carry `Authorization: Bearer <apiKey>` (else 401). */
  apiKey?: string;
  /** Answer 400 to requests with `tools` (a server without tool calling). */
  refuseTools?: boolean;
  /** Answer 400 to requests with `response_format` json_schema (a server without structured output). */
  refuseJsonSchema?: boolean;
  /** Delay before each streamed word (default 0). */
  tokenDelayMs?: number;
  /** `Retry-After` of a `rate-limit` failure, in seconds (default "0"). */
  retryAfter?: string;
}

export interface RecordedOpenAiRequest {
  method: string;
  path: string;
  headers: IncomingMessage['headers'];
  body: unknown;
}

export interface FakeOpenAi {
  /** The API base, ending in /v1, e.g. http://127.0.0.1:43123/v1 */
  url: string;
  /** The server root without /v1. */
  root: string;
  requests: RecordedOpenAiRequest[];
  /** Chat requests as sent on the wire. */
  chatRequests(): OpenAiChatRequest[];
  embedRequests(): Array<{ model: string; input: string | string[]; encoding_format?: string }>;
  setChat(script: ChatScript): void;
  setModels(models: string[]): void;
  refuse(features: { tools?: boolean; jsonSchema?: boolean }): void;
  /** The next `count` requests to chat or embeddings (or `path`) fail this way. */
  failNext(kind: FailureKind, count?: number, path?: string): void;
  failAlways(kind: FailureKind | undefined): void;
  close(): Promise<void>;
}

export const defaultOpenAiModels = ['fake-chat', 'fake-embed'];

const chatPath = '/v1/chat/completions';
const embeddingsPath = '/v1/embeddings';

export async function startFakeOpenAi(options: FakeOpenAiOptions = {}): Promise<FakeOpenAi> {
  let chat: ChatScript = options.chat ?? (() => ({ content: 'OK' }));
  let models = options.models ?? defaultOpenAiModels;
  let refuseTools = options.refuseTools ?? false;
  let refuseJsonSchema = options.refuseJsonSchema ?? false;
  const embedDimension = options.embedDimension ?? 64;
  const requests: RecordedOpenAiRequest[] = [];
  const pendingFailures: Array<{ kind: FailureKind; path: string | undefined }> = [];
  let permanentFailure: FailureKind | undefined;
  let chatIndex = 0;
  let callIds = 0;

  const takeFailure = (path: string): FailureKind | undefined => {
    if (permanentFailure) return permanentFailure;
    const position = pendingFailures.findIndex(
      (failure) =>
        failure.path === path ||
        (failure.path === undefined && (path === chatPath || path === embeddingsPath)),
    );
    if (position < 0) return undefined;
    return pendingFailures.splice(position, 1)[0]?.kind;
  };

  const server: Server = createServer((request, response) => {
    handle(request, response).catch((error: unknown) => {
      if (!response.headersSent) sendError(response, 500, String(error), 'server_error');
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
      return sendError(response, 400, 'We could not parse the JSON body of your request.');
    }
    requests.push({ method: request.method ?? 'GET', path, headers: request.headers, body });
    if (options.apiKey !== undefined && request.headers.authorization !== `Bearer ${options.apiKey}`) {
      return sendError(
        response,
        401,
        'Incorrect API key provided.',
        'invalid_request_error',
        'invalid_api_key',
      );
    }
    const failure = takeFailure(path);
    if (failure && (await fail(failure, response))) return;

    if (path === '/v1/models' && request.method === 'GET') {
      return sendJson(response, 200, {
        object: 'list',
        data: models.map((id) => ({ id, object: 'model', created: 1_764_547_200, owned_by: 'fake' })),
      });
    }
    if (path === embeddingsPath && request.method === 'POST') {
      embed(body as Record<string, unknown>, response);
      return;
    }
    if (path === chatPath && request.method === 'POST')
      return answerChat(body as OpenAiChatRequest, response);
    sendError(response, 404, `Not found: ${path}`);
  }

  function modelMissing(response: ServerResponse, model: string): void {
    sendError(
      response,
      404,
      `The model \`${model}\` does not exist.`,
      'invalid_request_error',
      'model_not_found',
    );
  }

  function embed(body: Record<string, unknown>, response: ServerResponse): void {
    const model = String(body.model ?? '');
    if (!models.includes(model)) {
      modelMissing(response, model);
      return;
    }
    const input = body.input;
    const texts = Array.isArray(input) ? input.map(String) : [String(input ?? '')];
    const base64 = body.encoding_format === 'base64';
    sendJson(response, 200, {
      object: 'list',
      model,
      data: texts.map((text, index) => {
        const vector = fakeEmbedding(text, embedDimension);
        return {
          object: 'embedding',
          index,
          embedding: base64 ? Buffer.from(new Float32Array(vector).buffer).toString('base64') : vector,
        };
      }),
      usage: { prompt_tokens: texts.length, total_tokens: texts.length },
    });
  }

  async function answerChat(body: OpenAiChatRequest, response: ServerResponse): Promise<void> {
    if (!models.includes(body.model)) return modelMissing(response, body.model);
    if (refuseTools && body.tools?.length) {
      return sendError(
        response,
        400,
        '"auto" tool choice requires --enable-auto-tool-choice to be set',
        'BadRequestError',
      );
    }
    if (refuseJsonSchema && body.response_format?.type === 'json_schema') {
      return sendError(
        response,
        400,
        'response_format of type json_schema is not supported',
        'BadRequestError',
      );
    }
    const reply = await chat(toScriptRequest(body), chatIndex++);
    if ('fail' in reply) {
      await fail(reply.fail, response);
      return;
    }
    if (reply.delayMs) await sleep(reply.delayMs);
    const content = reply.content ?? '';
    const toolCalls: OpenAiToolCall[] = (reply.toolCalls ?? []).map((call) => ({
      id: `call_${++callIds}`,
      type: 'function',
      function: { name: call.name, arguments: JSON.stringify(call.arguments) },
    }));
    const promptTokens = body.messages.reduce((sum, message) => sum + tokens(textOf(message.content)), 0);
    const usage = {
      prompt_tokens: promptTokens,
      completion_tokens: tokens(content),
      total_tokens: promptTokens + tokens(content),
    };
    const finishReason = toolCalls.length > 0 ? 'tool_calls' : 'stop';
    const id = `chatcmpl-${chatIndex}`;
    const created = Math.floor(Date.now() / 1000);
    if (!body.stream) {
      return sendJson(response, 200, {
        id,
        object: 'chat.completion',
        created,
        model: body.model,
        choices: [
          {
            index: 0,
            message: {
              role: 'assistant',
              content: toolCalls.length > 0 && content === '' ? null : content,
              ...(toolCalls.length > 0 ? { tool_calls: toolCalls } : {}),
            },
            finish_reason: finishReason,
            logprobs: null,
          },
        ],
        usage,
      });
    }
    response.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    const send = (choices: unknown[], extra: Record<string, unknown> = {}) =>
      response.write(
        `data: ${JSON.stringify({ id, object: 'chat.completion.chunk', created, model: body.model, choices, ...extra })}\n\n`,
      );
    const delta = (value: Record<string, unknown>, finish: string | null = null) =>
      send([{ index: 0, delta: value, finish_reason: finish, logprobs: null }]);
    delta({ role: 'assistant', content: '' });
    const tokenDelayMs = reply.tokenDelayMs ?? options.tokenDelayMs ?? 0;
    for (const word of content.length > 0 ? splitIntoWords(content) : []) {
      if (tokenDelayMs) await sleep(tokenDelayMs);
      if (response.destroyed) return;
      delta({ content: word });
    }
    for (const [index, call] of toolCalls.entries()) {
      delta({
        tool_calls: [
          { index, id: call.id, type: 'function', function: { name: call.function.name, arguments: '' } },
        ],
      });
      const half = Math.ceil(call.function.arguments.length / 2);
      for (const part of [call.function.arguments.slice(0, half), call.function.arguments.slice(half)]) {
        delta({ tool_calls: [{ index, function: { arguments: part } }] });
      }
    }
    delta({}, finishReason);
    if (body.stream_options?.include_usage) send([], { usage });
    response.end('data: [DONE]\n\n');
  }

  /** Sends a failure; returns true when the response is finished. */
  async function fail(kind: FailureKind, response: ServerResponse): Promise<boolean> {
    switch (kind) {
      case 'http-500':
        sendError(response, 500, 'The server had an error while processing your request.', 'server_error');
        return true;
      case 'rate-limit':
        response.setHeader('retry-after', options.retryAfter ?? '0');
        sendError(
          response,
          429,
          'Rate limit reached. Please try again later.',
          'requests',
          'rate_limit_exceeded',
        );
        return true;
      case 'http-404-model':
        modelMissing(response, 'unknown');
        return true;
      case 'malformed':
        response.writeHead(200, { 'content-type': 'application/json' });
        response.end('{"id": "chatcmpl-x", "choices": [{"message": {"role": "assist');
        return true;
      case 'disconnect':
        response.socket?.destroy();
        return true;
      case 'timeout':
        await new Promise<void>((resolve) => response.on('close', () => resolve()));
        return true;
    }
  }

  const port = await listenLocally(server);
  const root = `http://127.0.0.1:${port}`;
  return {
    url: `${root}/v1`,
    root,
    requests,
    chatRequests: () =>
      requests.filter((entry) => entry.path === chatPath).map((entry) => entry.body as OpenAiChatRequest),
    embedRequests: () =>
      requests
        .filter((entry) => entry.path === embeddingsPath)
        .map((entry) => entry.body as { model: string; input: string | string[]; encoding_format?: string }),
    setChat: (script) => {
      chat = script;
    },
    setModels: (next) => {
      models = next;
    },
    refuse: (features) => {
      refuseTools = features.tools ?? refuseTools;
      refuseJsonSchema = features.jsonSchema ?? refuseJsonSchema;
    },
    failNext: (kind, count = 1, path) => {
      for (let i = 0; i < count; i++) pendingFailures.push({ kind, path });
    },
    failAlways: (kind) => {
      permanentFailure = kind;
    },
    close: () => closeServer(server),
  };
}

/** The request in the fake Ollama's shape, for scripts shared by both fakes. */
export function toScriptRequest(body: OpenAiChatRequest): FakeChatRequest {
  return {
    model: body.model,
    messages: body.messages.map((message): OllamaMessage => {
      const converted: OllamaMessage = {
        role: message.role === 'developer' ? 'system' : message.role,
        content: textOf(message.content),
      };
      if (message.tool_calls?.length) {
        converted.tool_calls = message.tool_calls.map((call) => ({
          function: { name: call.function.name, arguments: parseArguments(call.function.arguments) },
        }));
      }
      return converted;
    }),
    ...(body.tools
      ? { tools: body.tools.map((tool) => ({ type: 'function' as const, function: tool.function as never })) }
      : {}),
    ...(body.response_format?.json_schema ? { format: body.response_format.json_schema.schema } : {}),
    options: { temperature: body.temperature, seed: body.seed },
    ...(body.stream === undefined ? {} : { stream: body.stream }),
  };
}

function parseArguments(text: string): Record<string, unknown> {
  try {
    return JSON.parse(text) as Record<string, unknown>;
  } catch {
    return { unparsed: text };
  }
}

function textOf(content: OpenAiMessage['content']): string {
  if (typeof content === 'string') return content;
  if (!content) return '';
  return content.map((part) => part.text ?? '').join('');
}

function tokens(text: string): number {
  return Math.max(1, Math.ceil(text.length / 4));
}

function sendError(
  response: ServerResponse,
  status: number,
  message: string,
  type = 'invalid_request_error',
  code: string | null = null,
): void {
  sendJson(response, status, { error: { message, type, param: null, code } });
}

function sleep(milliseconds: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, milliseconds));
}
