/**
 * Which document set a chat upload goes to: the channel's own set or the whole workspace's/server's.
 * The user picks it in the form or the command option; a file shared with "@ragent ingest" goes to
 * the default (`RAGENT_INGEST_DEFAULT_SET`) unless the message says otherwise ("ingest for
 * workspace", "for server", "for everyone" — or "for this channel"). A DM has no channel set.
 */
export type IngestTarget = 'channel' | 'workspace';

const workspaceWords = /\bfor\s+(?:the\s+)?(?:whole\s+)?(?:workspace|server|everyone|everybody|all)\b/i;
const channelWords = /\bfor\s+(?:this\s+|the\s+)?channel\b/i;

export function ingestTargetFromText(text: string, fallback: IngestTarget): IngestTarget {
  if (workspaceWords.test(text)) return 'workspace';
  if (channelWords.test(text)) return 'channel';
  return fallback;
}

/** Reads a form or option value; anything else is the default. */
export function parseIngestTarget(value: string | null | undefined, fallback: IngestTarget): IngestTarget {
  if (value === 'channel') return 'channel';
  if (value === 'workspace' || value === 'server') return 'workspace';
  return fallback;
}
