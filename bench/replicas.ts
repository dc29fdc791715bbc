/**
 * npm run bench:replicas
 * Several real `ragent start` processes (2, then 4) on one throwaway PostgreSQL behind one Slack app in
 * Socket Mode (the fake Slack sends each envelope to ONE random connection, as Slack does), with a
 * zero-latency fake model. For each replica count:
 * 1. A burst: 200 mentions over 100 threads (the mentions of a thread one after another, each to a
 *    random replica), 30 % of them delivered a second time to another replica (Slack's retry).
 *    Prints how many were answered exactly once, out-of-order turns (a thread's later message reaching
 *    the model before the earlier one's answer was delivered), event → first status p50/p99 and
 *    event → answer p50/p99, and PostgreSQL transactions per turn.
 * 2. A crash: one replica is answering 10 threads (its model held) with follow-ups queued behind them
 *    on the other replicas and on itself, while 40 more mentions arrive; it is killed with SIGKILL
 *    mid-burst. Prints how long until each of its threads was told "ask again", whether its queued
 *    follow-ups were answered by the others, what became of the burst, and what is left in the turn
 *    table.
 * Every replica runs with RAGENT_LLM_CONCURRENCY = BENCH_HELD + 4, so the victim's held answers all reach
 * the model.
 * Options: BENCH_REPLICAS (default "2,4"), BENCH_MENTIONS (200), BENCH_THREADS (100),
 * BENCH_REDELIVERED (0.3), BENCH_HELD (10), BENCH_CRASH_BURST (40).
 */
import { loadavg } from 'node:os';
import pg from 'pg';
import { messageTs } from '../test/fakes/fake-slack-events.ts';
import {
  type ReplicaCluster,
  replicaChannel,
  startReplicaCluster,
} from '../test/slack/slack-replicas-harness.ts';
import { startPostgresServer } from '../test/support/postgres-server.ts';

const replicaCounts = (process.env.BENCH_REPLICAS ?? '2,4').split(',').map(Number);
const mentionCount = Number(process.env.BENCH_MENTIONS ?? 200);
const threadCount = Number(process.env.BENCH_THREADS ?? 100);
const redeliveredShare = Number(process.env.BENCH_REDELIVERED ?? 0.3);
const heldCount = Number(process.env.BENCH_HELD ?? 10);
const crashBurst = Number(process.env.BENCH_CRASH_BURST ?? 40);
const waitMs = 300_000;

/** Stopped on Ctrl-C / SIGTERM too: never leave replicas or the PostgreSQL behind. */
const cleanups = new Set<() => Promise<unknown>>();
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    void Promise.allSettled([...cleanups].map((cleanup) => cleanup())).then(() => process.exit(130));
  });
}

function percentile(values: number[], fraction: number): number {
  const sorted = [...values].sort((left, right) => left - right);
  return sorted[Math.min(sorted.length - 1, Math.ceil(fraction * sorted.length) - 1)] ?? Number.NaN;
}

const figures = (values: number[]) =>
  values.length === 0
    ? 'no samples'
    : `p50 ${percentile(values, 0.5)} ms, p99 ${percentile(values, 0.99)} ms, max ${Math.max(...values)} ms (${values.length})`;

const load = () =>
  loadavg()
    .map((value) => value.toFixed(1))
    .join(' / ');

async function until(condition: () => boolean | Promise<boolean>, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return true;
}

interface Mention {
  question: string;
  rootTs: string;
  ts: string;
  sentAt: number;
}

async function main(): Promise<void> {
  console.log(`ragent replicas bench — load average at start ${load()} (1 / 5 / 15 min)`);
  // pg_stat_statements: which statements a turn costs, printed under the transactions per turn.
  const server = await startPostgresServer(['shared_preload_libraries=pg_stat_statements']);
  cleanups.add(server.stop);
  console.log(`throwaway PostgreSQL started in ${server.startMilliseconds} ms`);
  try {
    for (const replicas of replicaCounts) await measure(server.url, replicas);
  } finally {
    cleanups.delete(server.stop);
    await server.stop();
  }
  console.log(`load average at the end ${load()}`);
}

