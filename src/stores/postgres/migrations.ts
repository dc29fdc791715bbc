/**
 * ragent's own tables in PostgreSQL, as numbered migrations. Applied at start-up under one advisory
 * lock (with the LangGraph checkpointer's `setup()`), so replicas starting at once on an empty database
 * never race each other into duplicate-key errors. A migration's text never changes once released
 * (lock numbers in it are written out: `lockNamespace` below).
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
  // 4: per-thread order across replicas on the turn rows themselves (see postgres-thread-order.ts):
  // an answer turn is 'opening' (acknowledgement not shown yet), 'queued' (with what another replica
  // needs to answer it) or 'running'; a thread's oldest turn runs when no other turn of it runs.
  `ALTER TABLE ragent_turns_in_flight
     ADD COLUMN thread_id TEXT,
     ADD COLUMN position NUMERIC,
     ADD COLUMN state TEXT NOT NULL DEFAULT 'running' CHECK (state IN ('opening', 'queued', 'running')),
     ADD COLUMN answer JSONB;
   CREATE INDEX ragent_turns_in_flight_thread ON ragent_turns_in_flight (thread_id, position, key)
     WHERE thread_id IS NOT NULL;
   CREATE INDEX ragent_turns_in_flight_owner ON ragent_turns_in_flight (owner_incarnation);
   DROP TABLE ragent_thread_turns;
   -- Queues the turn (its status location and what is needed to answer it elsewhere) and marks it
   -- running if it is its thread's oldest turn and none of the thread runs. Under the thread's
   -- transaction lock, and each statement with a fresh snapshot (a volatile function), so two takers
   -- of one thread never both see it free. NULL when the row is gone or no longer this owner's.
   CREATE FUNCTION ragent_order_turn(p_key TEXT, p_incarnation INTEGER, p_location JSONB, p_answer JSONB)
   RETURNS TABLE (turn_state TEXT, turns_ahead INTEGER) LANGUAGE plpgsql VOLATILE AS $$
   DECLARE
     mine ragent_turns_in_flight%ROWTYPE;
     ahead INTEGER;
   BEGIN
     SELECT * INTO mine FROM ragent_turns_in_flight turn
       WHERE turn.key = p_key AND turn.owner_incarnation = p_incarnation;
     IF NOT FOUND OR mine.thread_id IS NULL THEN
       RETURN;
     END IF;
     PERFORM pg_advisory_xact_lock(72617002 /* lockNamespace.thread */, hashtext(mine.thread_id));
     SELECT count(*)::int INTO ahead FROM ragent_turns_in_flight other
       WHERE other.thread_id = mine.thread_id AND other.key <> p_key
         AND (other.state = 'running' OR (other.position, other.key) < (mine.position, mine.key));
     RETURN QUERY
       UPDATE ragent_turns_in_flight turn SET
         location = COALESCE(p_location, turn.location),
         answer = COALESCE(p_answer, turn.answer),
         state = CASE WHEN ahead = 0 THEN 'running' ELSE 'queued' END
       WHERE turn.key = p_key AND turn.owner_incarnation = p_incarnation
       RETURNING turn.state, ahead;
   END $$;
   -- Ends this owner's turn; if other turns of its thread wait, wakes them (NOTIFY ragent_thread_free).
   -- Under the thread's lock: a turn that queues after this look sees the turn gone itself.
   CREATE FUNCTION ragent_end_turn(p_key TEXT, p_incarnation INTEGER)
   RETURNS VOID LANGUAGE plpgsql VOLATILE AS $$
   DECLARE
     thread TEXT;
   BEGIN
     SELECT turn.thread_id INTO thread FROM ragent_turns_in_flight turn
       WHERE turn.key = p_key AND turn.owner_incarnation = p_incarnation;
     IF NOT FOUND THEN
       RETURN;
     END IF;
     IF thread IS NOT NULL THEN
       PERFORM pg_advisory_xact_lock(72617002 /* lockNamespace.thread */, hashtext(thread));
     END IF;
     DELETE FROM ragent_turns_in_flight turn WHERE turn.key = p_key AND turn.owner_incarnation = p_incarnation;
     IF thread IS NOT NULL AND EXISTS (SELECT 1 FROM ragent_turns_in_flight other WHERE other.thread_id = thread) THEN
       PERFORM pg_notify('ragent_thread_free', thread);
     END IF;
   END $$;
   -- Re-owns the turns of \`p_platform\` whose owner is dead (no liveness lock). Adoptions of one
   -- platform take turns (a transaction lock); the update then runs with a fresh snapshot, so it sees
   -- the previous adopter's new owners: each turn is adopted exactly once.
   CREATE FUNCTION ragent_adopt_turns(p_platform TEXT, p_incarnation INTEGER, p_owner TEXT)
   RETURNS SETOF ragent_turns_in_flight LANGUAGE plpgsql VOLATILE AS $$
   BEGIN
     PERFORM pg_advisory_xact_lock(72617004 /* lockNamespace.adoption */, hashtext(p_platform));
     RETURN QUERY
       WITH live AS MATERIALIZED (
         SELECT lock.objid::bigint AS incarnation FROM pg_locks lock
         WHERE lock.locktype = 'advisory' AND lock.granted AND lock.objsubid = 2
           AND lock.classid = 72617001 /* lockNamespace.liveness */::oid
           AND lock.database = (SELECT oid FROM pg_database WHERE datname = current_database()))
       UPDATE ragent_turns_in_flight turn SET owner = p_owner, owner_incarnation = p_incarnation
       WHERE turn.platform = p_platform AND turn.owner_incarnation <> p_incarnation
         AND turn.owner_incarnation NOT IN (SELECT incarnation FROM live)
       RETURNING turn.*;
   END $$;`,
  // 5: named settings per channel (auto-answer, hand-off groups …), beside its links.
  `CREATE TABLE ragent_channel_settings (
     channel_scope TEXT NOT NULL,
     name TEXT NOT NULL,
     value TEXT NOT NULL,
     PRIMARY KEY (channel_scope, name)
   );`,
  // 6: for operators (docs/operators.md): every turn with its outcome, indexed by time (the question
  // text is cleared after RAGENT_RETENTION_DAYS); verified answers per scope; a 👎's reason.
  `CREATE TABLE ragent_turn_history (
     id TEXT PRIMARY KEY,
     platform TEXT NOT NULL,
     scopes TEXT[] NOT NULL,
     thread_id TEXT NOT NULL,
     user_id TEXT NOT NULL,
     question TEXT NOT NULL,
     started_at TIMESTAMPTZ NOT NULL,
     duration_ms INTEGER NOT NULL,
     outcome TEXT NOT NULL,
     error_code TEXT,
     cited_documents JSONB NOT NULL,
     link TEXT
   );
   CREATE INDEX ragent_turn_history_started_at ON ragent_turn_history (started_at);
   CREATE TABLE ragent_verified_answers (
     id TEXT PRIMARY KEY,
     scope TEXT NOT NULL,
     question TEXT NOT NULL,
     answer TEXT NOT NULL,
     source JSONB,
     verified_by TEXT NOT NULL,
     verified_at TIMESTAMPTZ NOT NULL
   );
   CREATE INDEX ragent_verified_answers_scope ON ragent_verified_answers (scope, verified_at);
   ALTER TABLE ragent_feedback ADD COLUMN reason TEXT, ADD COLUMN comment TEXT;`,
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
  // 72_617_010 and 72_617_011: a platform's lease kind (its shard leases), declared by the platform.
  /** Key: a cluster-wide model-call slot (RAGENT_LLM_CLUSTER_CONCURRENCY). */
  llmSlot: 72_617_012,
} as const;
