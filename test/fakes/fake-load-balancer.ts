/**
 * Slack in HTTP mode in front of several replicas: Slack posts every event to one public URL and a
 * load balancer hands each request to one replica. This stands in for both.
 *
 * The load balancer hands a signed request (see fake-slack-events.ts) to one named replica endpoint,
 * at random unless told; a replica it cannot reach or that drops the connection (refused, reset) is
 * answered for with HTTP 502, as nginx or a cloud load balancer does. It never resends a request to
 * another replica itself: that is left to Slack, the harder case.
 *
 * `deliver` is Slack's side, as its Events API documentation describes it: a delivery fails when the
 * response is not 2xx or takes longer than 3 s; a failed delivery is retried up to 3 times ("nearly
 * immediately", after 1 minute, after 5 minutes) with `x-slack-retry-num` 1–3 and
 * `x-slack-retry-reason` (`http_timeout`, `http_error` …), unless the response said
 * `x-slack-no-retry: 1`. Slack does not wait for a response it gave up on. A retry goes to another
 * replica than the failed attempt (as a load balancer that takes a failing upstream out does).
 */
import { request as httpRequest } from 'node:http';
import {
  type Delivery,
  type DeliveryOptions,
  type SlackRetryReason,
  signedHeaders,
} from './fake-slack-events.ts';

/** One request through the load balancer to one replica. */
export interface BalancedDelivery extends Delivery {
  /** The replica endpoint that took the request (its name). */
  target: string;
  retryNum?: number;
  retryReason?: SlackRetryReason;
  /** The replica could not be reached or dropped the request (`ECONNREFUSED`, `ECONNRESET` …): Slack got 502. */
  upstreamError?: string;
  /** Slack stopped waiting for the response (`status` stays 0 until it arrives, if it does). */
  timedOut?: boolean;
  /** The response asked Slack not to retry (`x-slack-no-retry: 1`). */
  noRetry?: boolean;
}

export interface BalancedDeliveryOptions extends DeliveryOptions {
  /** Deliver to this endpoint (a name); default: one at random. */
  target?: string;
  /** Any endpoint but this one when there is another. */
  avoid?: string;
  /** Called each time a request (the first, then each retry) is written to a replica's connection (not yet read). */
  onForwarded?: (target: string) => void;
}

/** Slack's delivery of one event: every attempt, the first one first. */
export interface SlackDelivery {
  attempts: BalancedDelivery[];
  /** Whether an attempt got a 2xx response in time. */
  acknowledged: boolean;
  /** The replica that acknowledged it. */
  replica: string | undefined;
}

export interface FakeLoadBalancerOptions {
  /** The replica endpoints by name (more can be set later). */
  endpoints?: Record<string, string>;
  /** Picks the endpoint of a request (default Math.random): a number in [0, 1). */
  random?: () => number;
  /** How long Slack waits for a response before it counts the delivery as failed (default 3 s). */
  responseTimeoutMs?: number;
  /** Slack's waits before its retries 1, 2 and 3 (default: none, 1 minute, 5 minutes). */
  retryDelaysMs?: readonly [number, number, number];
  /** How Slack waits before a retry (default: a timer); tests may record the delays instead. */
  wait?: (ms: number) => Promise<void>;
}

export interface FakeLoadBalancer {
  /** The endpoints by name, in the order they were first set. */
  readonly endpoints: ReadonlyMap<string, string>;
  /** Sets (or replaces, after a restart on another port) the URL of a replica's endpoint. */
  setEndpoint(name: string, url: string): void;
  /** Posts an Events API envelope to one replica, once (no retry). */
  event(envelope: Record<string, unknown>, options?: BalancedDeliveryOptions): Promise<BalancedDelivery>;
  /** Slack's retry of an event: the same envelope with `x-slack-retry-num`, to another replica than `previous`. */
  retry(
    envelope: Record<string, unknown>,
    previous: BalancedDelivery,
    retryNum?: number,
  ): Promise<BalancedDelivery>;
  /** Slack delivering an event: the first attempt (or the retry `retryNum`), then its retries until one succeeds. */
  deliver(envelope: Record<string, unknown>, options?: BalancedDeliveryOptions): Promise<SlackDelivery>;
  /** Every attempt so far, oldest first. */
  readonly deliveries: readonly BalancedDelivery[];
}

/** Slack retries a failed delivery at most this many times. */
export const maxSlackRetries = 3;
const defaultRetryDelaysMs = [0, 60_000, 300_000] as const;

