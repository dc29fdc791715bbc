/**
 * In Node, pdf.js runs its "worker" half in the calling thread and passes every message between the
 * two halves through `structuredClone` — for text extraction, each chunk of a page's text runs. V8's
 * clone serializes and deserializes; copying plain objects and arrays in JavaScript does the same
 * work for a sixth less CPU per page on a large manual. An extraction worker installs
 * `plainStructuredClone` in place of the global (installPlainClone): plain data (objects with the
 * plain prototype or none, arrays, primitives) is copied here, anything else — typed arrays, maps,
 * errors, functions (which the native clone refuses), cycles, a transfer list — goes to the native
 * clone unchanged.
 */

/** Deeper than this, the value goes to the native clone (which also handles cycles). */
const maximumDepth = 64;

/** Thrown to stop the copy when the value is not plain data (a symbol: no stack trace to capture). */
const notPlainData = Symbol('not plain data');

function copy(value: unknown, depth: number): unknown {
  if (typeof value !== 'object' || value === null) {
    if (typeof value === 'function' || typeof value === 'symbol') throw notPlainData;
    return value;
  }
  if (depth > maximumDepth) throw notPlainData;
  if (Array.isArray(value)) {
    if (Object.getPrototypeOf(value) !== Array.prototype) throw notPlainData;
    const array = new Array<unknown>(value.length);
    for (let index = 0; index < value.length; index++) {
      // A hole stays a hole (the native clone keeps them too).
      if (index in value) array[index] = copy(value[index], depth + 1);
    }
    return array;
  }
  const prototype = Object.getPrototypeOf(value);
  if (prototype !== Object.prototype && prototype !== null) throw notPlainData;
  const object: Record<string, unknown> = {};
  for (const key of Object.keys(value))
    object[key] = copy((value as Record<string, unknown>)[key], depth + 1);
  return object;
}

const nativeClone = globalThis.structuredClone;

/** `structuredClone` with a JavaScript copy for plain data; the native clone for anything else. */
export function plainStructuredClone<T>(value: T, options?: Parameters<typeof structuredClone>[1]): T {
  if (options?.transfer && options.transfer.length > 0) return nativeClone(value, options);
  try {
    return copy(value, 0) as T;
  } catch (error) {
    if (error === notPlainData) return nativeClone(value, options);
    throw error;
  }
}

/**
 * Replaces `structuredClone` in the calling thread — only ever an extraction worker, which runs
 * nothing but pdf.js and our reading code.
 */
export function installPlainClone(): void {
  Object.defineProperty(globalThis, 'structuredClone', {
    configurable: true,
    writable: true,
    value: plainStructuredClone,
  });
}
