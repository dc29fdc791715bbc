/** What every Slack handler needs, built once by `startSlack`. */
import type { webApi } from '@slack/bolt';
import type { Scope, ThreadId } from '../../core/types.ts';
import { sharedScope } from '../../core/types.ts';
import type { Logger } from '../../logger.ts';
import type { Services } from '../../main.ts';
import type { AcknowledgementGate } from '../shared/acknowledgement-gate.ts';
import type { InFlightWork } from '../shared/in-flight-work.ts';
import type { EditBudget } from './edit-budget.ts';

export interface SlackContext {
  services: Services;
  client: webApi.WebClient;
  logger: Logger;
  botUserId: string;
  work: InFlightWork;
  /** Minimum time between two edits of a status message. */
  statusThrottleMs: number;
  /** Per channel: whether Slack allows the assistant thread status there (learnt once). */
  assistantStatusSupport: Map<string, Promise<boolean>>;
  /** Progress edits across all threads stay within Slack's chat.update rate. */
  editBudget: EditBudget;
  /** Lets statuses of new mentions go before the graph work of earlier ones. */
  statusGate: AcknowledgementGate;
}

/** The scope of a workspace's documents; the model never chooses it. */
export function workspaceScope(teamId: string): Scope {
  return `slack:${teamId}`;
}

export function workspaceScopes(teamId: string): Scope[] {
  return [workspaceScope(teamId), sharedScope];
}

export function slackThreadId(teamId: string, channel: string, threadTs: string): ThreadId {
  return `slack:${teamId}:${channel}:${threadTs}`;
}
