/**
 * Ids as values: thread, channel and scope ids are stored and passed as strings (`ThreadId`,
 * `Scope`), but built and read only here, from their parts. An id is its platform's name and the
 * platform's own ids, joined by `:` — `slack:<team>:<channel>:<thread ts>`, `discord:<guild>:<thread>`,
 * scopes `slack:<team>` and `slack:<team>:<channel>`. A part may itself hold a `:` (Microsoft Teams
 * and Matrix ids do), so each part is percent-escaped: `%` as `%25`, `:` as `%3A`, nothing else.
 *
 * Every id written before this codec (Slack and Discord ids hold neither `%` nor `:`) is already a
 * valid encoding of the same parts, so stored thread ids, scopes, links and checkpoints keep working
 * unchanged: nothing had to be migrated.
 */
import { type Scope, sharedScope, type ThreadId } from './types.ts';

/** An id taken apart: the platform's name and its own ids, in order. */
export interface IdParts {
  platform: string;
  parts: readonly string[];
}

/** Where a scope's documents belong: everyone, a workspace/server, or one of its channels. */
export type ScopeValue =
  | { kind: 'shared' }
  | { kind: 'place'; platform: string; place: string }
  | { kind: 'channel'; platform: string; place: string; channel: string };

const separator = ':';

function escapePart(part: string): string {
  return part.replaceAll('%', '%25').replaceAll(':', '%3A');
}

/**
 * Only the two escapes this codec writes are read back; any other `%` is kept as it is, so an id
 * written before the codec reads as it did.
 */
function unescapePart(part: string): string {
  return part.replace(/%(25|3A)/gi, (sequence) => (sequence === '%25' ? '%' : ':'));
}

/** `platform:part:part…`, each piece escaped. */
export function encodeId(platform: string, parts: readonly string[]): string {
  return [platform, ...parts].map(escapePart).join(separator);
}

/** The platform and parts of an id made by `encodeId` (or written before it). */
export function decodeId(id: string): IdParts {
  const [platform = '', ...parts] = id.split(separator).map(unescapePart);
  return { platform, parts };
}

export function encodeThreadId(thread: IdParts): ThreadId {
  return encodeId(thread.platform, thread.parts);
}

/** The parts of `threadId` if it is `platform`'s, with exactly `count` parts, none empty. */
export function threadParts(threadId: ThreadId, platform: string, count: number): string[] | undefined {
  const decoded = decodeId(threadId);
  if (decoded.platform !== platform || decoded.parts.length !== count) return undefined;
  return decoded.parts.every((part) => part.length > 0) ? [...decoded.parts] : undefined;
}

export function encodeScope(scope: ScopeValue): Scope {
  switch (scope.kind) {
    case 'shared':
      return sharedScope;
    case 'place':
      return encodeId(scope.platform, [scope.place]);
    case 'channel':
      return encodeId(scope.platform, [scope.place, scope.channel]);
  }
}

/** What `scope` is; undefined for a form no platform writes (an empty part, too many parts). */
export function decodeScope(scope: Scope): ScopeValue | undefined {
  if (scope === sharedScope) return { kind: 'shared' };
  const { platform, parts } = decodeId(scope);
  // A thread's own files are no set of any workspace, server or channel.
  if (platform === threadFilesPrefix) return undefined;
  if (!platform || parts.some((part) => part.length === 0)) return undefined;
  const [place, channel] = parts;
  if (parts.length === 1 && place) return { kind: 'place', platform, place };
  if (parts.length === 2 && place && channel) return { kind: 'channel', platform, place, channel };
  return undefined;
}

export function placeScope(platform: string, place: string): Scope {
  return encodeScope({ kind: 'place', platform, place });
}

export function channelScope(platform: string, place: string, channel: string): Scope {
  return encodeScope({ kind: 'channel', platform, place, channel });
}

/** The workspace's/server's scope of a place or channel scope; undefined for `shared` and others. */
export function placeOfScope(scope: Scope): Scope | undefined {
  const value = decodeScope(scope);
  if (!value || value.kind === 'shared') return undefined;
  return placeScope(value.platform, value.place);
}

/**
 * The scope of the files attached to questions in one thread: `thread:<thread id>` (the thread id
 * escaped whole, so it is one part). It belongs to no workspace, server or channel — no platform is
 * named `thread` — so no set, listing or report of a place ever holds it; only that thread's turns
 * search it (the runner adds it to their place).
 */
export function threadFilesScope(threadId: ThreadId): Scope {
  return encodeId(threadFilesPrefix, [threadId]);
}

/** Whether `scope` is a thread's own files (see `threadFilesScope`). */
export function isThreadFilesScope(scope: Scope): boolean {
  return decodeId(scope).platform === threadFilesPrefix;
}

const threadFilesPrefix = 'thread';
