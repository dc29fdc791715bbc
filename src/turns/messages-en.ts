/**
 * Everything ragent says to people in chat, in English: progress lines, ingest stages and results,
 * notices (overdue, restarted, shutting down, interrupted ingest), hints and command replies.
 * Platforms only add formatting (mrkdwn or Discord markdown, emoji, bold names) around these words;
 * a second language would be a sibling module with the same exports.
 */
import type { IngestFileState, InterruptedIngest } from '../core/chat-platform.ts';
import { describeExtent } from '../core/location.ts';
import type { FeedbackReason, IngestProgress, IngestReport, ProgressEvent } from '../core/types.ts';

const maxQueryLength = 80;

/** The first status of an answer, before any progress. */
export const workingLine = 'Working on it…';

/** One short status line per progress event (undefined: nothing worth showing). */
export function describeProgress(event: ProgressEvent): string | undefined {
  switch (event.type) {
    case 'queued':
      return event.reason === 'thread-busy'
        ? 'Waiting for the previous message in this thread to be answered…'
        : 'Waiting for the model (other questions are being answered)…';
    case 'summarizing':
      return 'Reading the conversation…';
    case 'rewriting':
      return 'Understanding the question…';
    case 'clarifying':
      return 'The question needs a detail…';
    case 'planned':
      return event.questions.length > 1
        ? `Split into ${event.questions.length} sub-questions…`
        : 'Looking for the answer…';
    case 'sub-question-started':
      return event.total > 1
        ? `Sub-question ${event.index + 1} of ${event.total}: ${shorten(event.question)}`
        : undefined;
    case 'searching':
      return `Searching the documents for “${shorten(event.query)}”…`;
    case 'reading':
      return event.section ? `Reading “${shorten(event.section)}”…` : 'Reading a section…';
    case 'compressing':
      return 'Condensing what was found so far…';
    case 'falling-back':
      return 'Writing the best answer from what was found…';
    case 'sub-question-done':
      return event.total > 1 ? `Answered ${event.index + 1} of ${event.total} sub-questions…` : undefined;
    case 'aggregating':
      return 'Writing the answer…';
    case 'done':
      return undefined;
  }
}

/** What each ingest stage is called wherever it is shown (chat, CLI progress bar). */
export const ingestStageWords: Record<IngestProgress['stage'], string> = {
  reading: 'reading',
  extracting: 'extracting text',
  chunking: 'splitting into sections',
  embedding: 'embedding',
  indexing: 'indexing',
  done: 'finishing',
};

/** `reading 12/40 pages…`: where one file's ingest is. */
export function describeIngestStage(progress: IngestProgress): string {
  const stage = ingestStageWords[progress.stage];
  return progress.total > 0 ? `${stage} ${progress.done}/${progress.total} ${progress.unit}…` : `${stage}…`;
}

/** `2 pages, 5 chunks, 0.4 s (replaced the previous version)`: what an ingest did. */
export function describeIngestReport(report: IngestReport, seconds: number): string {
  const { document } = report;
  const counts = `${describeExtent(document)}, ${count(document.children, 'chunk')}`;
  const figures = `${counts}, ${seconds.toFixed(1)} s`;
  switch (report.status) {
    case 'ingested':
      return figures;
    case 'replaced':
      return `${figures} (replaced the previous version)`;
    case 'unchanged':
      return `already ingested, unchanged (${counts})`;
    case 'reindexed':
      return `${figures} (indexed again: it had the ranking weights of an older ragent)`;
  }
}

/** What one file of an ingest job shows after its name (the platform adds the icon and the name). */
export function describeIngestFile(file: IngestFileState): string {
  switch (file.state) {
    case 'waiting':
      return 'waiting…';
    case 'downloading':
      return 'downloading…';
    case 'working':
      return describeIngestStage(file.progress);
    case 'added':
      return describeIngestReport(file.report, file.seconds);
    case 'failed':
      return file.error.message;
  }
}

export const askAboutIngestedText = 'Ask about it by mentioning me in a channel.';

/** After a crash: an answer was cut short. */
/** Where a status message could not be removed once the answer was posted below it. */
export const answerBelowText = 'The answer is below.';
export const restartedText = 'ragent restarted before it could finish answering this; please ask again.';

/** A stop gave up waiting for this answer. */
export const shuttingDownText =
  'ragent is restarting and could not finish answering this; please ask again in a minute.';

/** After the part of an answer that was shown while it was written, when it stopped part-way. */
export function cutOffText(reason: string): string {
  return `The answer was cut off: ${reason}`;
}