async function measure(serverUrl: string, replicaTotal: number): Promise<void> {
  const name = `bench_${replicaTotal}_${Date.now()}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const statistics = new pg.Client({ connectionString: serverUrl.replace(/\/postgres$/, `/${name}`) });
  await statistics.connect();
  await statistics.query('CREATE EXTENSION pg_stat_statements');
  await statistics.end();
  const databaseUrl = serverUrl.replace(/\/postgres$/, `/${name}`);
  // The victim keeps `heldCount` answers at the model at once: allow that many model calls per replica
  // (the default is 2; the fake model answers any number at once, in no time).
  const cluster = await startReplicaCluster({
    databaseUrl,
    ackTimeoutMs: 60_000,
    environment: { RAGENT_LLM_CONCURRENCY: String(Math.max(2, heldCount + 4)) },
  });
  cleanups.add(cluster.close);
  try {
    console.log(`\n== ${replicaTotal} replicas ==`);
    const names = Array.from({ length: replicaTotal }, (_unused, index) => `r${index + 1}`);
    const starting = Date.now();
    await Promise.all(names.map((each) => cluster.start(each)));
    console.log(`${replicaTotal} replicas started together in ${Date.now() - starting} ms`);
    // Warm up every replica once (module loading, first statements).
    await Promise.all(
      names.map(async (each) => {
        const { ts } = await cluster.mention(`warm up ${each}`, { to: each });
        await cluster.waitForReplies(ts, 1, waitMs);
      }),
    );
    await burst(cluster, replicaTotal);
    await crash(cluster, names);
  } finally {
    cleanups.delete(cluster.close);
    await cluster.close();
  }
}

async function burst(cluster: ReplicaCluster, replicaTotal: number): Promise<void> {
  const perThread = Math.max(1, Math.round(mentionCount / threadCount));
  const [transactionsBefore] = await cluster.query<{ count: string }>(
    'SELECT xact_commit + xact_rollback AS count FROM pg_stat_database WHERE datname = current_database()',
  );
  await cluster.query('SELECT pg_stat_statements_reset()');
  const threads: Mention[][] = [];
  let redelivered = 0;
  const started = Date.now();
  await Promise.all(
    Array.from({ length: threadCount }, async (_unused, thread) => {
      const rootTs = messageTs();
      const mentions: Mention[] = [];
      threads.push(mentions);
      for (let index = 0; index < perThread; index++) {
        const question = `B${replicaTotal}-T${thread}-M${index}: how do loops work?`;
        const ts = index === 0 ? rootTs : messageTs();
        const { envelope } = cluster.mentionEnvelope(question, {
          ts,
          ...(index > 0 ? { threadTs: rootTs } : {}),
        });
        const sentAt = Date.now();
        const first = await cluster.deliver(envelope);
        mentions.push({ question, rootTs, ts, sentAt });
        if (Math.random() < redeliveredShare) {
          redelivered++;
          await cluster.deliver(envelope, { retryAttempt: 1, avoid: first.replica });
        }
      }
    }),
  );
  const all = threads.flat();
  console.log(
    `burst: ${all.length} mentions over ${threadCount} threads, ${redelivered} delivered a second time to another replica, all acknowledged in ${Date.now() - started} ms`,
  );
  const complete = await until(
    () => all.every((mention) => cluster.answerIn(mention.rootTs, mention.question)),
    waitMs,
  );
  if (!complete) console.log('NOT every mention was answered within the wait');
  // A barrier per replica: anything still running for the burst has shown itself by now.
  await Promise.all(
    [...cluster.replicas.keys()].map(async (each) => {
      const { ts } = await cluster.mention(`barrier ${each}`, { to: each });
      await cluster.waitForReplies(ts, 1, waitMs);
    }),
  );

  let exactlyOnce = 0;
  let duplicated = 0;
  let unanswered = 0;
  const answerLatencies: number[] = [];
  for (const mention of all) {
    const answers = cluster
      .replies(mention.rootTs)
      .filter((message) => message.text.includes(`Answer to: ${mention.question}`));
    const runs = cluster.turnsRun(mention.question);
    if (answers.length === 1 && runs === 1) exactlyOnce++;
    else if (answers.length === 0) unanswered++;
    else duplicated++;
    const finished = answers[0] && cluster.finishedAt(answers[0]);
    if (finished) answerLatencies.push(finished - mention.sentAt);
  }
  let outOfOrder = 0;
  const statusLatencies: number[] = [];
  for (const mentions of threads) {
    for (const [index, later] of mentions.entries()) {
      if (index === 0) continue;
      const earlier = mentions[index - 1]!;
      const earlierAnswer = cluster.answerIn(earlier.rootTs, earlier.question);
      const earlierDone = earlierAnswer && cluster.finishedAt(earlierAnswer);
      const laterAsked = cluster.firstAskedAt(later.question);
      if (earlierDone === undefined || laterAsked === undefined || laterAsked < earlierDone) outOfOrder++;
    }
    // The k-th status shown in a thread belongs to its k-th mention (they arrive one after another).
    const rootTs = mentions[0]?.rootTs;
    const created = cluster.slack.calls
      .filter(
        (call) =>
          (call.method === 'chat.postMessage' || call.method === 'chat.startStream') &&
          call.body.channel === replicaChannel &&
          call.body.thread_ts === rootTs,
      )
      .map((call) => call.at)
      .sort((left, right) => left - right);
    for (const [index, mention] of mentions.entries()) {
      const at = created[index];
      if (at !== undefined) statusLatencies.push(at - mention.sentAt);
    }
  }
  await new Promise((resolve) => setTimeout(resolve, 1_500)); // statistics reach pg_stat_database
  const [transactionsAfter] = await cluster.query<{ count: string }>(
    'SELECT xact_commit + xact_rollback AS count FROM pg_stat_database WHERE datname = current_database()',
  );
  const turns = all.length + cluster.replicas.size;
  const transactions = Number(transactionsAfter?.count ?? 0) - Number(transactionsBefore?.count ?? 0);

  console.log(
    `answered exactly once: ${exactlyOnce}/${all.length} (duplicated: ${duplicated}, unanswered: ${unanswered})`,
  );
  await describeUnanswered(cluster, all);
  printLoggedErrors(cluster);
  console.log(`out-of-order turns: ${outOfOrder} of ${all.length - threads.length} follow-ups`);
  console.log(`event → first status in the thread: ${figures(statusLatencies)}`);
  console.log(`event → answer delivered: ${figures(answerLatencies)}`);
  console.log(
    `PostgreSQL transactions per turn (all of ragent's: claims, turn rows, order, checkpoints): ${(transactions / turns).toFixed(1)}`,
  );
  await printStatements(cluster, turns);
}

