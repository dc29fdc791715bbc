/**
 * The fake Slack behaves like Slack with several replicas: Socket Mode takes every connection of the
 * app up to ten and sends each envelope to ONE of them (a redelivery may go to another); in HTTP mode
 * a load balancer hands each signed request to one replica.
 */
import { createServer, type IncomingMessage } from 'node:http';
import { afterEach, describe, expect, it, vi } from 'vitest';
import WebSocket from 'ws';
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
  it('posts each signed event to one replica, and a retry (x-slack-retry-num) to another', async () => {
    const secret = 'balancer-secret';
    const received: Array<Array<{ retry: string | undefined; signed: boolean; eventId: string }>> = [[], []];
    const servers = received.map((log) =>
      createServer((request: IncomingMessage, response) => {
        readBody(request).then((body) => {
          const timestamp = Number(request.headers['x-slack-request-timestamp']);
          log.push({
            retry: request.headers['x-slack-retry-num'] as string | undefined,
            signed: request.headers['x-slack-signature'] === sign(secret, timestamp, body.toString('utf8')),
            eventId: (JSON.parse(body.toString('utf8')) as { event_id: string }).event_id,
          });
          response.end('');
        }, response.destroy.bind(response));
      }),
    );
    try {
      const ports = await Promise.all(servers.map((server) => listenLocally(server)));
      const balancer = createFakeLoadBalancer(
        ports.map((port) => `http://127.0.0.1:${port}/slack/events`),
        secret,
      );
      const envelope = eventEnvelope(
        'app_mention',
        { team: 'T1', channel: 'C1', user: 'U1', text: 'hi' },
        'UB',
      );
      const first = await balancer.event(envelope);
      const retry = await balancer.retry(envelope, first);
      expect(first.status).toBe(200);
      expect(retry.target).toBe(1 - first.target);
      expect(received[first.target]).toEqual([
        { retry: undefined, signed: true, eventId: envelope.event_id },
      ]);
      expect(received[retry.target]).toEqual([{ retry: '1', signed: true, eventId: envelope.event_id }]);
      for (let index = 0; index < 40; index++) await balancer.event(envelope);
      // Spread over both (the chance that one got none of 40 is about 2e-12).
      expect(received.map((log) => log.length > 1)).toEqual([true, true]);
      expect(balancer.deliveries).toHaveLength(42);
    } finally {
      await Promise.all(servers.map((server) => closeServer(server)));
    }
  });
});
