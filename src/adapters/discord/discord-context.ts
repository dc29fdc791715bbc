/** What every Discord handler gets: the services, the client and the adapter's own bookkeeping. */
import type { Client } from 'discord.js';
import type { Logger } from '../../logger.ts';
import type { Services } from '../../main.ts';
import type { AcknowledgementGate } from '../shared/acknowledgement-gate.ts';
import type { InFlightWork } from './in-flight-work.ts';

export interface DiscordContext {
  services: Services;
  client: Client;
  logger: Logger;
  inFlight: InFlightWork;
  acknowledgements: AcknowledgementGate;
  isStopping(): boolean;
  /** Minimum time between two edits of a status message. */
  progressIntervalMs: number;
}
