/**
 * The gateway half of the fake Discord: a WebSocket speaking Discord's v10 JSON gateway protocol
 * (HELLO → IDENTIFY → READY → GUILD_CREATE, heartbeats and their ACKs, then dispatches).
 * Sessions cannot be resumed: a RESUME gets INVALID_SESSION, and the client identifies again.
 */
import type { IncomingMessage, Server } from 'node:http';
import { type WebSocket, WebSocketServer } from 'ws';

export const gatewayOpcodes = {
  dispatch: 0,
  heartbeat: 1,
  identify: 2,
  resume: 6,
  invalidSession: 9,
  hello: 10,
  heartbeatAck: 11,
} as const;

export interface IdentifyData {
  token: string;
  intents: number;
  properties: Record<string, unknown>;
}

export interface GatewaySession {
  socket: WebSocket;
  query: URLSearchParams;
  identify: IdentifyData | undefined;
  sequence: number;
}

export interface FakeGatewayOptions {
  server: Server;
  path: string;
  /** Checks the IDENTIFY token. */
  acceptsToken(token: string): boolean;
  /** The dispatches that follow a valid IDENTIFY (READY first). */
  onIdentified(session: GatewaySession): Array<{ t: string; d: unknown }>;
}

export interface FakeGateway {
  sessions(): GatewaySession[];
  /** Sends a dispatch to every identified session. */
  dispatch(type: string, data: unknown): void;
  /** Resolves when at least `count` sessions have identified. */
  waitForIdentify(count?: number): Promise<GatewaySession>;
  close(): Promise<void>;
}

export function startFakeGateway(options: FakeGatewayOptions): FakeGateway {
  const sessions: GatewaySession[] = [];
  const identifyWaiters: Array<() => void> = [];
  const server = new WebSocketServer({ server: options.server, path: options.path });

  const send = (session: GatewaySession, payload: Record<string, unknown>) => {
    if (session.socket.readyState === session.socket.OPEN) session.socket.send(JSON.stringify(payload));
  };
  const dispatchTo = (session: GatewaySession, type: string, data: unknown) => {
    session.sequence += 1;
    send(session, { op: gatewayOpcodes.dispatch, t: type, s: session.sequence, d: data });
  };

  server.on('connection', (socket: WebSocket, request: IncomingMessage) => {
    const query = new URL(request.url ?? '/', 'http://fake').searchParams;
    if (query.get('v') !== '10' || query.get('encoding') !== 'json') {
      socket.close(4012, 'Invalid API version');
      return;
    }
    const session: GatewaySession = { socket, query, identify: undefined, sequence: 0 };
    sessions.push(session);
    socket.on('close', () => {
      sessions.splice(sessions.indexOf(session), 1);
    });
    socket.on('message', (raw) => {
      const payload = JSON.parse(String(raw)) as { op: number; d: unknown };
      switch (payload.op) {
        case gatewayOpcodes.heartbeat:
          send(session, { op: gatewayOpcodes.heartbeatAck, d: null });
          break;
        case gatewayOpcodes.identify: {
          const identify = payload.d as IdentifyData;
          if (!options.acceptsToken(identify.token)) {
            socket.close(4004, 'Authentication failed');
            return;
          }
          session.identify = identify;
          for (const { t, d } of options.onIdentified(session)) dispatchTo(session, t, d);
          for (const waiter of identifyWaiters.splice(0)) waiter();
          break;
        }
        case gatewayOpcodes.resume:
          send(session, { op: gatewayOpcodes.invalidSession, d: false });
          break;
        default:
          break;
      }
    });
    send(session, { op: gatewayOpcodes.hello, d: { heartbeat_interval: 41_250 } });
  });

  const identified = () => sessions.filter((session) => session.identify !== undefined);

  return {
    sessions: identified,
    dispatch: (type, data) => {
      for (const session of identified()) dispatchTo(session, type, data);
    },
    waitForIdentify: async (count = 1) => {
      while (identified().length < count) {
        await new Promise<void>((resolve) => identifyWaiters.push(resolve));
      }
      return identified()[identified().length - 1]!;
    },
    close: async () => {
      for (const session of sessions) session.socket.terminate();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