/** A new message arrived while ragent is stopping. */
export const restartingText = 'ragent is restarting. Try again in a minute.';

export function overdueText(seconds: number): string {
  return (
    `No answer after ${seconds} seconds — the model is slow or stuck. ` +
    'I will still post the answer here if it arrives; otherwise ask again, perhaps more specifically.'
  );
}

/** After a crash: an ingest was cut short (each file is atomic: the interrupted one left nothing). */
export function interruptedIngestText({ file, added, notAdded }: InterruptedIngest, command: string): string {
  return added.length === 0 && notAdded.length === 1
    ? `ragent restarted while ingesting ${file}; nothing was added — run ${command} again.`
    : `ragent restarted while ingesting ${file}; not added: ${notAdded.join(', ')}` +
        (added.length > 0 ? ` (added before the restart: ${added.join(', ')})` : '') +
        ` — run ${command} again for ${notAdded.length === 1 ? 'it' : 'those'}.`;
}

export const emptyQuestionText =
  'Ask me a question after the mention, e.g. “@ragent how do I loop over files in bash?” I answer from the documents added with /ragent ingest.';

/** How a platform's people refer to its places and commands (the words around them are shared). */
export interface PlatformTerms {
  /** `this workspace`, `this server`. */
  place: string;
  /** Who else may remove a document: `a workspace admin`, `a member with the Manage Server permission`. */
  admin: string;
  /** The commands as people type them (the platform formats them as code). */
  ingestCommand: string;
  docsCommand: string;
  forgetCommand: string;
  /** Linking a channel to another channel's set. */
  useCommand: string;
  /** Moving a document between this channel's set and the workspace's/server's. */
  moveCommand: string;
  /** For commands (defaults: `place` without `this`; `admin`; `admins`; `group`): `server`,
   * `a member with Manage Server`, `Manage Channels` (in descriptions), `role` (a group a mention names). */
  placeName?: string;
  placeAdmin?: string;
  channelAdmin?: string;
  placeRole?: string;
  channelRole?: string;
  groupName?: string;
  /** `/ragent autoanswer` as the status line shows it, and with its on/off argument. */
  autoAnswerCommand?: string;
  autoAnswerUsage?: string;
  /** Said after auto-answer is on where the bot cannot read messages that do not mention it. */
  cannotReadUnmentionedText?: string;
}

/** How to continue after a clarifying question. */
export function clarificationHint(readsEveryReply: boolean): string {
  return readsEveryReply
    ? 'Reply in this thread to continue. No need to mention me.'
    : 'Reply to this message (or mention me) to continue.';
}

export function noDocumentsText(terms: PlatformTerms): string {
  return `No documents yet. Add files or web pages with ${terms.ingestCommand}.`;
}

/** `name` as the platform formats it. */
export function forgetDeniedText(name: string, terms: PlatformTerms): string {
  return `Only the person who added ${name} or ${terms.admin} can remove it.`;
}

/** `name` as the platform formats it. */
export function removedText(name: string, pages: number, set: DocumentSet): string {
  return `Removed ${name} (${count(pages, 'page')}) from ${setTitle(set).toLowerCase()}'s documents. It is no longer searched.`;
}

/** `name` as the platform formats it. */
export function moveDeniedText(name: string, terms: PlatformTerms): string {
  return `Only the person who added ${name} or ${terms.admin} can move it.`;
}

/** What a move did; `name` as the platform formats it. */
export function movedText(name: string, from: DocumentSet, to: DocumentSet, cleanUpPending: boolean): string {
  const reach =
    to.kind === 'place'
      ? `Every channel of this ${to.place} searches it now.`
      : 'Only this channel searches it now (and channels that use its documents).';
  const pending = cleanUpPending
    ? ` It is no longer searched in ${setName(from)}; removing what is left of the old copy failed and is retried automatically.`
    : '';
  return `Moved ${name} from ${setName(from)} to ${setName(to)}. ${reach}${pending}`;
}

/** `name` as the platform formats it. */
export function moveTakenText(name: string, to: DocumentSet): string {
  return `${setTitle(to)} already has a document named ${name} (or the same file under another name). Nothing was moved: forget one of the two first, then move again.`;
}

/** `this channel's documents`, `this workspace's documents` (error sentences name sets so too). */
export function setName(set: DocumentSet): string {
  return `${setTitle(set).toLowerCase()}'s documents`;
}

