/**
 * ragent's own tables in PostgreSQL, as numbered migrations. Applied at start-up under one advisory
 * lock (with the LangGraph checkpointer's `setup()`), so replicas starting at once on an empty database
 * never race each other into duplicate-key errors.
 */
export const migrations: readonly string[] = [
  `CREATE TABLE ragent_event_claims (
     key TEXT PRIMARY KEY,
     claimed_at TIMESTAMPTZ NOT NULL DEFAULT now()
   );
   CREATE INDEX ragent_event_claims_claimed_at ON ragent_event_claims (claimed_at);
   CREATE TABLE ragent_replicas (
     incarnation SERIAL PRIMARY KEY,
     replica_id TEXT NOT NULL,
     started_at TIMESTAMPTZ NOT NULL DEFAULT now()
   );
   CREATE TABLE ragent_turns_in_flight (
     key TEXT PRIMARY KEY,
     platform TEXT NOT NULL,
     kind TEXT NOT NULL CHECK (kind IN ('answer', 'ingest')),
     owner TEXT NOT NULL,
     owner_incarnation INTEGER NOT NULL,
     location JSONB NOT NULL,
     started_at BIGINT NOT NULL
   );
   CREATE INDEX ragent_turns_in_flight_platform ON ragent_turns_in_flight (platform, started_at);
   CREATE TABLE ragent_thread_turns (
     thread_id TEXT NOT NULL,
     turn_key TEXT NOT NULL,
     position NUMERIC NOT NULL,
     state TEXT NOT NULL CHECK (state IN ('queued', 'running', 'done')),
     owner_incarnation INTEGER NOT NULL,
     updated_at TIMESTAMPTZ NOT NULL DEFAULT now(),
     PRIMARY KEY (thread_id, turn_key)
   );
   CREATE INDEX ragent_thread_turns_open ON ragent_thread_turns (thread_id, position) WHERE state <> 'done';
   CREATE TABLE ragent_feedback (
     thread_id TEXT NOT NULL,
     answer_id TEXT NOT NULL,
     user_id TEXT NOT NULL,
     value TEXT NOT NULL CHECK (value IN ('up', 'down')),
     at TEXT NOT NULL,
     PRIMARY KEY (answer_id, user_id)
   );
   CREATE INDEX ragent_feedback_thread ON ragent_feedback (thread_id, at);`,
  // 2: a channel may also search other channels' document sets (/ragent use #channel).
  `CREATE TABLE ragent_channel_links (
     channel_scope TEXT NOT NULL,
     linked_scope TEXT NOT NULL,
     PRIMARY KEY (channel_scope, linked_scope)
   );`,
  // 3: what an answer was when it was delivered, for `ragent feedback export`.
  `CREATE TABLE ragent_answers (
     answer_id TEXT PRIMARY KEY,
     thread_id TEXT NOT NULL,
     question TEXT NOT NULL,
     answer TEXT NOT NULL,
     sources JSONB NOT NULL,
     link TEXT,
     at TEXT NOT NULL
   );`,
];

/** The schema version this code needs. */
export const schemaVersion = migrations.length;

/** Advisory lock keys (two-int form: namespace, key), one namespace per purpose. */
export const lockNamespace = {
  migrations: 72_617_000,
  liveness: 72_617_001,
  thread: 72_617_002,
  ingest: 72_617_003,
  adoption: 72_617_004,
  indexWrite: 72_617_005,
  /** Key: the Discord shard id; held by the replica connected to that shard. */
  discordShard: 72_617_010,
  /** Key: the incarnation; held by every replica taking part in leasing Discord shards. */
  discordShardMember: 72_617_011,
  /** Key: a cluster-wide model-call slot (RAGENT_LLM_CLUSTER_CONCURRENCY). */
  llmSlot: 72_617_012,
} as const;
