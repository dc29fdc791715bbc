/**
 * The chat-platform port, and the turn runner as a platform sees it.
 *
 * A platform (Slack, Discord, next Teams or Mattermost) supplies only what differs between
 * platforms: where an event belongs (`Place`: thread, scopes from where the message came — never
 * from its text — and user), how to show the first acknowledgement (`open`, per job), how to reach a
 * recorded thread again (`reopen`), and on a `ReplySurface` how to show a status line and how to
 * render a `Reply`. WHAT is shown is decided once, by the runner (`src/turns/`), in the words of
 * the messages module; HOW it looks (mrkdwn or Discord markdown, blocks, embeds, buttons, splitting)
 * is the platform's rendering module.
 *
 * Everything else — claiming an event, the turn record, the acknowledgement gate, throttled status
 * edits under the platform's rate budgets (edits, and streamed text where the platform limits it
 * apart; the first text of an answer before later edits), the deadline and the overdue notice, delivery, failure
 * messages, drain on shutdown, telling abandoned and crashed threads — lives once, in the runner.
 */
import type { RagentError } from '../errors.ts';
import type { Logger } from '../logger.ts';
import type { ThreadPosition, TurnInFlight } from './coordination-store.ts';
import type { Answer, IngestProgress, IngestReport, Scope, ThreadId, ThreadMessage } from './types.ts';

/** Where a conversation lives and what it may search (fixed by the platform from the event's origin). */
export interface Place {
  threadId: ThreadId;
  scopes: readonly Scope[];
  /** Platform user id, for logs and feedback. */
  user: string;
}

/** What a platform needs to reach a thread or message again: flat strings, recorded as they are. */
export type Location = Record<string, string>;

/** One file of an ingest job, as it advances. */
export type IngestFileState =
  | { name: string; state: 'waiting' }
  | { name: string; state: 'downloading' }
  | { name: string; state: 'working'; progress: IngestProgress }
  | { name: string; state: 'added'; report: IngestReport; seconds: number }
  | { name: string; state: 'failed'; error: RagentError };

/** What a crash cut short in an ingest job (each file's ingest is atomic: the interrupted file left nothing). */
export interface InterruptedIngest {
  /** The file being ingested when the crash came. */
  file: string;
  /** Files of the same job added before it. */
  added: string[];
  /** Files of the job that were not added: the interrupted one, those after it, those that failed. */
  notAdded: string[];
}

/** A status the platform shows while work runs (edited in place, throttled by the runner). */
export type Status =
  | { kind: 'working'; line: string }
  | { kind: 'ingest'; files: readonly IngestFileState[] };

/** WHAT to show as the outcome; the platform's rendering module decides HOW. */
export type Reply =
  | { kind: 'answer'; answer: Answer; threadId: ThreadId }
  | { kind: 'clarification'; question: string }
  | { kind: 'stopped'; message: string }
  /** A failure: what happened and what to do, with a reference to the log entry. */
  | { kind: 'error'; error: RagentError; reference: string }
  /** The answer is late; it still follows if it arrives. */
  | { kind: 'overdue'; seconds: number; reference: string }
  /** After a crash: the answer was cut short, ask again. */
  | { kind: 'restarted' }
  /** A stop gave up waiting for this answer: ask again. */
  | { kind: 'shutting-down' }
  | { kind: 'ingest-result'; files: readonly IngestFileState[]; reference: string }
  | { kind: 'interrupted-ingest'; ingest: InterruptedIngest }
  /**
   * The answer stopped part-way while it was being written: what was written so far, then a notice
   * that it was cut off and why (never a half-answer that looks complete).
   */
  | { kind: 'cut-off'; text: string; notice: string; reference: string }
  /** A short notice (a hint on how to ask, the bot is restarting …) from the messages module. */
  | { kind: 'notice'; text: string };

/**
 * One sub-question of an answer's plan (the rewrite split the question in several), as it advances,
 * with the documents its agent read once it is done. Its title is model text: the platform escapes it.
 */
export interface PlanStep {
  title: string;
  state: 'pending' | 'in_progress' | 'complete' | 'error';
  documents: ReadonlyArray<{ name: string; link?: string }>;
}

/** Where a job shows its status and, at the end, its outcome. */
export interface ReplySurface {
  /** What to record so the thread can be reached again (may change once the status exists). */
  readonly location: Location;
  /** One edit of the status. The runner throttles and budgets these; a platform never does. */
  showStatus(status: Status): Promise<void>;
  /**
   * Replaces the status with the reply (split, sources, buttons as the platform renders them).
   * Called again after an overdue notice: the later reply follows it as new messages.
   */
  finish(reply: Reply): Promise<void>;
  /**
   * Shows the answer as written so far (markdown, growing; it replaces the status). The runner
   * throttles these like statuses (latest wins) and ends with `finish`, which replaces or completes
   * what was streamed. A surface may move on to new messages as the text grows: it then updates
   * `location` to the message the turn's outcome should reach. Without it, no text is streamed.
   */
  showText?(textSoFar: string): Promise<void>;
  /**
   * False when the next `showText` does not edit a message — it appends to the platform's own text
   * stream (Slack's `chat.appendStream`) or posts a new message — so it draws from the platform's
   * `streamBudget`, not from its edit budget. Absent: every `showText` is an edit.
   */
  readonly nextTextIsEdit?: boolean;
  /**
   * Shows the answer's plan: every sub-question and how far it is (sent in order, each change once,
   * and a last time before `finish`). Surfaces that cannot show it leave it out, or resolve without
   * showing it where the platform refuses it; the status lines say the same in words.
   */
  showPlan?(steps: readonly PlanStep[]): Promise<void>;
}