/** Which set a document list groups under, as the platform names its places (`workspace`, `server`). */
export type DocumentSet = { kind: 'channel' | 'linked' | 'place' | 'shared'; place: string };

export function setTitle(set: DocumentSet): string {
  switch (set.kind) {
    case 'channel':
      return 'This channel';
    case 'linked':
      return 'Linked channels';
    case 'place':
      return `This ${set.place}`;
    case 'shared':
      return 'Shared';
  }
}

export const documentSetsIntro = 'A question here searches these documents:';

/** `channel` as the platform formats a channel mention. */
export function linkedText(channel: string, added: boolean): string {
  return added
    ? `This channel now also searches the documents of ${channel}. Undo with unuse.`
    : `This channel already searches the documents of ${channel}.`;
}

export function unlinkedText(channel: string, removed: boolean): string {
  return removed
    ? `This channel no longer searches the documents of ${channel}.`
    : `This channel did not use the documents of ${channel}.`;
}

export function linkDeniedText(admin: string): string {
  return `Only ${admin} can link channels.`;
}

/** An "ingest" message without a file attached. */
export const ingestHintText =
  'Attach the files (PDF, Office, CSV, HTML, e-mail or images) to the message that says “ingest”, or use `/ragent ingest`.';

/** The ingest command with neither a file nor a web address; `given`: what was typed for the address. */
export function nothingToIngestText(given: string, terms: PlatformTerms): string {
  return given
    ? `${given.slice(0, 200)} is not a web address: give one starting with http:// or https://.`
    : `Give a file to add, or the address of a web page: ${terms.ingestCommand}.`;
}

export const unreadableReplyText =
  "I can't read replies that don't mention me. Reply again with the mention (or keep the reply ping on).";

export const guildOnlyText = 'Documents belong to a server: use this command in a server channel.';

/** The help, one line per topic (the platform adds bullets and bold to each `[topic, text]`). */
export function helpTopics(terms: PlatformTerms, readsEveryReply: boolean): Array<[string, string]> {
  return [
    ['Ask', `mention me with a question — @ragent how do I …? I answer in a thread, with the sources.`],
    [
      'Follow up',
      readsEveryReply
        ? 'keep writing in the thread; if I ask you something back, just reply.'
        : 'in the thread, mention me or reply to one of my messages; if I ask you something back, reply to it.',
    ],
    [
      'Document sets',
      `each channel has its own documents: a question in a channel searches that channel's, ${terms.place}'s and the shared ones — never another channel's.`,
    ],
    ['Add documents', `${terms.ingestCommand} — for this channel only, or for all of ${terms.place}.`],
    ['List documents', `${terms.docsCommand} — what this channel searches, by set.`],
    ['Link channels', `${terms.useCommand} — this channel also searches that channel's documents (admins).`],
    ['Remove one', `${terms.forgetCommand} — the person who added it, or ${terms.admin}.`],
    [
      'Move one',
      `${terms.moveCommand} — between this channel's documents and ${terms.place}'s (the person who added it, or ${terms.admin}).`,
    ],
    ['Feedback', 'use 👍 / 👎 under an answer.'],
    [
      'Ask privately',
      '`/ragent ask` with your question — only you see the answer (and your next one continues it); its Share button posts it in the channel.',
    ],
  ];
}

export const helpIntro = (terms: PlatformTerms) =>
  `ragent answers questions from the documents added to ${terms.place}.`;

export function feedbackThanksText(value: 'up' | 'down'): string {
  return value === 'up' ? 'Thanks — glad it helped.' : 'Thanks — noted. Rephrasing the question often helps.';
}

export function count(value: number, word: string): string {
  return `${value.toLocaleString('en-US')} ${word}${value === 1 ? '' : 's'}`;
}

function shorten(text: string): string {
  const single = text.replace(/\s+/g, ' ').trim();
  return single.length <= maxQueryLength ? single : `${single.slice(0, maxQueryLength - 1)}…`;
}

/** A chat's report (Slack's Home tab, Discord's `/ragent-report`): its title, for a window of days. */
export function chatReportTitle(days: number, place: string): string {
  return `What ${place} asked in the last ${days === 1 ? '24 hours' : `${days} days`}`;
}

export function chatReportTotalsText(totals: {
  questions: number;
  answered: number;
  notFound: number;
  clarified: number;
  failed: number;
  thumbsUp: number;
  thumbsDown: number;
  handedOff?: number;
}): string {
  return [
    count(totals.questions, 'question'),
    `${totals.answered} answered`,
    `${totals.notFound} not found`,
    `${totals.clarified} clarified`,
    `${totals.failed} failed`,
    `👍 ${totals.thumbsUp}`,
    `👎 ${totals.thumbsDown}`,
    ...(totals.handedOff ? [`${totals.handedOff} handed off`] : []),
  ].join(' · ');
}

