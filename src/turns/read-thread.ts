/**
 * Reading a thread the bot joins, for every platform: the pages walked up to the question and never
 * further than `maxPages` (a thread read from its start keeps only the newest `limit`; one read back
 * from the question stops once it has them), newest last; a message the thread was started from that
 * its pages do not hold put first while there is room; and each person named once per read, with
 * at most `maxLookups` lookups (further people, and failed lookups, keep the name the message gives);
 * the bot's own messages are ragent's, people's mentions of any id are their names (`nameMentions`).
 * A page the platform refuses to show says what to fix (the log shows it once: the turn goes on
 * without the thread). The platform gives one page at a time and how its messages read; the core then
 * caps, fits and makes them inert (`conversations/thread-context.ts`).
 */
import type { ThreadMessage } from '../core/types.ts';
import { RagentError } from '../errors.ts';

/** Which of a thread's messages are context. */
export interface ThreadWhere {
  /** Only messages before this one (the question); unset: the thread so far. */
  before?: string;
  /** A message that is not context: the question itself (asked on a thread's first message). */
  exclude?: string;
  /** Leave out the bot's own messages (read after the answer's status was posted, that is all they are). */
  skipOwn?: boolean;
}

export interface ThreadPages<Wire> {
  where: ThreadWhere;
  /** The message's id (unset: not a message), and whether the bot wrote it. */
  idOf(message: Wire): string | undefined;
  isOwn(message: Wire): boolean;
  /**
   * `oldest-first`: pages go forward from the thread's start, each naming the `next` one's cursor;
   * `newest-first`: back from the question, each read before the previous page's oldest message (the
   * cursor is that message's id, at first `where.before`) while pages come full.
   */
  readonly order: 'oldest-first' | 'newest-first';
  /** The largest page the platform serves. */
  readonly pageSize: number;
  /**
   * One page from `cursor` (unset: the first), its messages in `order`; oldest-first, the `next` page's
   * cursor, unset at the end.
   */
  page(
    cursor: string | undefined,
    size: number,
  ): Promise<{ messages: readonly Wire[]; next?: string | undefined }>;
  /** What to fix when `error` is the platform refusing to show the thread (its permissions); else undefined. */
  refusal(error: unknown): string | undefined;
  /** Whether the platform counts a message as context at all (e.g. not a system notice). */
  keep(message: Wire): boolean;
  /** The message the thread was started from: its id, and how to fetch it (when its pages do not hold it). */
  starter?: { id: string; fetch(): Promise<Wire | undefined> } | undefined;
  /** The message's parts as the platform gives them; `name` asks for a person's name (once per person per read). */
  read(message: Wire, name: NameOf): Promise<ThreadMessageParts> | ThreadMessageParts;
  /** A person's name from the platform (unset: none is asked); undefined or a failure keeps the fallback. */
  lookUpName?: ((person: string) => Promise<string | undefined>) | undefined;
}

/** A person's name, or `fallback` when it cannot (or may no longer) be looked up. */
export type NameOf = (person: string, fallback: string) => Promise<string>;

/** One message in the platform's terms; whether the bot wrote it is `isOwn`'s. */
export interface ThreadMessageParts {
  /** The author to look up by id (unset: `shown` as it is, e.g. an app's name, or one the message gives). */
  person?: string | undefined;
  /** The author's name as the message gives it, and the lookup's fallback. */
  shown: string;
  /** The text, people's mentions named (`nameMentions`). */
  text: string;
  at: Date;
}

/** How the bot's own messages and mentions of it read in a thread. */
const ownName = 'ragent';
const maxPages = 10;
const maxLookups = 50;

export async function readThread<Wire>(pages: ThreadPages<Wire>, limit: number): Promise<ThreadMessage[]> {
  const { where } = pages;
  const keep = (message: Wire) =>
    pages.idOf(message) !== undefined &&
    pages.idOf(message) !== where.exclude &&
    !(where.skipOwn && pages.isOwn(message)) &&
    pages.keep(message);
  const kept: Wire[] = [];
  const seen = new Set<string | undefined>();
  const backwards = pages.order === 'newest-first';
  let cursor = backwards ? where.before : undefined;
  for (let page = 0; page < maxPages; page += 1) {
    const room = backwards ? limit - kept.length : pages.pageSize;
    if (room <= 0) break;
    const size = Math.min(pages.pageSize, room);
    const { messages, next } = await pages.page(cursor, size).catch((error) => {
      const refusal = pages.refusal(error);
      throw refusal ? new RagentError('PERMISSION_DENIED', refusal, { cause: error }) : error;
    });
    for (const message of messages) seen.add(pages.idOf(message));
    for (const message of messages.filter(keep)) {
      if (backwards) kept.unshift(message);
      else if (kept.push(message) > limit) kept.shift();
    }
    const oldest = messages.at(-1);
    cursor = !backwards ? next : oldest && messages.length === size ? pages.idOf(oldest) : undefined;
    if (!cursor) break;
  }
  const { starter } = pages;
  if (kept.length < limit && starter && !seen.has(starter.id) && starter.id !== where.exclude) {
    const message = await starter.fetch();
    if (message && keep(message)) kept.unshift(message);
  }
  const name = namesOnce(pages.lookUpName);
  const read: ThreadMessage[] = [];
  for (const message of kept.slice(-limit)) {
    const { person, shown, text, at } = await pages.read(message, name);
    const fromBot = pages.isOwn(message);
    const author = fromBot ? ownName : person ? await name(person, shown) : shown;
    read.push({ author, text, fromBot, at: at.toISOString() });
  }
  return read;
}

/**
 * `text` with each mention `pattern` finds (its first group: the id) as `@name`: the bot's as
 * `@ragent`, anyone else's as `nameOf` gives it (asked once per id).
 */
export async function nameMentions(
  text: string,
  pattern: RegExp,
  botId: string,
  nameOf: (id: string) => Promise<string> | string,
): Promise<string> {
  const names = new Map<string, string>();
  for (const [, id = ''] of text.matchAll(pattern))
    if (!names.has(id)) names.set(id, id === botId ? ownName : await nameOf(id));
  return text.replace(pattern, (_all, id: string) => `@${names.get(id)}`);
}

function namesOnce(lookUp: ThreadPages<unknown>['lookUpName']): NameOf {
  const asked = new Map<string, Promise<string>>();
  return (person, fallback) => {
    if (!asked.has(person))
      asked.set(
        person,
        !lookUp || asked.size >= maxLookups
          ? Promise.resolve(fallback)
          : lookUp(person).then(
              (found) => found || fallback,
              () => fallback,
            ),
      );
    return asked.get(person)!;
  };
}
