/**
 * The primitives a platform gives the one reply surface (`reply-surface.ts`): post, edit and delete a
 * message, and where it has them a status line apart from messages and a native text stream. The
 * surface decides what to do with them (status, streamed text or edits, splitting, fallbacks); the
 * port only speaks the platform's wire. `Message` is the platform's own payload.
 */
import type { Location, Reply, Status } from '../core/chat-platform.ts';
import type { Logger } from '../logger.ts';
import type { RefusalsHere } from './place-refusals.ts';
import type { PlanCards } from './plan-cards.ts';

export interface ReplyPort<Message> {
  readonly logger: Logger;
  /** Posts a new message (`index`: its place in the reply, 0 the first); resolves with its id. */
  post(message: Message, index: number): Promise<string>;
  edit(id: string, message: Message): Promise<void>;
  delete(id: string): Promise<void>;
  /** How statuses and replies look here. */
  readonly render: ReplyRendering<Message>;
  /** Where the turn can be reached again, given the last message shown (none yet: undefined). */
  location(last: string | undefined): Location;
  /**
   * The first text of an answer goes in a new message (the status message deleted) rather than in an
   * edit of the status: where edits are the platform's tightest limit, they are left for later pieces.
   */
  readonly textInNewMessage?: boolean;
  /** A status shown apart from messages, where the platform has one here (`status-line.ts` decides what it shows). */
  readonly statusLine?: StatusLinePrimitive;
  /** The platform's own text stream, where it has one here. */
  readonly stream?: StreamPrimitives<Message>;
  /**
   * What the platform refused in this surface's place (shared by its surfaces, learnt once): its
   * stream, the plan, a message's richer form, its status line. Unset: learnt for this surface alone.
   */
  readonly refusals?: RefusalsHere;
}

/** A status line as the platform shows it. */
export interface StatusLinePrimitive {
  /** Shows `line` with `rotating` lines shown in turn under it (none: nothing rotates). */
  show(line: string, rotating: readonly string[]): Promise<void>;
  /** The longest line the platform shows. */
  readonly maxLength: number;
}

export interface ReplyRendering<Message> {
  status(status: Status): Message;
  /** An answer as written so far: split within the platform's limit, the last part marked unfinished. */
  streamingText(text: string): Message[];
  reply(reply: Reply): Message[];
  /**
   * A message's simpler form, where the platform may refuse its richer one (undefined: it has none);
   * once the place refused the richer form, replies there are sent in their simpler form at once.
   */
  simpler?(message: Message): Message | undefined;
  /** What a message that cannot be deleted becomes: a short note pointing at the answer. */
  readonly leftoverNote: Message;
}

export interface StreamPrimitives<Message> {
  /** Whether an error of `start` is the platform refusing streaming here (any other error is thrown on). */
  refuses(error: unknown): boolean;
  /** Text as it may be streamed: pings made inert (the platform joins streamed pieces). */
  safeText(text: string): string;
  /** Opens a stream showing `text`; resolves with its id. */
  start(text: string): Promise<string>;
  append(id: string, text: string): Promise<void>;
  /**
   * Shows an answer's plan in the stream (as cards), where the platform can: `start` opens the stream
   * with the plan, `append` adds the cards that changed. The surface decides which cards to send and
   * when. `refuses`: whether an error is the platform refusing the plan here (the text then streams
   * alone, learnt once for the place); any other error is thrown on.
   */
  readonly plan?: {
    refuses(error: unknown): boolean;
    start(plan: PlanCards): Promise<string>;
    append(id: string, plan: PlanCards): Promise<void>;
  };
  /**
   * What of a reply's message goes under the stopped stream (its sources, its buttons), where the
   * reply is one message; undefined: nothing.
   */
  closing?(message: Message): Message | undefined;
  /** Ends the stream, with `closing` under it. */
  stop(id: string, closing: Message | undefined): Promise<void>;
  /** Whether an error of `stop` is the platform refusing the closing (the next simpler one is tried). */
  refusesClosing?(error: unknown): boolean;
}
