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

import type { ChatScript } from '../../fakes/fake-ollama.ts';

export interface DriverOptions {
  environment?: Record<string, string>;
  /** The model's replies instead of the contract's model. */
  model?: ChatScript;
  /** Slack: whether the workspace allows native text streaming (default true). */
  streaming?: boolean;
}

/** A conversation the bot answers in: a thread (Slack: the mention's thread; Discord: the thread started from it). */
export interface ContractThread {
  id: string;
}

/** A message of a thread the bot is not part of (`threadWithHistory`). */
export interface HistoryMessage {
  author: string;
  text: string;
  pingEveryone?: boolean;
  mentionSomeone?: boolean;
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
  /**
   * A thread people talk in without the bot, with these messages (oldest first), each by a person
   * with that display name; `pingEveryone` adds the platform's broadcast mention (Slack `<!channel>`,
   * Discord `@everyone`), `mentionSomeone` a mention of another person (`someoneElseMention`).
   */
  threadWithHistory(messages: readonly HistoryMessage[]): Promise<ContractThread>;
  /** How the platform writes a mention of the other person (who is named "Dana"). */
  readonly someoneElseMention: string;
  /** The next read of a thread's history fails (Slack: missing_scope; Discord: 403). */
  failNextThreadRead(): void;
  /** Every request the model received, oldest first: the step that asked and all its text. */
  modelRequests(): Array<{ role: string; text: string }>;
  /**
   * A person posts `text` at the top level (no mention), and another person chooses "Ask ragent" on
   * it (Slack: the message shortcut; Discord: the message command). Resolves with the thread the
   * answer goes to (Slack: the message's thread; Discord: the thread started from it).
   */
  askOnNewMessage(text: string): Promise<ContractThread>;
  /** "Ask ragent" on the newest person's message of `thread` (`threadWithHistory`, `askOnNewMessage`). */
  askOnLatest(thread: ContractThread): Promise<void>;
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
  close(): Promise<void>;
}

export interface DriverFactory {
  readonly name: string;
  start(options?: DriverOptions): Promise<PlatformDriver>;
}