export const chatReportUnansweredTitle = 'Unanswered (not found or 👎), newest first';
export const chatReportNoUnansweredText = 'No question went unanswered.';
export const chatReportUncitedTitle = 'Documents no answer cited';
export const chatReportNoUncitedText = 'Every document was cited at least once.';
export const chatReportPastRetentionText = '(question text past retention)';
export const chatReportMoreText = (more: number) => `…and ${more} more: run \`ragent report\` for all.`;

/** Why a 👎 or a miss: the report's reason, in words. */
export function chatReportReason(reason: string): string {
  return reason === 'not-found' ? 'not found' : `👎 ${reason === 'thumbs-down' ? '' : reason}`.trim();
}

/** Verified answers whose source document was forgotten or changed: still served, to fix or remove. */
export const chatReportStaleText = (stale: number) =>
  `⚠️ ${count(stale, 'verified answer')} ${stale === 1 ? 'cites' : 'cite'} a document since forgotten or changed: see \`ragent answers list\`.`;

/** `/ragent autoanswer on|off`: what the channel does now (`channel`: how the platform shows it). */
export function autoAnswerSetText(channel: string, on: boolean, changed: boolean): string {
  const already = changed ? '' : ' (it already was)';
  return on
    ? `Auto-answer is on in ${channel}${already}: I answer questions posted there in a thread, without a mention.`
    : `Auto-answer is off in ${channel}${already}: I answer only when mentioned.`;
}
export const autoAnswerUsageText = (command: string) =>
  `Use ${command}: when on, I answer questions posted in this channel in a thread, without a mention.`;
export const autoAnswerDeniedText = (admin: string) => `Only ${admin} can turn auto-answer on or off.`;
export const autoAnswerNotHereText = 'Auto-answer works in channels, not in direct messages.';
/** The line `/ragent docs` and `/ragent help` show for the channel. */
export const autoAnswerStatusText = (on: boolean, command: string) =>
  on
    ? `Auto-answer: on — questions posted here are answered in a thread without a mention (${command} off to stop).`
    : `Auto-answer: off (admins: ${command} on answers questions posted here without a mention).`;
export const autoAnswerUnknownChannelText =
  'I cannot find that channel here: pick a text channel, forum or announcement channel of this server.';
/** Private answers (`/ragent ask`): only the asker sees them until they share one. */
export const privateWorkingText = 'Working on your private answer…';
export const askEmptyText = 'What is your question? Type it after `ask`; only you will see the answer.';
export const shareButtonText = 'Share';
export const privateAnswerFooterText =
  'Only you can see this answer. Share posts it, with your question, in the channel. Your next private question continues this conversation.';
export const privateClarificationFooterText =
  'Only you can see this. Answer with another private question; it continues this conversation.';
export const sharedNoteText = 'You shared this answer in the channel.';
export const alreadySharedText = 'This answer was already shared in the channel.';
export const shareNotYoursText = 'Only the person who asked can share this answer.';
export const shareGoneText =
  'This answer is no longer available to share (answers can be shared for a day). Ask again to share a new one.';
export function shareFailedText(reason: string): string {
  return `I could not share the answer: ${reason}`;
}
/** The credit line of a shared answer; `asker` is already formatted by the platform (never a ping). */
export function askedText(asker: string, question: string): string {
  return `${asker} asked: ${question}`;
}
/** Lines a chat may rotate through while an answer is being worked on (a rotating loading indicator). */
export const loadingLines = [
  'Reading the question…',
  'Searching your documents…',
  'Reading the sections that match…',
  'Checking what the documents say…',
];

/** The title of an answer's plan: the sub-questions it is answered in. */
export const planTitle = (steps: number) => `Answering in ${steps} parts`;

/** What a sub-question read, shown under its step when done (names as they are, never pings). */
export function stepReadText(names: readonly string[]): string {
  return names.length === 0 ? 'Nothing in the documents matched.' : `Read ${names.join(', ')}`;
}

/** Suggested prompts, where a chat offers them when a conversation with ragent starts. */
export const suggestedPromptsTitle = 'Try asking';
export const suggestedPromptTitle = (document: string) => `What does ${document} cover?`;
export const suggestedPromptMessage = (document: string) =>
  `What does ${document} say? Give me its main points.`;
