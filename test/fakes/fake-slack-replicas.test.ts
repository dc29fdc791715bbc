/**
 * The fake Slack behaves like Slack with several replicas: Socket Mode takes every connection of the
 * app up to ten and sends each envelope to ONE of them (a redelivery may go to another); in HTTP mode
 * a load balancer hands each signed request to one replica.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { afterEach, describe, expect, it, vi } from 'vitest';
import WebSocket from 'ws';
import { closedPort } from '../support/free-port.ts';
import { createFakeLoadBalancer } from './fake-load-balancer.ts';
import { type FakeSlackApi, maxSocketConnections, startFakeSlackApi } from './fake-slack-api.ts';
import { eventEnvelope, sign } from './fake-slack-events.ts';
import { closeServer, listenLocally, readBody } from './http-helpers.ts';

interface AppSocket {
  socket: WebSocket;
  /** Envelopes this connection received (not hello / disconnect). */
  envelopes: Array<{ envelope_id: string; retry_attempt?: number; payload: { event_id?: string } }>;
  /** Every message, as received. */
  messages: Array<Record<string, unknown>>;
}

/** Opens a Socket Mode connection as an app (replica) does, acknowledging every envelope. */
async function connectApp(slack: FakeSlackApi, replica?: string, acknowledge = true): Promise<AppSocket> {
  const apiUrl = replica ? slack.apiUrlFor(replica) : slack.apiUrl;
  const opened = (await (
    await fetch(`${apiUrl}apps.connections.open`, {
      method: 'POST',
      headers: { authorization: `Bearer ${slack.appToken}` },
    })
  ).json()) as { ok: boolean; url: string };
  expect(opened.ok).toBe(true);
  const socket = new WebSocket(opened.url);
  const app: AppSocket = { socket, envelopes: [], messages: [] };
  socket.on('message', (data) => {
    const message = JSON.parse(String(data)) as Record<string, unknown>;
    app.messages.push(message);
    if (typeof message.envelope_id === 'string') {
      app.envelopes.push(message as unknown as AppSocket['envelopes'][number]);
      if (acknowledge) socket.send(JSON.stringify({ envelope_id: message.envelope_id }));
    }
  });
  await new Promise<void>((resolve, reject) => {
    socket.once('message', () => resolve());
    socket.once('error', reject);
  });
  return app;
}

const mention = (slack: FakeSlackApi, text: string) =>
  eventEnvelope(
    'app_mention',
    { team: slack.teamId, channel: 'C1', user: 'U1', text: `<@${slack.botUserId}> ${text}` },
    slack.botUserId,
  );

