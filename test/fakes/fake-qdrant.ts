/**
 * A fake Qdrant server speaking the REST wire protocol the real `@qdrant/js-client-rest` uses, enough
 * to store and return points for real: collections (create / get / exists / delete), payload indexes,
 * points (upsert / retrieve / delete / batch / scroll / count / delete vectors / set payload) and the Query API (nearest dense,
 * nearest sparse with the `idf` modifier, prefetch + `fusion: rrf`), with must / should / must_not
 * filters on `match` value / any / except and `has_id`.
 *
 * It CHECKS what it is sent and answers 400 with the reason (recorded in `violations`) when a body is
 * wrong: named vectors only, sparse vectors as integer `indices` with same-length `values`, dense
 * sizes as configured, sparse vectors with `modifier: idf`, and a `scope` filter on every query
 * (top level or on every prefetch).
 *
 * Like a real cluster it can misbehave on demand: `failRequest` fails the Nth request of a kind, after
 * applying none, all or only the first operations of a batch (Qdrant runs a batch's operations one
 * after another and never rolls back) — with `thenDown`, every later request too until `up()`, as when
 * the client died with that request in flight; `lag()` plays a replica that lags: reads without
 * `consistency=majority|all|quorum` see the collections as they were when it started lagging.
 * Every request's query parameters (`wait`, `ordering`, `consistency`) are recorded.
 */

import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

type Json = Record<string, unknown>;
type PointId = string | number;

interface SparseVector {
  indices: number[];
  values: number[];
}

interface StoredPoint {
  id: PointId;
  vector: Record<string, number[] | SparseVector>;
  payload: Json;
}

interface Collection {
  dense: Record<string, { size: number; distance: string }>;
  sparse: Record<string, { modifier?: string }>;
  points: Map<string, StoredPoint>;
  payloadIndexes: Map<string, unknown>;
}

export interface FakeQdrantRequest {
  method: string;
  path: string;
  body: unknown;
  /** URL query parameters, e.g. `{ wait: 'true', ordering: 'strong' }`. */
  query: Record<string, string>;
}

export interface RequestFailure {
  /** Requests whose path ends with this (any when omitted) … */
  suffix?: string;
  /** … and that this accepts (e.g. by method or query parameters) … */
  where?: (request: FakeQdrantRequest) => boolean;
  /** … let this many through first, then fail one (default 0: the next). */
  after?: number;
  /** HTTP status of the failure (default 500). */
  status?: number;
  /** What the failed request still changed: nothing (default), everything, or a batch's first N operations. */
  apply?: 'none' | 'all' | number;
  /**
   * Every later request fails too, changing nothing, until `up()`: the client died with this request
   * (a crash), or the server went away.
   */
  thenDown?: boolean;
}

export interface FakeQdrant {
  url: string;
  requests: FakeQdrantRequest[];
  /** Reasons of every 400 the fake answered (a correct client causes none). */
  violations: string[];
  /** Bodies sent to /points/query. */
  queries(): Json[];
  collection(name: string): Collection | undefined;
  /** The next `count` requests whose path ends with `suffix` (any when omitted) get HTTP `status`. */
  failNext(status: number, count?: number, suffix?: string): void;
  /** Fails one later request (see RequestFailure). */
  failRequest(failure: RequestFailure): void;
  /** From now on, reads without strong consistency see the collections as they are now. */
  lag(): void;
  catchUp(): void;
  /** Ends a `thenDown` failure: requests are served again. */
  up(): void;
  close(): Promise<void>;
}

class BadRequest extends Error {}