/** The status while a file attached to a question is read (into the thread's own files). */
export function readingFileText(name: string): string {
  return `Reading ${name}…`;
}

/** Said before the answer when a file attached to the question could not be read. */
export function unreadFileText(name: string, reason: string): string {
  return `I could not read ${name}: ${reason} I answered from the channel's documents without it.`;
}
/** "Ask ragent" on a message: told only to the person who chose it, while the answer goes to the thread. */
export const askInThreadText = 'Answering in the thread.';
/** "Verify", "Ask a person" and 👎 reasons on an answer (docs/operators.md). */
export const verifyButtonLabel = 'Verify';
export const askPersonButtonLabel = 'Ask a person';
/** What stands in for an answer the model left empty. */
export const emptyAnswerText = '(empty answer)';
/** 👍/👎 under an answer, and what a screen reader says for each. */
export const voteLabels = { up: '👍', down: '👎' } as const;
export const voteDescriptions = { up: 'Helpful', down: 'Not helpful' } as const;
export function verifyDeniedText(admin: string): string {
  return `Only ${admin} can verify answers. Nothing was changed.`;
}
/** Shown on the verified answer itself: a name, never a mention. */
export const verifiedByText = (name: string) => `✅ Verified by ${name}`;
export const verifiedConfirmText =
  'Verified: a question in this channel that means the same now gets this answer at once (`ragent answers list` shows it).';
export const verifyUnknownText =
  'I have no record of this answer any more, so it cannot be verified here; `ragent answers add` can add it.';
export const verifyInDirectMessageText =
  'Answers are verified for a channel’s documents: verify one in a channel, or use `ragent answers add`.';
/** The one hand-off line of a thread (`mention` is the platform's mention of the group, role or person). */
export const handOffText = (mention: string) => `A person from ${mention} will follow up.`;
export const handOffUnsetText =
  'Nobody is set up to follow up here yet: an admin can choose who with `/ragent handoff @group`.';
export const handOffAlreadyText = 'A person was already asked to follow up in this thread today.';
export const handOffAskedText = 'Done: a person will follow up in this thread.';
export const handOffUsageText =
  'Who should follow up on missed questions here? Use `/ragent handoff @group` (a user group, role or person), or `/ragent handoff off` to go back to the default.';
export function handOffDeniedText(admin: string): string {
  return `Only ${admin} can choose who follows up.`;
}
export const handOffSetText = (mention: string) =>
  `From now on, when an answer here gets 👎 or is not found, ${mention} is asked to follow up (once per thread a day).`;
export const handOffClearedText = (fallback: string | undefined) =>
  fallback
    ? `This channel uses the default again: ${fallback} follows up.`
    : 'This channel has no one to follow up any more.';
export const feedbackReasonPrompt = 'Thanks — noted. What was wrong with it? (optional, one click)';
export const feedbackReasonLabels: Record<FeedbackReason, string> = {
  wrong: 'Wrong',
  outdated: 'Outdated',
  incomplete: 'Incomplete',
  'not-what-i-asked': 'Not what I asked',
  other: 'Other…',
};
export const feedbackReasonTitle = 'What was wrong?';
export const feedbackCommentLabel = 'Tell us what was wrong (optional)';
export const feedbackReasonThanks = 'Thanks — your reason was saved for the people who keep the documents.';

/** A chat command this version does not know (the platform still shows an older one): how to update them. */
export const unknownCommandText = (register: string) =>
  `Unknown command. Run \`${register}\` again to update the commands.`;
/** "Ask ragent" on a message that is not a question: told only to the person who chose it. */
export const askEmptyMessageText = 'That message has no text to answer. Choose a message with a question.';
export const askOwnMessageText = 'That is my own message: reply in its thread to ask me about it.';
/** A platform's refusal, when it gives a code (`not_in_channel`). */
export const platformSaidText = (platform: string, code: string) => `${platform} said ${code}.`;

