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

import { vi } from 'vitest';
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

/** A private question (`/ragent ask`) and where its private reply goes. */
export interface PrivateAsk {
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
  modelCalls(): Array<{ role: string; text: string }>;
  /**
   * A person posts `text` at the top level (no mention), and another person chooses "Ask ragent" on
   * it (Slack: the message shortcut; Discord: the message command). Resolves with the thread the
   * answer goes to (Slack: the message's thread; Discord: the thread started from it).
   */
  askOnNewMessage(text: string): Promise<ContractThread>;
  /** "Ask ragent" on the newest person's message of `thread` (`threadWithHistory`, `askOnNewMessage`). */
  askOnLatest(thread: ContractThread): Promise<void>;
  /** "Ask ragent" on the bot's newest reply in `thread`; resolves with what the asker alone is told. */
  askOnBotReply(thread: ContractThread): Promise<string>;
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
  /** A person's new top-level message in the channel, no mention; resolves with the thread an answer would go to. */
  postTopLevel(text: string, options?: { mentionSomeoneElse?: boolean }): Promise<ContractThread>;
  /**
   * Runs `/ragent autoanswer on|off` in the channel, as an admin (default) or as a member who may not;
   * resolves with the command's reply and whether only the person who ran it saw it.
   */
  setAutoAnswer(on: boolean, options?: { admin?: boolean }): Promise<CommandReply>;
  /** Runs `/ragent docs` or `/ragent help` in the channel; resolves with its reply. */
  command(subcommand: 'docs' | 'help'): Promise<CommandReply>;
  /** Adds a document to the channel's set, as uploaded by the person `forget(…, 'uploader')` runs as. */
  addChannelDocument(name: string, text: string): Promise<void>;
  /** Runs `/ragent forget` for `name` in the channel: as its uploader, a member who did not add it, or an admin. */
  forget(name: string, as: 'uploader' | 'member' | 'admin'): Promise<CommandReply>;
  /**
   * A barrier for negative assertions: a new mention, answered — every event sent before it was
   * handled by then.
   */
  barrier(): Promise<void>;
  /** The most characters the platform shows in one message (an answer longer is split). */
  readonly messageLimit: number;
  /** Every message of the bot's finished answer in `thread` (one, or the parts of a split one), in order. */
  answerParts(thread: ContractThread): Promise<string[]>;
  /** Anything the bot sent that would ping people on this platform (@channel/@here/@everyone, users, roles). */
  pingsSent(): string[];
  /** The platform's own ways of pinging, to put into model and document text. */
  readonly pingTexts: readonly string[];
  /** `user` (a name of the driver's own) clicks 👍 or 👎 under the answer in `thread`; resolves once acknowledged. */
  vote(thread: ContractThread, value: 'up' | 'down', user: string): Promise<void>;
  /** The votes stored for `thread`, oldest first. */
  votes(thread: ContractThread): Promise<Array<{ user: string; value: string }>>;
  /**
   * Shares a file with the bot to add to the channel's documents (the platform's usual way: a file
   * shared with "ingest", the ingest command); resolves with each text the request's status showed
   * and the final result.
   */
  ingest(file: { name: string; bytes: Uint8Array }): Promise<{ statuses: string[]; result: string }>;
  /**
   * A crash mid-answer: the bot is replaced by `ragent start` in a child process, `text` is mentioned
   * there, and the process is killed (SIGKILL) once the model was asked. The bot stays down until `resume`.
   */
  crashMidAnswer(text: string): Promise<ContractThread>;
  /** Starts the bot again on the same data (after `crashMidAnswer`). */
  resume(): Promise<void>;
  /** Stops the bot gracefully and starts it again on the same data. */
  restart(): Promise<void>;
  /** Every message the bot has in `thread` now, status messages included, as people see them. */
  botMessages(thread: ContractThread): string[];
  /** The asker runs `/ragent ask <text>` in the channel (the same asker each time). */
  askPrivately(text: string): Promise<PrivateAsk>;
  /** Waits for the asker's private reply to `ask` (past its working status); its text and buttons. */
  privateReply(ask: PrivateAsk): Promise<string>;
  /**
   * Presses Share on the private answer of `ask` — as the asker, or as someone else — and waits until
   * the press was answered; resolves with what the presser was told privately (all of it, in order).
   */
  share(ask: PrivateAsk, options?: { bySomeoneElse?: boolean }): Promise<string[]>;
  /** Everything the bot posted or edited where the channel's people can see it (never ephemeral). */
  publicTexts(): string[];
  /** The text of every request to the model, oldest first. */
  modelRequests(): string[];
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
  /** Mentions the bot in a new top-level message with files attached; resolves with its thread. */
  mentionWithFile(text: string, files: readonly ContractFile[]): Promise<ContractThread>;
  /** Mentions the bot in a new top-level message of another channel of the same workspace/server. */
  mentionInOtherChannel(text: string): Promise<ContractThread>;
  /** What the searches returned to the model so far (the tool results of every request, oldest first). */
  toolResults(): string[];
}

/** A file a person attaches to a message. */
export interface ContractFile {
  name: string;
  bytes: Uint8Array;
}

/** A slash command's reply. */
export interface CommandReply {
  text: string;
  /** Shown only to the person who ran the command (Slack: ephemeral; Discord: the ephemeral flag). */
  onlyToThem: boolean;
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
  await vi.waitFor(
    async () => {
      const votes = await services.coordination.listFeedback();
      const stored = votes.some(
        (vote) => vote.reason === reason && (comment === undefined || vote.comment === comment),
      );
      if (!stored) throw new Error(`no 👎 with the reason ${reason} was stored`);
    },
    { timeout: 10_000, interval: 20 },
  );
}

/** The hand-off line is not one of the bot's replies to the question. */
export function isHandOffLine(text: string): boolean {
  return /^A person from .* will follow up\.$/.test(text);
}