describe('fake Slack Socket Mode with several connections', () => {
  let slack: FakeSlackApi | undefined;
  const apps: AppSocket[] = [];
  afterEach(async () => {
    for (const app of apps.splice(0)) app.socket.terminate();
    await slack?.close();
    slack = undefined;
  });

  it('sends each envelope to exactly one open connection, spread over all of them', async () => {
    slack = await startFakeSlackApi();
    for (const replica of ['a', 'b', 'c']) apps.push(await connectApp(slack, replica));
    expect(slack.connections().map((connection) => connection.replica)).toEqual(['a', 'b', 'c']);
    expect(apps.map((app) => app.messages[0])).toEqual([
      { type: 'hello', num_connections: 1 },
      { type: 'hello', num_connections: 2 },
      { type: 'hello', num_connections: 3 },
    ]);

    const deliveries = [];
    for (let index = 0; index < 60; index++) {
      deliveries.push(await slack.deliverEnvelope(mention(slack, `q${index}`), { type: 'events_api' }));
    }
    const received = apps.flatMap((app) => app.envelopes.map((envelope) => envelope.envelope_id));
    expect(received.sort()).toEqual(deliveries.map((delivery) => delivery.envelopeId).sort());
    // Each replica got some (the chance that one of three got none of 60 is below 1e-10).
    expect(apps.map((app) => app.envelopes.length > 0)).toEqual([true, true, true]);
    for (const [index, app] of apps.entries()) {
      const replica = ['a', 'b', 'c'][index];
      const mine = deliveries
        .filter((delivery) => delivery.replica === replica)
        .map((each) => each.envelopeId);
      expect(app.envelopes.map((envelope) => envelope.envelope_id)).toEqual(mine);
    }
  });

  it('sends a redelivery to another connection when asked to avoid the first, and to a chosen one', async () => {
    slack = await startFakeSlackApi();
    for (const replica of ['a', 'b']) apps.push(await connectApp(slack, replica));
    const envelope = mention(slack, 'retried');
    const first = await slack.deliverEnvelope(envelope, { type: 'events_api' });
    const retry = await slack.deliverEnvelope(envelope, {
      type: 'events_api',
      retryAttempt: 1,
      avoid: first.connection,
    });
    expect(retry.connection).not.toBe(first.connection);
    const target = slack.connections()[1]!;
    const chosen = await slack.deliverEnvelope(mention(slack, 'to b'), {
      type: 'events_api',
      connection: target.id,
    });
    expect(chosen.replica).toBe('b');
    const retried = apps.flatMap((app) => app.envelopes).filter((each) => each.retry_attempt === 1);
    expect(retried.map((each) => each.payload.event_id)).toEqual([envelope.event_id]);
  });

  it('never sends to a closed connection, and refuses the eleventh like Slack (too_many_websockets)', async () => {
    slack = await startFakeSlackApi();
    for (let index = 0; index < maxSocketConnections; index++)
      apps.push(await connectApp(slack, `r${index}`));
    const eleventh = await connectApp(slack, 'r10');
    apps.push(eleventh);
    await new Promise<void>((resolve) => {
      if (eleventh.socket.readyState === WebSocket.CLOSED) resolve();
      else eleventh.socket.once('close', () => resolve());
    });
    expect(eleventh.messages).toEqual([{ type: 'disconnect', reason: 'too_many_websockets' }]);
    expect(slack.socketCount()).toBe(maxSocketConnections);

    for (const app of apps.slice(1, maxSocketConnections)) app.socket.close();
    await slack.waitFor(() => slack?.socketCount() === 1, 5_000, 'one connection left');
    for (let index = 0; index < 5; index++) {
      const delivery = await slack.deliverEnvelope(mention(slack, `q${index}`), { type: 'events_api' });
      expect(delivery.replica).toBe('r0');
    }
    await expect(
      slack.deliverEnvelope(mention(slack, 'x'), { type: 'events_api', connection: 'connection-2' }),
    ).rejects.toThrow(/not open/);
  });

  it('fails an envelope at once when its connection closes without acknowledging it', async () => {
    slack = await startFakeSlackApi({ ackTimeoutMs: 60_000 });
    const silent = await connectApp(slack, 'silent', false);
    apps.push(silent);
    const outcome = slack.deliverEnvelope(mention(slack, 'lost'), { type: 'events_api' }).then(
      () => 'acknowledged',
      (error: unknown) => String(error),
    );
    await vi.waitFor(() => expect(silent.envelopes).toHaveLength(1));
    silent.socket.terminate();
    expect(await outcome).toMatch(/connection-1 closed before acknowledging/);
  });

  it('labels the Web API calls of a replica that uses its own API URL', async () => {
    slack = await startFakeSlackApi();
    await fetch(`${slack.apiUrlFor('b')}chat.postMessage`, {
      method: 'POST',
      headers: { authorization: `Bearer ${slack.botToken}`, 'content-type': 'application/json' },
      body: JSON.stringify({ channel: 'C1', text: 'from b' }),
    });
    await fetch(`${slack.apiUrl}chat.postMessage`, {
      method: 'POST',
      headers: { authorization: `Bearer ${slack.botToken}`, 'content-type': 'application/json' },
      body: JSON.stringify({ channel: 'C1', text: 'unlabelled' }),
    });
    expect(slack.callsTo('chat.postMessage').map((call) => [call.body.text, call.replica])).toEqual([
      ['from b', 'b'],
      ['unlabelled', undefined],
    ]);
    expect(slack.messages('C1').map((message) => message.text)).toEqual(['from b', 'unlabelled']);
  });
});

