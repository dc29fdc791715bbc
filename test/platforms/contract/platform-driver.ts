/**
 * What the platform contract suite needs from a platform under test: a person's actions on the
 * platform's wire fake, and what the bot showed. Each driver starts the real platform module
 * against its fake (Slack over HTTP and Socket Mode, Discord over its gateway) with the real
 * services and the fake model; the scenarios (`*.contract.test.ts`) are written once against this.
 */

/**
 * The same scripted model on every platform (`test/slack/slack-model.ts`): a question with
 * `unclearMarker` is asked back with `clarifyingQuestion` until the reply names the loop or the freeze.
 */
export { clarifyingQuestion, unclearMarker } from '../../slack/slack-model.ts';

import type { Services } from '../../../src/core/services.ts';
import type { FeedbackReason } from '../../../src/core/types.ts';
import type { ChatScript } from '../../fakes/fake-ollama.ts';

export interface DriverOptions {
  environment?: Record<string, string>;
  /** The model's replies instead of the contract's model. */
  model?: ChatScript;
  /** Slack: whether the workspace allows native text streaming (default true). */
  streaming?: boolean;
  /** Set the platform's default hand-off target (`handOffTargets.default`). */
  handOff?: boolean;
}

/** A hand-off line as people see it, and whom it can ping (in the driver's words, e.g. `S123`, `role:1`). */
export interface HandOffLine {
  text: string;
  /** Everyone the message may notify: mentioned and allowed (Discord), or mention markup (Slack). */
  pings: string[];
}

/** A conversation the bot answers in: a thread (Slack: the mention's thread; Discord: the thread started from it). */
export interface ContractThread {
  id: string;
}

export interface PlatformDriver {
  readonly name: string;
  /** Mentions the bot in a new top-level message; resolves with the thread its answer goes to. */
  mention(text: string): Promise<ContractThread>;
  /** A thread people talk in without the bot. */
  foreignThread(): Promise<ContractThread>;
  /** Mentions the bot inside `thread`. */
  mentionInThread(thread: ContractThread, text: string): Promise<void>;
  /** A person's reply in the thread: no mention, or mentioning someone else (and not the bot). */
  reply(thread: ContractThread, text: string, options?: { mentionSomeoneElse?: boolean }): Promise<void>;
  /** Another bot (an app) writes in the thread. */
  replyAsBot(thread: ContractThread, text: string): Promise<void>;
  /** A person edits their earlier message in the thread. */
  editInThread(thread: ContractThread, text: string): Promise<void>;
  /** Delivers the latest person's message of `thread` again (a retry, a replay). */
  redeliverLast(thread: ContractThread): Promise<void>;
  /** Waits until the bot shows `count` finished replies in the thread; their texts, oldest first. */
  replies(thread: ContractThread, count: number): Promise<string[]>;
  /** The bot's finished replies in the thread now. */
  repliesNow(thread: ContractThread): string[];
  /**
   * Everything the bot showed, as people saw it at some point: each message body it posted or
   * edited, and each native stream's text as its pieces joined up.
   */
  shownTexts(): string[];
  /** The questions the model was asked to rewrite, oldest first (one per turn). */
  questionsAsked(): string[];
  /**
   * A barrier for negative assertions: a new mention, answered — every event sent before it was
   * handled by then.
   */
  barrier(): Promise<void>;
  /** An admin (`admin`, listed in RAGENT_ADMINS) or a member presses "Verify" on the thread's latest answer; the private reply. */
  pressVerify(thread: ContractThread, as: 'admin' | 'member'): Promise<string>;
  /** What the thread's latest answer shows besides its text (blocks, components), as JSON. */
  answerControls(thread: ContractThread): string;
  /** The asker presses 👎 on the thread's latest answer; the private reply (the reason chooser's text). */
  pressThumbsDown(thread: ContractThread): Promise<string>;
  /** The asker picks a reason in the chooser of their latest 👎 (`other`: through the form, with `comment`). */
  chooseReason(thread: ContractThread, reason: FeedbackReason, comment?: string): Promise<void>;
  /** The asker presses "Ask a person" on the thread's latest answer; the private reply. */
  pressAskPerson(thread: ContractThread): Promise<string>;
  /** An admin runs `/ragent handoff` in the channel with `handOffTargets.other`, or clears it (`off`); the private reply. */
  setHandOff(target: 'other' | 'off'): Promise<string>;
  /** The default target (with `handOff: true`) and another one, as `HandOffLine.pings` names them. */
  readonly handOffTargets: { default: string; other: string };
  /** The hand-off lines in the thread now. */
  handOffLines(thread: ContractThread): HandOffLine[];
  /** How many chat requests the model received so far. */
  chatRequests(): number;
  /** Each chat request's messages, joined: what the model was shown. */
  modelPrompts(): string[];
  /** The running services (stores) for what a scenario checks after the chat. */
  services(): Services;
  close(): Promise<void>;
}

export interface DriverFactory {
  readonly name: string;
  start(options?: DriverOptions): Promise<PlatformDriver>;
}

/** Resolves once a 👎 with this reason (and comment) is stored: what a reason choice ends with. */
export async function waitForStoredReason(
  services: Services,
  reason: FeedbackReason,
  comment?: string,
): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (Date.now() < deadline) {
    const votes = await services.coordination.listFeedback();
    if (votes.some((vote) => vote.reason === reason && (comment === undefined || vote.comment === comment)))
      return;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error(`no 👎 with the reason ${reason} was stored`);
}

/** The hand-off line is not one of the bot's replies to the question. */
export function isHandOffLine(text: string): boolean {
  return /^A person from .* will follow up\.$/.test(text);
}