export function createFakeLoadBalancer(
  signingSecret: string,
  options: FakeLoadBalancerOptions = {},
): FakeLoadBalancer {
  const endpoints = new Map(Object.entries(options.endpoints ?? {}));
  const random = options.random ?? Math.random;
  const responseTimeoutMs = options.responseTimeoutMs ?? 3_000;
  const retryDelaysMs = options.retryDelaysMs ?? defaultRetryDelaysMs;
  const wait = options.wait ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)));
  const deliveries: BalancedDelivery[] = [];

  const pick = ({ target, avoid }: BalancedDeliveryOptions): string => {
    if (target !== undefined) return target;
    const names = [...endpoints.keys()];
    const candidates = names.filter((name) => name !== avoid || names.length === 1);
    const chosen = candidates[Math.floor(random() * candidates.length)];
    if (chosen === undefined) throw new Error('fake load balancer: no replica endpoint');
    return chosen;
  };

  const event = async (
    envelope: Record<string, unknown>,
    options: BalancedDeliveryOptions = {},
  ): Promise<BalancedDelivery> => {
    const target = pick(options);
    const url = endpoints.get(target);
    if (!url) throw new Error(`fake load balancer: no endpoint ${target}`);
    const { target: _target, avoid: _avoid, onForwarded, ...signing } = options;
    const body = JSON.stringify(envelope);
    const attempt: BalancedDelivery = {
      target,
      status: 0,
      body: '',
      ...(signing.retryNum !== undefined
        ? { retryNum: signing.retryNum, retryReason: signing.retryReason ?? 'http_timeout' }
        : {}),
    };
    deliveries.push(attempt);
    const answered = forward(url, body, signedHeaders(signingSecret, body, 'application/json', signing), () =>
      onForwarded?.(target),
    ).then((outcome) => {
      Object.assign(attempt, outcome);
    });
    let timer: NodeJS.Timeout | undefined;
    const gaveUp = new Promise<'timeout'>((resolve) => {
      timer = setTimeout(() => resolve('timeout'), responseTimeoutMs);
    });
    const first = await Promise.race([answered, gaveUp]);
    clearTimeout(timer);
    if (first === 'timeout') attempt.timedOut = true;
    return attempt;
  };

  const deliver = async (
    envelope: Record<string, unknown>,
    options: BalancedDeliveryOptions = {},
  ): Promise<SlackDelivery> => {
    const attempts: BalancedDelivery[] = [];
    let next: BalancedDeliveryOptions = options;
    for (;;) {
      const attempt = await event(envelope, next);
      attempts.push(attempt);
      const acknowledged = !attempt.timedOut && attempt.status >= 200 && attempt.status < 300;
      if (acknowledged) return { attempts, acknowledged, replica: attempt.target };
      const retryNum = (attempt.retryNum ?? 0) + 1;
      if (attempt.noRetry || retryNum > maxSlackRetries) {
        return { attempts, acknowledged, replica: undefined };
      }
      await wait(retryDelaysMs[retryNum - 1] ?? 0);
      const { target: _target, avoid: _avoid, retryNum: _retryNum, retryReason: _reason, ...rest } = next;
      next = {
        ...rest,
        retryNum,
        retryReason: attempt.timedOut ? 'http_timeout' : 'http_error',
        avoid: attempt.target,
      };
    }
  };

  return {
    endpoints,
    setEndpoint: (name, url) => {
      endpoints.set(name, url);
    },
    event,
    retry: (envelope, previous, retryNum = 1) => event(envelope, { retryNum, avoid: previous.target }),
    deliver,
    deliveries,
  };
}

/**
 * The load balancer's hop to a replica: one fresh connection per request (no keep-alive connection
 * that the replica may have just closed), and 502 when the replica cannot be reached or drops it.
 */
function forward(
  url: string,
  body: string,
  headers: Record<string, string>,
  onForwarded: () => void,
): Promise<Pick<BalancedDelivery, 'status' | 'body' | 'upstreamError' | 'noRetry'>> {
  return new Promise((resolve) => {
    const request = httpRequest(
      url,
      { method: 'POST', agent: false, headers: { ...headers, 'content-length': Buffer.byteLength(body) } },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () =>
          resolve({
            status: response.statusCode ?? 0,
            body: Buffer.concat(chunks).toString('utf8'),
            ...(response.headers['x-slack-no-retry'] === '1' ? { noRetry: true } : {}),
          }),
        );
        response.on('error', (error) => resolve(badGateway(error)));
      },
    );
    request.on('error', (error) => resolve(badGateway(error)));
    request.on('finish', onForwarded);
    request.end(body);
  });
}

function badGateway(error: Error): Pick<BalancedDelivery, 'status' | 'body' | 'upstreamError'> {
  const code = (error as NodeJS.ErrnoException).code ?? error.message;
  return { status: 502, body: 'Bad Gateway', upstreamError: code };
}