export async function startFakeQdrant(options: { version?: string } = {}): Promise<FakeQdrant> {
  const collections = new Map<string, Collection>();
  const requests: FakeQdrantRequest[] = [];
  const violations: string[] = [];
  const failures: { status: number; suffix: string | undefined }[] = [];
  const planned: Array<
    Required<Pick<RequestFailure, 'after' | 'status' | 'apply' | 'thenDown'>> &
      Pick<RequestFailure, 'suffix' | 'where'>
  > = [];
  let stale: Map<string, Collection> | undefined;
  let down = false;

  const server = createServer(async (request, response) => {
    const started = performance.now();
    const url = new URL(request.url ?? '/', 'http://fake');
    const body = await readBody(request);
    const query = Object.fromEntries(url.searchParams);
    requests.push({ method: request.method ?? 'GET', path: url.pathname, body, query });
    const recorded = requests.at(-1)!;
    if (down) return send(response, 503, { status: { error: 'fake qdrant: down' }, time: 0 });
    const plannedAt = planned.findIndex(
      (failure) =>
        (!failure.suffix || url.pathname.endsWith(failure.suffix)) &&
        (!failure.where || failure.where(recorded)),
    );
    if (plannedAt >= 0 && planned[plannedAt]!.after-- <= 0) {
      const [failure] = planned.splice(plannedAt, 1);
      try {
        if (failure!.apply === 'all') route(request.method ?? 'GET', url.pathname, body, query);
        else if (typeof failure!.apply === 'number') {
          const operations = ((body as Json).operations as unknown[]).slice(0, failure!.apply);
          route(request.method ?? 'GET', url.pathname, { ...(body as Json), operations }, query);
        }
      } catch {}
      if (failure!.thenDown) down = true;
      return send(response, failure!.status, { status: { error: 'fake qdrant: planned failure' }, time: 0 });
    }
    const failureAt = failures.findIndex(
      (failure) => !failure.suffix || url.pathname.endsWith(failure.suffix),
    );
    if (failureAt >= 0) {
      const [failure] = failures.splice(failureAt, 1);
      return send(response, failure!.status, {
        status: { error: 'fake qdrant: failure on demand' },
        time: 0,
      });
    }
    try {
      const result = route(request.method ?? 'GET', url.pathname, body, query);
      if (result === notFound) {
        return send(response, 404, { status: { error: `Not found: ${url.pathname}` }, time: 0 });
      }
      if (url.pathname === '/') return send(response, 200, result);
      send(response, 200, { result, status: 'ok', time: (performance.now() - started) / 1000 });
    } catch (error) {
      if (error instanceof BadRequest) {
        violations.push(error.message);
        return send(response, 400, { status: { error: `Bad request: ${error.message}` }, time: 0 });
      }
      send(response, 500, { status: { error: String(error) }, time: 0 });
    }
  });

  const notFound = Symbol('not found');

  function route(method: string, path: string, body: unknown, query: Record<string, string> = {}): unknown {
    if (path === '/' && method === 'GET')
      return { title: 'qdrant - vector search engine', version: options.version ?? '1.16.0' };
    if (path === '/collections' && method === 'GET') {
      return { collections: [...collections.keys()].map((name) => ({ name })) };
    }
    const match = /^\/collections\/([^/]+)(\/.*)?$/.exec(path);
    if (!match) return notFound;
    const name = decodeURIComponent(match[1]!);
    const rest = match[2] ?? '';
    const request = (body ?? {}) as Json;
    if (rest === '' && method === 'PUT') return createCollection(name, request);
    if (rest === '/exists' && method === 'GET') return { exists: collections.has(name) };
    const isRead =
      (method === 'POST' && ['/points', '/points/scroll', '/points/count', '/points/query'].includes(rest)) ||
      (method === 'GET' && rest === '');
    const strong = ['majority', 'all', 'quorum'].includes(query.consistency ?? '');
    const collection = (stale && isRead && !strong ? stale : collections).get(name);
    if (!collection) {
      if (rest === '' && method === 'DELETE') return false;
      return notFound;
    }
    if (rest === '' && method === 'GET') return describe(collection);
    if (rest === '' && method === 'DELETE') return collections.delete(name);
    if (rest === '/index' && method === 'PUT') {
      if (typeof request.field_name !== 'string') throw new BadRequest('field_name is required');
      collection.payloadIndexes.set(request.field_name, request.field_schema);
      return operation();
    }
    if (rest === '/points' && method === 'PUT') return upsert(collection, request);
    if (rest === '/points' && method === 'POST') return retrieve(collection, request);
    if (rest === '/points/delete' && method === 'POST') return remove(collection, request);
    if (rest === '/points/batch' && method === 'POST') return batch(collection, request);
    if (rest === '/points/vectors/delete' && method === 'POST') return deleteVectors(collection, request);
    if (rest === '/points/payload' && method === 'POST') return setPayload(collection, request);
    if (rest === '/points/scroll' && method === 'POST') return scroll(collection, request);
    if (rest === '/points/count' && method === 'POST') {
      return {
        count: [...collection.points.values()].filter((point) => matches(point, request.filter)).length,
      };
    }
    if (rest === '/points/query' && method === 'POST') return search(collection, request);
    return notFound;
  }

  function createCollection(name: string, request: Json): unknown {
    if (collections.has(name)) throw new BadRequest(`Collection \`${name}\` already exists!`);
    const dense: Collection['dense'] = {};
    const vectors = (request.vectors ?? {}) as Json;
    if ('size' in vectors) throw new BadRequest('use named vectors (vectors: { name: { size, distance } })');
    for (const [vectorName, config] of Object.entries(vectors)) {
      const { size, distance } = (config ?? {}) as { size?: unknown; distance?: unknown };
      if (typeof size !== 'number' || size < 1) throw new BadRequest(`vector ${vectorName} needs a size`);
      if (!['Cosine', 'Dot', 'Euclid', 'Manhattan'].includes(String(distance))) {
        throw new BadRequest(`vector ${vectorName} needs a distance`);
      }
      dense[vectorName] = { size, distance: String(distance) };
    }
    const sparse: Collection['sparse'] = {};
    for (const [vectorName, config] of Object.entries((request.sparse_vectors ?? {}) as Json)) {
      const modifier = (config as { modifier?: string } | null)?.modifier;
      if (modifier !== 'idf')
        throw new BadRequest(`sparse vector ${vectorName} must use modifier: idf for BM25`);
      sparse[vectorName] = { modifier };
    }
    collections.set(name, { dense, sparse, points: new Map(), payloadIndexes: new Map() });
    return true;
  }

  function describe(collection: Collection): unknown {
    return {
      status: 'green',
      optimizer_status: 'ok',
      points_count: collection.points.size,
      indexed_vectors_count: 0,
      segments_count: 1,
      config: {
        params: {
          vectors: collection.dense,
          sparse_vectors: collection.sparse,
          shard_number: 1,
          replication_factor: 1,
          on_disk_payload: true,
        },
        hnsw_config: { m: 16, ef_construct: 100, full_scan_threshold: 10000 },
        optimizer_config: {},
        wal_config: {},
      },
      payload_schema: Object.fromEntries(
        [...collection.payloadIndexes].map(([field, schema]) => [field, { data_type: schema, points: 0 }]),
      ),
    };
  }

  function operation(): unknown {
    return { operation_id: requests.length, status: 'completed' };
  }

  function key(id: unknown): string {
    if (typeof id === 'number' && Number.isInteger(id) && id >= 0) return `n:${id}`;
    if (
      typeof id === 'string' &&
      /^[0-9a-f]{8}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{12}$/i.test(id)
    ) {
      return `u:${id.replaceAll('-', '').toLowerCase()}`;
    }
    throw new BadRequest(`point id ${JSON.stringify(id)} is neither an unsigned integer nor a UUID`);
  }

  function upsert(collection: Collection, request: Json): unknown {
    const points = request.points;
    if (!Array.isArray(points)) throw new BadRequest('upsert needs points: [...] (batch form not supported)');
    const checked = points.map((point: Json) => checkPoint(collection, point));
    for (const point of checked) collection.points.set(key(point.id), point);
    return operation();
  }

  function checkPoint(collection: Collection, point: Json): StoredPoint {
    key(point.id);
    const vector = (point.vector ?? {}) as Json;
    if (Array.isArray(vector) || 'indices' in vector) throw new BadRequest('vectors must be named');
    const stored: StoredPoint['vector'] = {};
    for (const [vectorName, value] of Object.entries(vector)) {
      if (collection.dense[vectorName]) {
        const size = collection.dense[vectorName].size;
        if (!Array.isArray(value) || value.length !== size || !value.every((x) => typeof x === 'number')) {
          throw new BadRequest(`vector ${vectorName} must be ${size} numbers`);
        }
        stored[vectorName] = value as number[];
      } else if (collection.sparse[vectorName]) {
        stored[vectorName] = checkSparse(value, vectorName);
      } else {
        throw new BadRequest(`Wrong input: Not existing vector name error: ${vectorName}`);
      }
    }
    return { id: point.id as PointId, vector: stored, payload: (point.payload ?? {}) as Json };
  }

  function checkSparse(value: unknown, vectorName: string): SparseVector {
    const { indices, values } = (value ?? {}) as { indices?: unknown; values?: unknown };
    if (!Array.isArray(indices) || !Array.isArray(values) || indices.length !== values.length) {
      throw new BadRequest(`sparse vector ${vectorName} needs indices and values of the same length`);
    }
    if (!indices.every((index) => Number.isInteger(index) && index >= 0 && index <= 4_294_967_295)) {
      throw new BadRequest(`sparse vector ${vectorName} indices must be unsigned 32-bit integers`);
    }
    if (new Set(indices).size !== indices.length)
      throw new BadRequest(`sparse vector ${vectorName} repeats an index`);
    return { indices: indices as number[], values: values as number[] };
  }

  function retrieve(collection: Collection, request: Json): unknown {
    const ids = request.ids;
    if (!Array.isArray(ids)) throw new BadRequest('retrieve needs ids');
    return ids
      .map((id) => collection.points.get(key(id)))
      .filter((point): point is StoredPoint => point !== undefined)
      .map((point) => render(point, request.with_payload, request.with_vector));
  }

  function remove(collection: Collection, selector: Json): unknown {
    if (Array.isArray(selector.points)) {
      for (const id of selector.points) collection.points.delete(key(id));
    } else if (selector.filter) {
      for (const [pointKey, point] of collection.points) {
        if (matches(point, selector.filter)) collection.points.delete(pointKey);
      }
    } else {
      throw new BadRequest('delete needs points or a filter');
    }
    return operation();
  }

  /** The points a delete-vectors or set-payload request picks: by `points` ids or by `filter`. */
  function selected(collection: Collection, selector: Json, what: string): StoredPoint[] {
    if (Array.isArray(selector.points)) {
      return selector.points
        .map((id) => collection.points.get(key(id)))
        .filter((point): point is StoredPoint => point !== undefined);
    }
    if (selector.filter)
      return [...collection.points.values()].filter((point) => matches(point, selector.filter));
    throw new BadRequest(`${what} needs points or a filter`);
  }

  /** POST /points/vectors/delete: removes the named vectors of the selected points, keeps the rest. */
  function deleteVectors(collection: Collection, request: Json): unknown {
    const names = request.vector;
    if (!Array.isArray(names) || names.length === 0)
      throw new BadRequest('delete vectors needs vector: [names]');
    for (const name of names) {
      if (!collection.dense[String(name)] && !collection.sparse[String(name)]) {
        throw new BadRequest(`Wrong input: Not existing vector name error: ${String(name)}`);
      }
    }
    // New point objects: a lagging replica (`lag`) keeps seeing the old ones.
    for (const point of selected(collection, request, 'delete vectors')) {
      const vector = { ...point.vector };
      for (const name of names) delete vector[String(name)];
      collection.points.set(key(point.id), { ...point, vector });
    }
    return operation();
  }

  /** POST /points/payload: merges `payload` into the selected points' payloads. */
  function setPayload(collection: Collection, request: Json): unknown {
    const payload = request.payload;
    if (!payload || typeof payload !== 'object' || Array.isArray(payload)) {
      throw new BadRequest('set payload needs payload: {…}');
    }
    for (const point of selected(collection, request, 'set payload')) {
      collection.points.set(key(point.id), { ...point, payload: { ...point.payload, ...(payload as Json) } });
    }
    return operation();
  }

  function batch(collection: Collection, request: Json): unknown {
    const operations = request.operations;
    if (!Array.isArray(operations)) throw new BadRequest('batch needs operations');
    // Check everything first so that a bad batch changes nothing.
    for (const entry of operations as Json[]) {
      if (entry.upsert) {
        for (const point of ((entry.upsert as Json).points ?? []) as Json[]) checkPoint(collection, point);
      } else if (!entry.delete) {
        throw new BadRequest(`unsupported batch operation ${Object.keys(entry).join(',')}`);
      }
    }
    for (const entry of operations as Json[]) {
      if (entry.upsert) upsert(collection, entry.upsert as Json);
      else remove(collection, entry.delete as Json);
    }
    return (operations as unknown[]).map(() => operation());
  }

  function scroll(collection: Collection, request: Json): unknown {
    const limit = typeof request.limit === 'number' ? request.limit : 10;
    const sorted = [...collection.points.entries()].sort(([left], [right]) => (left < right ? -1 : 1));
    const start =
      request.offset === undefined || request.offset === null
        ? 0
        : sorted.findIndex(([pointKey]) => pointKey === key(request.offset));
    const selected = sorted.slice(Math.max(0, start)).filter(([, point]) => matches(point, request.filter));
    const page = selected.slice(0, limit);
    const next = selected[limit];
    return {
      points: page.map(([, point]) => render(point, request.with_payload ?? true, request.with_vector)),
      next_page_offset: next ? next[1].id : null,
    };
  }

  function search(collection: Collection, request: Json): unknown {
    const topFilter = request.filter;
    const prefetches = (
      Array.isArray(request.prefetch) ? request.prefetch : request.prefetch ? [request.prefetch] : []
    ) as Json[];
    const scoped = (filter: unknown) => hasScopeCondition(filter);
    if (
      !scoped(topFilter) &&
      (prefetches.length === 0 || !prefetches.every((prefetch) => scoped(prefetch.filter)))
    ) {
      throw new BadRequest('every query must filter on scope');
    }
    const limit = typeof request.limit === 'number' ? request.limit : 10;
    let ranked: { point: StoredPoint; score: number }[];
    const body = request.query as Json | undefined;
    if (prefetches.length > 0) {
      const fusion = body && (body.fusion === 'rrf' || body.rrf !== undefined);
      if (!fusion) throw new BadRequest('prefetches are fused with query: { fusion: "rrf" } here');
      const lists = prefetches.map((prefetch) =>
        nearest(
          collection,
          prefetch.query,
          prefetch.using,
          [topFilter, prefetch.filter],
          (prefetch.limit as number) ?? 10,
        ),
      );
      const rrfK =
        typeof (body.rrf as Json | undefined)?.k === 'number' ? ((body.rrf as Json).k as number) : 2;
      const fused = new Map<string, { point: StoredPoint; score: number }>();
      for (const list of lists) {
        list.forEach((entry, rank) => {
          const pointKey = key(entry.point.id);
          const current = fused.get(pointKey) ?? { point: entry.point, score: 0 };
          current.score += 1 / (rrfK + rank + 1);
          fused.set(pointKey, current);
        });
      }
      ranked = [...fused.values()].sort((left, right) => right.score - left.score);
    } else {
      ranked = nearest(collection, body, request.using, [topFilter], limit);
    }
    return {
      points: ranked.slice(0, limit).map(({ point, score }) => ({
        ...(render(point, request.with_payload, request.with_vector) as Json),
        score,
        version: 0,
      })),
    };
  }

  function nearest(
    collection: Collection,
    queryVector: unknown,
    using: unknown,
    filters: unknown[],
    limit: number,
  ): { point: StoredPoint; score: number }[] {
    const name = String(using ?? '');
    const candidates = [...collection.points.values()].filter((point) =>
      filters.every((filter) => matches(point, filter)),
    );
    let scored: { point: StoredPoint; score: number }[];
    if (collection.dense[name]) {
      const vector = queryVector as number[];
      if (!Array.isArray(vector) || vector.length !== collection.dense[name].size) {
        throw new BadRequest(`query for ${name} must be ${collection.dense[name].size} numbers`);
      }
      scored = candidates
        .filter((point) => Array.isArray(point.vector[name]))
        .map((point) => ({ point, score: cosine(vector, point.vector[name] as number[]) }));
    } else if (collection.sparse[name]) {
      const sparse = checkSparse(queryVector, name);
      const all = [...collection.points.values()].filter((point) => point.vector[name]);
      scored = candidates
        .filter((point) => point.vector[name])
        .map((point) => ({
          point,
          score: sparseScore(sparse, point.vector[name] as SparseVector, all, name),
        }))
        .filter((entry) => entry.score > 0);
    } else {
      throw new BadRequest(
        `query needs using: one of the collection's vector names (got ${JSON.stringify(using)})`,
      );
    }
    return scored.sort((left, right) => right.score - left.score).slice(0, limit);
  }

  /** IDF over the whole collection, as Qdrant's `idf` modifier. */
  function sparseScore(
    query: SparseVector,
    document: SparseVector,
    all: StoredPoint[],
    name: string,
  ): number {
    let score = 0;
    query.indices.forEach((index, position) => {
      const at = document.indices.indexOf(index);
      if (at < 0) return;
      const frequency = all.filter((point) =>
        (point.vector[name] as SparseVector).indices.includes(index),
      ).length;
      const idf = Math.log(1 + (all.length - frequency + 0.5) / (frequency + 0.5));
      score += query.values[position]! * document.values[at]! * idf;
    });
    return score;
  }

  function render(point: StoredPoint, withPayload: unknown, withVector: unknown): unknown {
    return {
      id: point.id,
      payload: withPayload === false || withPayload === undefined ? null : point.payload,
      vector: withVector ? point.vector : null,
    };
  }

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    violations,
    queries: () =>
      requests.filter((entry) => entry.path.endsWith('/points/query')).map((entry) => entry.body as Json),
    collection: (name) => collections.get(name),
    failNext: (status, count = 1, suffix) => {
      for (let index = 0; index < count; index++) failures.push({ status, suffix });
    },
    failRequest: ({ suffix, where, after = 0, status = 500, apply = 'none', thenDown = false }) => {
      planned.push({
        after,
        status,
        apply,
        thenDown,
        ...(suffix === undefined ? {} : { suffix }),
        ...(where === undefined ? {} : { where }),
      });
    },
    lag: () => {
      stale = new Map(
        [...collections].map(([name, collection]) => [
          name,
          {
            ...collection,
            points: new Map(collection.points),
            payloadIndexes: new Map(collection.payloadIndexes),
          },
        ]),
      );
    },
    catchUp: () => {
      stale = undefined;
    },
    up: () => {
      down = false;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function hasScopeCondition(filter: unknown): boolean {
  const must = (filter as Json | undefined)?.must;
  const conditions = Array.isArray(must) ? must : must ? [must] : [];
  return conditions.some((condition: Json) => {
    if (condition.key !== 'scope') return false;
    const match = condition.match as Json | undefined;
    return typeof match?.value === 'string' || (Array.isArray(match?.any) && match.any.length > 0);
  });
}

function matches(point: StoredPoint, filter: unknown): boolean {
  if (!filter) return true;
  const {
    must,
    should,
    must_not: mustNot,
  } = filter as { must?: unknown; should?: unknown; must_not?: unknown };
  const list = (value: unknown) => (Array.isArray(value) ? value : value ? [value] : []) as Json[];
  if (!list(must).every((condition) => condition_(point, condition))) return false;
  if (list(mustNot).some((condition) => condition_(point, condition))) return false;
  const shoulds = list(should);
  return shoulds.length === 0 || shoulds.some((condition) => condition_(point, condition));
}

function condition_(point: StoredPoint, condition: Json): boolean {
  if ('must' in condition || 'should' in condition || 'must_not' in condition)
    return matches(point, condition);
  if (Array.isArray(condition.has_id)) {
    const wanted = new Set(
      condition.has_id.map((id: unknown) => String(id).replaceAll('-', '').toLowerCase()),
    );
    return wanted.has(String(point.id).replaceAll('-', '').toLowerCase());
  }
  const empty = condition.is_empty as { key?: unknown } | undefined;
  if (empty && typeof empty.key === 'string') {
    const found = point.payload[empty.key];
    return found === undefined || found === null || (Array.isArray(found) && found.length === 0);
  }
  if (typeof condition.key !== 'string')
    throw new BadRequest(`unsupported condition ${JSON.stringify(condition)}`);
  const value = point.payload[condition.key];
  const range = condition.range as Record<string, number> | undefined;
  if (range) {
    if (typeof value !== 'number') return false;
    return (
      (range.lt === undefined || value < range.lt) &&
      (range.lte === undefined || value <= range.lte) &&
      (range.gt === undefined || value > range.gt) &&
      (range.gte === undefined || value >= range.gte)
    );
  }
  const match = condition.match as Json | undefined;
  if (!match) throw new BadRequest(`only match and range conditions are supported (${condition.key})`);
  if ('value' in match) return value === match.value;
  if (Array.isArray(match.any)) return match.any.includes(value);
  if (Array.isArray(match.except)) return value !== undefined && !match.except.includes(value);
  throw new BadRequest(`unsupported match ${JSON.stringify(match)}`);
}

function cosine(left: number[], right: number[]): number {
  let dot = 0;
  let leftNorm = 0;
  let rightNorm = 0;
  for (let index = 0; index < left.length; index++) {
    dot += left[index]! * right[index]!;
    leftNorm += left[index]! * left[index]!;
    rightNorm += right[index]! * right[index]!;
  }
  return leftNorm === 0 || rightNorm === 0 ? 0 : dot / Math.sqrt(leftNorm * rightNorm);
}

async function readBody(request: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  if (chunks.length === 0) return undefined;
  const text = Buffer.concat(chunks).toString('utf8');
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

function send(response: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  response.writeHead(status, {
    'content-type': 'application/json',
    'content-length': Buffer.byteLength(text),
  });
  response.end(text);
}
