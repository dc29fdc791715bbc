/**
 * The gateway half of the fake Discord: a WebSocket speaking Discord's v10 JSON gateway protocol
 * (HELLO → IDENTIFY → READY → GUILD_CREATE, heartbeats and their ACKs, then dispatches).
 * Sessions cannot be resumed: a RESUME gets INVALID_SESSION, and the client identifies again.
 *
 * Sharding as Discord does it: an IDENTIFY may carry `shard: [id, count]` (none = `[0, 1]`); a
 * guild's events go to the sessions of shard `(guild_id >> 22) % count`, events outside a guild (DMs)
 * to shard 0. An invalid shard (id ≥ count, or a count other than the sessions already connected use)
 * is closed with 4010 Invalid shard. Discord lets two sessions identify as one shard (each then gets
 * its events); so does the fake, and `sessionsOfShard` lets a test see it.
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
  shard?: [number, number];
}

export interface GatewaySession {
  socket: WebSocket;
  query: URLSearchParams;
  identify: IdentifyData | undefined;
  sequence: number;
  /** `[id, count]` from the IDENTIFY (`[0, 1]` when it named none). */
  shard: [number, number];
}

/** The shard of a guild among `count` shards, as Discord computes it. */
export function shardOfGuild(guildId: string, count: number): number {
  return Number((BigInt(guildId) >> 22n) % BigInt(count));
}

/** The guild a dispatch belongs to (none: a DM or another event outside guilds). */
function guildOfDispatch(type: string, data: unknown): string | undefined {
  const fields = (data ?? {}) as { id?: unknown; guild_id?: unknown };
  if (type === 'GUILD_CREATE' || type === 'GUILD_UPDATE' || type === 'GUILD_DELETE') {
    return typeof fields.id === 'string' ? fields.id : undefined;
  }
  return typeof fields.guild_id === 'string' ? fields.guild_id : undefined;
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
  /** Identified sessions of shard `id`. */
  sessionsOfShard(id: number): GatewaySession[];
  /** Sends a dispatch to the identified sessions of its shard (its guild's; DMs: shard 0). */
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
    const session: GatewaySession = { socket, query, identify: undefined, sequence: 0, shard: [0, 1] };
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
          const [shardId, shardCount] = identify.shard ?? [0, 1];
          const otherCount = identified().find((other) => other !== session)?.shard[1];
          if (
            !Number.isInteger(shardId) ||
            !Number.isInteger(shardCount) ||
            shardCount < 1 ||
            shardId < 0 ||
            shardId >= shardCount ||
            (otherCount !== undefined && otherCount !== shardCount)
          ) {
            socket.close(4010, 'Invalid shard');
            return;
          }
          session.shard = [shardId, shardCount];
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

  function identified() {
    return sessions.filter((session) => session.identify !== undefined);
  }
  const ofShard = (id: number) => identified().filter((session) => session.shard[0] === id);

  return {
    sessions: identified,
    sessionsOfShard: ofShard,
    dispatch: (type, data) => {
      const guildId = guildOfDispatch(type, data);
      for (const session of identified()) {
        const shard = guildId === undefined ? 0 : shardOfGuild(guildId, session.shard[1]);
        if (session.shard[0] === shard) dispatchTo(session, type, data);
      }
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