/** The statements the burst ran, most called first, as calls per turn (pg_stat_statements). */
async function printStatements(cluster: ReplicaCluster, turns: number): Promise<void> {
  const rows = await cluster.query<{ calls: string; query: string }>(
    `SELECT calls, query FROM pg_stat_statements
      WHERE dbid = (SELECT oid FROM pg_database WHERE datname = current_database())
      ORDER BY calls DESC LIMIT 25`,
  );
  console.log('  statements per turn (pg_stat_statements, most called first):');
  for (const row of rows) {
    const query = row.query.replace(/\s+/g, ' ').slice(0, 110);
    console.log(`  ${(Number(row.calls) / turns).toFixed(2).padStart(6)}  ${query}`);
  }
}

async function crash(cluster: ReplicaCluster, names: string[]): Promise<void> {
  const victim = names.at(-1)!;
  const survivors = names.slice(0, -1);
  const run = `K${names.length}`;
  const release = cluster.hold(`${run}-HOLD`);
  // Threads the victim is answering (the model holds them) …
  const held = await Promise.all(
    Array.from({ length: heldCount }, async (_unused, index) => {
      const question = `${run}-HOLD-${index}: what is a pipe?`;
      const { ts } = await cluster.mention(question, { to: victim });
      return { question, rootTs: ts };
    }),
  );
  await Promise.all(held.map(({ question }) => cluster.waitForModel(question.split(':')[0]!, waitMs)));
  // … with a follow-up queued behind each, on the other replicas, and on the victim itself for half.
  const followUps: Array<Mention & { onVictim: boolean }> = [];
  await Promise.all(
    held.map(async ({ rootTs }, index) => {
      const targets: Array<{ to?: string; avoid?: string }> = [{ avoid: victim }];
      if (index % 2 === 0) targets.push({ to: victim });
      for (const [position, target] of targets.entries()) {
        const question = `${run}-FOLLOW-${index}-${position}: and loops?`;
        const ts = messageTs();
        const { envelope } = cluster.mentionEnvelope(question, { ts, threadTs: rootTs });
        followUps.push({ question, rootTs, ts, sentAt: Date.now(), onVictim: target.to === victim });
        await cluster.deliver(envelope, target);
      }
    }),
  );
  const keys = followUps.map(({ ts }) => `slack:${cluster.slack.teamId}:${replicaChannel}:${ts}`);
  const queued = await until(
    async () =>
      (
        await cluster.query(
          "SELECT key FROM ragent_turns_in_flight WHERE key = ANY($1) AND state = 'queued'",
          [keys],
        )
      ).length === keys.length,
    60_000,
  );
  if (!queued) console.log('not every follow-up was queued before the kill');

  // Mid-burst: mentions keep arriving at random replicas while the victim dies.
  const burst: Mention[] = [];
  let killedAt = 0;
  const sending = (async () => {
    for (let index = 0; index < crashBurst; index++) {
      const question = `${run}-BURST-${index}: how do loops work?`;
      const { ts, envelope } = cluster.mentionEnvelope(question);
      burst.push({ question, rootTs: ts, ts, sentAt: Date.now() });
      await cluster.deliver(envelope);
    }
  })();
  await until(() => burst.length >= crashBurst / 2, waitMs);
  killedAt = Date.now();
  await cluster.kill(victim);
  await sending;

  const noticeOf = (rootTs: string) => cluster.notices(rootTs)[0];
  const told = await until(() => held.every(({ rootTs }) => noticeOf(rootTs)), 120_000);
  const noticeDelays = held
    .map(({ rootTs }) => {
      const notice = noticeOf(rootTs);
      return notice && cluster.finishedAt(notice) - killedAt;
    })
    .filter((value): value is number => value !== undefined);
  await until(() => followUps.every((each) => cluster.answerIn(each.rootTs, each.question)), 120_000);
  await until(
    () => burst.every((each) => cluster.answerIn(each.rootTs, each.question) || noticeOf(each.rootTs)),
    120_000,
  );
  release();
  await Promise.all(
    survivors.map(async (each) => {
      const { ts } = await cluster.mention(`${run} barrier ${each}`, { to: each });
      await cluster.waitForReplies(ts, 1, waitMs);
    }),
  );

  const noticesPerThread = held.map(({ rootTs }) => cluster.notices(rootTs).length);
  const toldBy = new Set(held.map(({ rootTs }) => noticeOf(rootTs)?.changedBy ?? '?'));
  const followUpsAnswered = followUps.filter((each) => cluster.answerIn(each.rootTs, each.question));
  const followUpsBy = new Set(
    followUpsAnswered.map((each) => cluster.answerIn(each.rootTs, each.question)?.changedBy),
  );
  let burstAnswered = 0;
  let burstTold = 0;
  let burstNeither = 0;
  let burstTwice = 0;
  const neither: Mention[] = [];
  for (const each of burst) {
    const answers = cluster
      .replies(each.rootTs)
      .filter((message) => message.text.includes(each.question)).length;
    const notices = cluster.notices(each.rootTs).length;
    if (answers + notices > 1) burstTwice++;
    else if (answers === 1) burstAnswered++;
    else if (notices === 1) burstTold++;
    else {
      burstNeither++;
      neither.push(each);
    }
  }
  const left = await cluster.turnsLeft();
  const leftStates = new Map<string, number>();
  for (const row of left) leftStates.set(row.state, (leftStates.get(row.state) ?? 0) + 1);

  console.log(
    `crash: SIGKILL of ${victim} while it answered ${held.length} threads, with ${followUps.length} follow-ups queued behind them (${followUps.filter((each) => each.onVictim).length} of them on ${victim} itself), ${crashBurst} mentions arriving meanwhile`,
  );
  console.log(
    `  its threads told "ask again": ${noticesPerThread.filter((count) => count === 1).length}/${held.length} exactly once${told ? '' : ' (NOT all within 120 s)'}, by ${[...toldBy].join(', ')}; kill → notice ${figures(noticeDelays)}; more than once: ${noticesPerThread.filter((count) => count > 1).length}`,
  );
  console.log(
    `  queued follow-ups answered: ${followUpsAnswered.length}/${followUps.length} (those queued on ${victim}: ${followUpsAnswered.filter((each) => each.onVictim).length}/${followUps.filter((each) => each.onVictim).length}), by ${[...followUpsBy].join(', ') || 'nobody'}`,
  );
  console.log(
    `  mentions arriving meanwhile: ${burstAnswered} answered, ${burstTold} told to ask again, ${burstNeither} neither, ${burstTwice} more than once`,
  );
  for (const mention of neither) {
    const key = `slack:${cluster.slack.teamId}:${replicaChannel}:${mention.ts}`;
    const claimed = await cluster.query('SELECT key FROM ragent_event_claims WHERE key = $1', [key]);
    const rows = await cluster.query('SELECT state, owner FROM ragent_turns_in_flight WHERE key = $1', [key]);
    console.log(
      `    neither: ${mention.question.split(':')[0]} — event claimed: ${claimed.length > 0}, turn rows ${JSON.stringify(rows)}, bot messages in its thread: ${cluster.botMessages(mention.rootTs).length}, model asked: ${cluster.turnsRun(mention.question)}`,
    );
  }
  console.log(
    `  left in ragent_turns_in_flight once all was answered: ${left.length === 0 ? 'nothing' : [...leftStates].map(([state, count]) => `${count} ${state}`).join(', ')}`,
  );
}

