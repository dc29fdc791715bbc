/** What start-up and the doctor say about how replicas share (or do not share) the index. */
import type { Config } from '../../config.ts';

export function sharedIndexWarning(config: Pick<Config, 'database' | 'qdrant'>): string | undefined {
  if (!config.database || config.qdrant) return undefined;
  return (
    'DATABASE_URL is set without QDRANT_URL: each replica keeps the embedded index in its own data directory, ' +
    'so a document ingested on one replica is only seen by replicas that share that data directory. ' +
    'For replicas on several hosts, set QDRANT_URL.'
  );
}
