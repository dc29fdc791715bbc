/**
 * What every chat command gets, whatever platform it was typed on: who ran it, where, its arguments as
 * the command table describes them, and how the platform writes a reply. The platform parses its wire
 * payload into this and sends back the text the command returns; every decision is the command's.
 */
import type { Services } from '../core/services.ts';
import type { Scope } from '../core/types.ts';
import type { Actor } from '../turns/actor.ts';
import type { ChatMarkup } from '../turns/chat-markup.ts';
import type { PlaceSets } from '../turns/document-commands.ts';

/** Where a command was run: the sets it works on, and what the platform knows about its channels. */
export interface CommandPlace {
  /** The sets of the channel the command ran in (in a thread: its parent's; in a DM: no channel's). */
  sets: PlaceSets;
  /** The platform's id of that channel (in a thread: its parent); undefined in a DM. */
  channelId?: string;
  inDirectMessage: boolean;
  /**
   * A channel named in an argument: its scope (a channel of another workspace or server gets that
   * place's scope, which linking refuses), whether it is in this place, and whether its posts can be
   * answered without a mention.
   */
  lookUpChannel(id: string): Promise<{ scope: Scope; inPlace: boolean; answerable: boolean }>;
  /** The scope a channel of this place has, without looking it up (a deleted channel can be unlinked). */
  channelScope(id: string): Scope;
  /** Whether the bot reads messages that do not mention it (Discord: only with the Message Content intent). */
  readsEveryMessage: boolean;
  /** The platform's name, as turn records and thread ids name it (for the place's report). */
  platform: string;
  /** The hand-off target the operator configured for this platform, if any. */
  handOffDefault?: string;
}

/** The values of a command's arguments, by argument name (see command-table.ts for their kinds). */
export type ArgumentValues = Readonly<Record<string, string | number | null | undefined>>;

export interface CommandRequest {
  actor: Actor;
  place: CommandPlace;
  arguments: ArgumentValues;
  markup: ChatMarkup;
  /** The longest reply the platform sends in one message. */
  maxLength: number;
}

/** The services commands use. */
export type CommandServices = Pick<
  Services,
  'ingestion' | 'coordination' | 'logger' | 'turnHistory' | 'verifiedAnswers'
>;

/** One command's operation: the request in, the reply text out. */
export type CommandOperation = (request: CommandRequest, services: CommandServices) => Promise<string>;

/** A string argument, or '' when absent. */
export function textArgument(request: CommandRequest, name: string): string {
  const value = request.arguments[name];
  return typeof value === 'string' ? value : '';
}

/** `placeAdmin` / `channelAdmin` in the platform's words (who else may do it). */
export function adminWords(markup: ChatMarkup, level: 'place' | 'channel'): string {
  return (level === 'place' ? markup.terms.placeAdmin : markup.terms.channelAdmin) ?? markup.terms.admin;
}