/** What became of mentions without an answer: the thread as Slack shows it and their turn rows. */
async function describeUnanswered(cluster: ReplicaCluster, mentions: Mention[]): Promise<void> {
  for (const mention of mentions.filter((each) => !cluster.answerIn(each.rootTs, each.question))) {
    const key = `slack:${cluster.slack.teamId}:${replicaChannel}:${mention.ts}`;
    const rows = await cluster.query(
      'SELECT state, owner, position FROM ragent_turns_in_flight WHERE key = $1',
      [key],
    );
    const thread = cluster
      .botMessages(mention.rootTs)
      .map((message) => `${message.changedBy}: ${message.text.slice(0, 80)}`);
    console.log(
      `  unanswered ${mention.question.split(':')[0]} (asked the model ${cluster.turnsRun(mention.question)} times): turn rows ${JSON.stringify(rows)}; thread: ${JSON.stringify(thread)}`,
    );
  }
}

/** What the replicas logged as errors (they run with LOG_LEVEL warn), each once. */
function printLoggedErrors(cluster: ReplicaCluster): void {
  const errors = new Set<string>();
  for (const replica of cluster.replicas.values()) {
    for (const line of replica.process.output().split('\n')) {
      if (/"level":(50|60)/.test(line)) errors.add(`${replica.name}: ${line.slice(0, 600)}`);
    }
  }
  console.log(`errors logged by the replicas: ${errors.size}`);
  for (const line of [...errors].slice(0, 10)) console.log(`  ${line}`);
}

await main();
process.exit(process.exitCode ?? 0);
