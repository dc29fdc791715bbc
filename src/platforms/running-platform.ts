/**
 * A started chat platform connection, as the entry point sees it. Stopping is in phases so that one
 * turn runner can drain every platform at once: `stopTaking` on each, then the runner's drain and
 * notices, then `disconnect` on each, and the stores close last (see `cli/start-bot.ts`).
 */
export interface RunningPlatform {
  readonly name: string;
  /** Take no new events (work in flight goes on, and may still post). */
  stopTaking(): Promise<void>;
  /** Close the connection; after the runner told the abandoned threads. */
  disconnect(): Promise<void>;
  /** This platform alone, all phases: stop taking, drain its jobs (bounded), tell the abandoned, disconnect. */
  stop(): Promise<void>;
}