describe('fake load balancer in front of HTTP replicas', () => {
  const secret = 'balancer-secret';
  interface Received {
    retry: string | undefined;
    reason: string | undefined;
    signed: boolean;
    eventId: string;
  }
  /** Replica endpoints that log what they receive and answer with `answer` (default: 200). */
  const startReplicas = async (
    names: string[],
    answer: (name: string, response: ServerResponse) => void = (_name, response) => response.end(''),
  ) => {
    const received = new Map<string, Received[]>(names.map((name) => [name, []]));
    const servers = names.map((name) =>
      createServer((request: IncomingMessage, response) => {
        readBody(request).then((body) => {
          const timestamp = Number(request.headers['x-slack-request-timestamp']);
          received.get(name)?.push({
            retry: request.headers['x-slack-retry-num'] as string | undefined,
            reason: request.headers['x-slack-retry-reason'] as string | undefined,
            signed: request.headers['x-slack-signature'] === sign(secret, timestamp, body.toString('utf8')),
            eventId: (JSON.parse(body.toString('utf8')) as { event_id: string }).event_id,
          });
          answer(name, response);
        }, response.destroy.bind(response));
      }),
    );
    const ports = await Promise.all(servers.map((server) => listenLocally(server)));
    const endpoints = Object.fromEntries(
      names.map((name, index) => [name, `http://127.0.0.1:${ports[index]}/slack/events`]),
    );
    return {
      received,
      endpoints,
      close: () => Promise.all(servers.map((server) => closeServer(server))),
    };
  };
  const envelope = () =>
    eventEnvelope('app_mention', { team: 'T1', channel: 'C1', user: 'U1', text: 'hi' }, 'UB');
  const cleanups: Array<() => Promise<unknown>> = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0)) await cleanup();
  });

  it('posts each signed event to one replica, and a retry (x-slack-retry-num) to another', async () => {
    const replicas = await startReplicas(['a', 'b']);
    cleanups.push(replicas.close);
    const balancer = createFakeLoadBalancer(secret, { endpoints: replicas.endpoints });
    const sent = envelope();
    const first = await balancer.event(sent);
    const retry = await balancer.retry(sent, first);
    expect(first.status).toBe(200);
    expect(retry.target).toBe(first.target === 'a' ? 'b' : 'a');
    expect(replicas.received.get(first.target)).toEqual([
      { retry: undefined, reason: undefined, signed: true, eventId: sent.event_id },
    ]);
    expect(replicas.received.get(retry.target)).toEqual([
      { retry: '1', reason: 'http_timeout', signed: true, eventId: sent.event_id },
    ]);
    for (let index = 0; index < 40; index++) await balancer.event(sent);
    // Spread over both (the chance that one got none of 40 is about 2e-12).
    expect([...replicas.received.values()].map((log) => log.length > 1)).toEqual([true, true]);
    expect(balancer.deliveries).toHaveLength(42);
  });

  it('answers 502 for a replica it cannot reach; Slack retries at once on another with reason http_error', async () => {
    const replicas = await startReplicas(['b']);
    cleanups.push(replicas.close);
    const delays: number[] = [];
    const balancer = createFakeLoadBalancer(secret, {
      endpoints: { a: `http://127.0.0.1:${await closedPort()}/slack/events`, ...replicas.endpoints },
      wait: async (ms) => {
        delays.push(ms);
      },
    });
    const sent = envelope();
    const delivery = await balancer.deliver(sent, { target: 'a' });
    expect(delivery).toMatchObject({ acknowledged: true, replica: 'b' });
    expect(
      delivery.attempts.map(({ target, status, upstreamError, retryNum, retryReason }) => ({
        target,
        status,
        upstreamError,
        retryNum,
        retryReason,
      })),
    ).toEqual([
      {
        target: 'a',
        status: 502,
        upstreamError: 'ECONNREFUSED',
        retryNum: undefined,
        retryReason: undefined,
      },
      { target: 'b', status: 200, upstreamError: undefined, retryNum: 1, retryReason: 'http_error' },
    ]);
    expect(delays).toEqual([0]);
    expect(replicas.received.get('b')).toEqual([
      { retry: '1', reason: 'http_error', signed: true, eventId: sent.event_id },
    ]);
  });

  it('retries a failing delivery 3 times (at once, after 1 and 5 minutes) and stops at x-slack-no-retry', async () => {
    const replicas = await startReplicas(['a', 'b'], (name, response) => {
      // b refuses every delivery; a asks not to be retried.
      response.writeHead(name === 'a' ? 503 : 500, name === 'a' ? { 'x-slack-no-retry': '1' } : {});
      response.end('');
    });
    cleanups.push(replicas.close);
    const delays: number[] = [];
    const balancer = createFakeLoadBalancer(secret, {
      endpoints: replicas.endpoints,
      wait: async (ms) => {
        delays.push(ms);
      },
    });
    const refused = await balancer.deliver(envelope(), { target: 'b' });
    expect(refused.acknowledged).toBe(false);
    // Two replicas, each retry to the other: b, a (which says no more).
    expect(refused.attempts.map((attempt) => [attempt.target, attempt.status, attempt.retryNum])).toEqual([
      ['b', 500, undefined],
      ['a', 503, 1],
    ]);

    const onlyB = createFakeLoadBalancer(secret, {
      endpoints: { b: replicas.endpoints.b! },
      wait: async (ms) => {
        delays.push(ms);
      },
    });
    delays.length = 0;
    const failed = await onlyB.deliver(envelope());
    expect(failed.acknowledged).toBe(false);
    expect(failed.attempts.map((attempt) => [attempt.retryNum, attempt.retryReason])).toEqual([
      [undefined, undefined],
      [1, 'http_error'],
      [2, 'http_error'],
      [3, 'http_error'],
    ]);
    expect(delays).toEqual([0, 60_000, 300_000]);
  });

  it('counts a response slower than its timeout as failed and retries with reason http_timeout', async () => {
    const hanging: ServerResponse[] = [];
    const replicas = await startReplicas(['a', 'b'], (name, response) => {
      if (name === 'a') hanging.push(response);
      else response.end('');
    });
    cleanups.push(async () => {
      for (const response of hanging) response.end('');
      await replicas.close();
    });
    const balancer = createFakeLoadBalancer(secret, {
      endpoints: replicas.endpoints,
      // a never answers; b answers well within this even on a loaded machine.
      responseTimeoutMs: 1_000,
      wait: async () => {},
    });
    const delivery = await balancer.deliver(envelope(), { target: 'a' });
    expect(delivery.replica).toBe('b');
    expect(
      delivery.attempts.map((attempt) => [attempt.target, attempt.timedOut, attempt.retryReason]),
    ).toEqual([
      ['a', true, undefined],
      ['b', undefined, 'http_timeout'],
    ]);
  });
});