export interface ChatPlatform {
  readonly name: string;
  /** The platform's logger: the runner logs its jobs here. */
  readonly logger: Logger;
  /** Minimum time between two status edits of one surface. */
  readonly statusIntervalMs: number;
  /** Minimum time between two edits of a streamed answer (default 1 s); the first goes out at once. */
  readonly textIntervalMs?: number;
  /** Status/progress edits per minute (and burst) for all surfaces of this platform together. */
  readonly editBudget: { perMinute: number; burst: number };
  /** Text sent without editing (stream appends, new messages) per minute and burst, where the platform limits those apart. */
  readonly streamBudget?: { perMinute: number; burst: number };
  /**
   * Where the platform counts these budgets: for the whole bot (default), or per workspace (each
   * workspace has the whole budget: the first part of a thread id or scope names it).
   */
  readonly budgetPer?: 'bot' | 'workspace';
  /** A surface for a recorded turn (crash recovery, abandoned turns); throws when unreachable. */
  reopen(turn: TurnInFlight): Promise<ReplySurface>;
  /**
   * A link people can open to reach the thread (recorded with each answer for the feedback export, and
   * with a hand-off an answer's button makes, where only the thread is known).
   */
  threadLink?(place: Pick<Place, 'threadId'>): string | undefined;
  /**
   * Take no new events, because this replica lost the state it shares with the others (they take
   * over): close what lets the platform send here, so it sends elsewhere (Slack: the receiver, so HTTP
   * requests fail and Socket Mode disconnects). Work in flight goes on.
   */
  stopTaking?(): Promise<void>;
  /**
   * Hand-off to a person (`turns/hand-off.ts`): the platform's default target in its own words
   * (RAGENT_HANDOFF_<PLATFORM>), and the one line in a thread that mentions that target and nobody
   * else. Unset: the platform hands off to nobody.
   */
  handOff?: {
    readonly fallback: string | undefined;
    post(threadId: ThreadId, target: string): Promise<void>;
  };
}

/**
 * One message as a platform received it, parsed once from its wire event: where it was posted, who
 * wrote it, its text (the bot's mention removed, other mentions readable) and what it is to the bot.
 * The runner decides from this alone whether it is a turn (`turns/decide-turn.ts`), the same on every
 * platform; the platform only parses and, when asked, shows (`open`, `notice`).
 */
export interface IncomingMessage {
  /** The event's key: a duplicate delivery (another event type, a retry) has the same one. */
  key: string;
  /** Shown with errors, and logged: finds the log entry of this turn. */
  reference: string;
  logFields?: Record<string, string>;
  /** The workspace/server ('' for a DM outside any). */
  workspace: string;
  channel: string;
  /** The conversation the message belongs to (a new one when it starts a thread). */
  thread: ThreadPosition;
  author: string;
  text: string;
  /** Names of the files attached (ingested through `ingest` when the message asks for it). */
  files: readonly string[];
  mentionsBot: boolean;
  /** A reply to one of the bot's messages (Discord's reply, with or without the ping). */
  repliesToBot: boolean;
  isDirectMessage: boolean;
  /** Posted inside an existing thread (so it may follow up on a conversation the bot is in). */
  inThread: boolean;
  /** Mentions other people (users, roles, groups) and not the bot: addressed to someone else. */
  addressedToOthers: boolean;
  /** Written by a bot or app, the bot itself included. */
  fromBot: boolean;
  /** An edit or deletion of an earlier message, not a new one. */
  isEdit: boolean;
  /** The platform withheld the text (Discord without the Message Content intent). */
  textHidden: boolean;
  /**
   * The channel whose auto-answer setting applies when this message starts a conversation (a forum
   * post: its forum). Unset where nothing is auto-answered (DMs).
   */
  autoAnswerChannel?: Scope;
  /** Where the thread can be reached before `open` (recorded at once). */
  location: Location;
  /** Posts a short notice (a hint, "restarting") in the message's thread. */
  notice(text: string): Promise<void>;
  /** Holds the platform's delivery receipt until the turn is recorded (see `AnswerJob.recorded`). */
  holdReceipt?(): () => void;
  /** Shows the first acknowledgement; resolves with the surface and where the conversation lives. */
  open(): Promise<{ surface: ReplySurface; place: Place }>;
  /** The ingest of the attached files that `text` asks for (platforms that ingest from a message). */
  ingest?(text: string): IngestJob;
  /**
   * The attached files, to download: read for the question alone (into its thread's own files) when
   * the message does not ask to ingest them.
   */
  attachedFiles?(): readonly IngestFile[];
  /** The thread's earlier messages, newest last (at most `limit`), read when the bot joins it. */
  readThread?(limit: number): Promise<ThreadMessage[]>;
}