/** Chat commands (src/commands/): what a command picker shows, by command and `command.argument`. */
export function commandDescriptions(terms: PlatformTerms) {
  const { place } = terms;
  const placeName = terms.placeName ?? place.replace(/^this\s+/, '');
  const placeRole = terms.placeRole ?? 'admins';
  const channelRole = terms.channelRole ?? placeRole;
  const linkRoles = channelRole === placeRole ? placeRole : `${channelRole} or ${placeRole}`;
  const documentName = 'The file name (or id) of the document, as /ragent docs lists it';
  const linked = `A channel of ${place}`;
  return {
    ragent: `Ask and manage ${place}'s documents`,
    thisChannel: 'this channel',
    wholePlace: `the whole ${placeName}`,
    ingest: `Add a file or web page to this channel's or ${place}'s documents`,
    'ingest.file': 'The file to add (PDF, Office, CSV, HTML, e-mail, image…)',
    'ingest.url': 'A web page to add (an http or https address)',
    'ingest.for': `Who can search it: this channel or the whole ${placeName} (default set by the bot owner)`,
    docs: 'List the documents this channel can search, by set',
    forget: `Remove a document from this channel's or ${place}'s documents`,
    'forget.name': documentName,
    move: `Move a document between this channel's documents and ${place}'s`,
    'move.name': documentName,
    'move.to': `Where it goes: this channel only, or the whole ${placeName}`,
    use: `Also search another channel's documents here (${linkRoles})`,
    'use.channel': linked,
    unuse: "Stop searching another channel's documents here",
    'unuse.channel': linked,
    help: 'How to use ragent',
    autoanswer: `Answer questions posted in a channel or forum without a mention (${channelRole})`,
    'autoanswer.state': 'on: questions posted there are answered in a thread (a forum: in the post)',
    'autoanswer.channel': 'The channel or forum (default: this channel; in a thread or post, its parent)',
    ask: 'Ask privately: only you see the answer, until you share it',
    'ask.question': 'Your question',
    handoff: `Who follows up on missed answers here (${placeRole}); no target: back to the default`,
    'handoff.target': `A ${terms.groupName ?? 'group'} or a person`,
    report: `What ${place} asked ragent, what it missed, and documents no answer cited`,
    'report.days': 'How many days back (default 7)',
  };
}

/** Chat commands' usage hints: what to type when an argument is missing or not understood. */
export const forgetUsageText = (terms: PlatformTerms) =>
  `Which document? Use ${terms.forgetCommand}; ${terms.docsCommand} lists them.`;
export const moveUsageText = (terms: PlatformTerms) =>
  `Which document, and where to? Use ${terms.moveCommand}; ${terms.docsCommand} lists the documents.`;
export const useUsageText = (terms: PlatformTerms) =>
  `Which channel? Use ${terms.useCommand} and pick the channel from the list.`;
export const useHereText = 'Use this command in the channel that should search more.';
export const handOffHereText = 'Use this command in the channel whose questions should be followed up.';
/** `command`: the word typed, as the platform shows it. */
export const unknownSubcommandText = (command: string, help: string) =>
  `I don’t know ${command}. To ask a question, mention me in a channel.\n\n${help}`;
export const helpLineText = '`/ragent help` — this message.';
/** A document in a list; `name`, `by` (who added it, never a ping) and `id` as the platform formats them. */
export function documentLineText(
  name: string,
  pages: number,
  by: string | undefined,
  day: string,
  id: string,
) {
  return `• ${name} — ${count(pages, 'page')}, added${by ? ` by ${by}` : ''} on ${day} · ${id}`;
}
export const moreLinesText = (lines: number) => `… and ${lines} more lines.`;
/** The end of an answer's sources where the rest do not fit. */
export const moreSourcesText = (sources: number) => `… and ${sources} more`;
/** A button that shows the report for another window of days. */
export const chatReportWindowLabel = (days: number) => (days === 1 ? '24 h' : `${days} d`);
/** The buttons of a small form (a 👎 reason in the person's own words). */
export const formSendLabel = 'Send';
export const formCancelLabel = 'Cancel';

/** A thread started for a question with no words to name it by (a file alone, only formatting). */
export const untitledQuestionText = (author: string) => `Question from ${author}`;

/** The form that collects files to ingest (`place`: `workspace`, `server`). */
export const ingestFormText = {
  title: 'Add documents',
  submit: 'Ingest',
  cancel: 'Cancel',
  files: 'Files',
  noFiles: 'Attach at least one file.',
  target: (defaultLabel: string) => `Who can search them? (default: ${defaultLabel.toLowerCase()})`,
  targets: (place: string) => ({ channel: 'This channel only', workspace: `The whole ${place}` }),
  inChannel: (place: string) =>
    `Questions in this channel search its own documents, the ${place}’s and the shared ones. Progress is posted in the channel.`,
  inDirectMessage: (place: string) =>
    `They become searchable for everyone in this ${place}. Progress is posted here.`,
};
/** Marks the last part of an answer while it is still being written (streamed by edits). */
export const stillWritingText = 'writing…';