/** A question to answer. */
export interface AnswerJob {
  /** The claimed event's key (also the turn record's key). */
  key: string;
  text: string;
  /** Shown with errors, and logged: finds the log entry of this turn. */
  reference: string;
  /** Extra fields for every log line of the turn (event id, thread id …). */
  logFields?: Record<string, string>;
  /** Where the thread can be reached before `open` (recorded at once). */
  location: Location;
  /**
   * The conversation's thread and the message's platform timestamp: a thread's turns run one at a
   * time in this order (across replicas too). Must name the thread `open` resolves with.
   */
  thread: ThreadPosition;
  /**
   * The runner claims `key` itself, in the same write as the turn record (one round trip less with
   * replicas); a duplicate delivery is then dropped by the runner. Unset: the platform claimed it.
   */
  claim?: boolean;
  /**
   * Called once the event is claimed and its turn recorded (or found to be a duplicate, or the write
   * failed): a platform that holds back its delivery receipt until the turn is safe releases it here, so
   * a replica dying before that point leaves the event to the platform's redelivery, never lost.
   */
  recorded?(): void;
  /** Shows the first acknowledgement; resolves with the surface and where the conversation lives. */
  open(): Promise<{ surface: ReplySurface; place: Place }>;
  /**
   * Files attached to the question: read into the thread's own files (`threadFilesScope`) before it
   * is answered, so this turn and the thread's later ones search them — no other thread or channel.
   */
  files?: readonly IngestFile[];
  /** The thread's earlier messages (see `IncomingMessage.readThread`): read if the bot is not in it yet. */
  readThread?(limit: number): Promise<ThreadMessage[]>;
}

export interface IngestFile {
  name: string;
  /** Fetches the bytes from the platform (checked: host, size, PDF signature); throws a RagentError. */
  download(): Promise<Uint8Array>;
  /** The upload's permalink, kept with the document for its sources; asked after `download` (which may learn it). */
  link?(): string | undefined;
  /**
   * A web page (`/ragent ingest <url>`): its address after redirects, asked after `download`; the
   * document is then named by it and `download` gave the Markdown of its main content.
   */
  url?(): string | undefined;
}

/** Files to add to a scope, shared in chat. */
export interface IngestJob {
  key: string;
  reference: string;
  /** The platform's own scope of the workspace/server the request came from. */
  scope: Scope;
  uploader: string;
  files: readonly IngestFile[];
  /** Epoch ms of the request (default: now). */
  startedAt?: number;
  /** Shows the first status (every file waiting) and returns the surface that follows it. */
  open(first: Status): Promise<ReplySurface>;
}

/** How a stop went. */
export interface StopReport {
  /** Every job finished within the timeout. */
  drained: boolean;
  /** Abandoned threads told to ask again. */
  told: number;
  /** Abandoned threads that could not be told (their records stay: the next start tells them). */
  untold: number;
  /** Replicas: answers still waiting for their thread's turn, left queued for the replicas that live on. */
  released?: number;
}

/** The runner's handle for one platform (`TurnRunner.attach`). */
export interface PlatformTurns {
  /** The platform as it attached: what it declared once (its name, hand-off, thread links) for its handlers. */
  readonly platform: ChatPlatform;
  /**
   * True the first time `key` is claimed. A store failure counts as a first claim: never a silent
   * thread. False once this replica lost the state it shares with other replicas (they take the event).
   */
  claim(key: string): Promise<boolean>;
  /** Set once a stop began (or the shared state was lost): take no new work. */
  readonly stopping: boolean;
  /**
   * The platform stopped taking events, but some still arrive (a gateway that stays connected until
   * the drain is done): from now on a message that would be a turn is told the bot is restarting.
   */
  stopTaking(): void;
  /**
   * A message as the platform received it: the runner decides whether it is a turn (mention, DM,
   * follow-up in a thread the bot is in, an ingest, a hint) and runs it. Resolves once decided.
   */
  receive(message: IncomingMessage): Promise<void>;
  /** Runs an answer turn in the background. */
  answer(job: AnswerJob): void;
  /** Runs an ingest job in the background. */
  ingest(job: IngestJob): void;
  /** Other background work (a hint, a command's reply) that a stop waits for; failures are logged. */
  track(what: string, work: () => Promise<void>): void;
  /** Tells every thread a crash (of this or another process) left without an outcome. Returns how many. */
  tellOrphans(): Promise<number>;
  /** Stops this platform's jobs only: stop taking, drain (bounded), tell the abandoned ones. */
  stop(timeoutMs: number): Promise<StopReport>;
}

/** The one turn runner of the process, shared by every platform. */
export interface TurnRunner {
  attach(platform: ChatPlatform): PlatformTurns;
  /** Stop taking work on every platform, drain (one bounded timeout), tell abandoned threads (bounded). */
  stop(timeoutMs: number): Promise<StopReport>;
}
