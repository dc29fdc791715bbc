/**
 * Byte layouts of vectors stored in SQLite blobs.
 * - sparse: n uint32 indices followed by n float32 values (little endian, as typed arrays are here);
 * - dense: float32 values, L2-normalised;
 * - quantised: a float32 scale and one int8 per dimension (for the in-memory scan of large indexes);
 * - sign code: one bit per dimension (1 = positive), packed into 32-bit words, for Hamming pre-selection.
 */
import type { SparseVector } from '../core/types.ts';

export function encodeSparseBlob(vector: SparseVector): Buffer {
  const count = vector.indices.length;
  const buffer = Buffer.allocUnsafe(count * 8);
  const indices = new Uint32Array(buffer.buffer, buffer.byteOffset, count);
  const values = new Float32Array(buffer.buffer, buffer.byteOffset + count * 4, count);
  for (let position = 0; position < count; position++) {
    indices[position] = vector.indices[position]!;
    values[position] = vector.values[position]!;
  }
  return buffer;
}

export function decodeSparseBlob(blob: Uint8Array): { indices: Uint32Array; values: Float32Array } {
  const count = blob.byteLength / 8;
  const copy = blob.byteOffset % 4 === 0 ? blob : new Uint8Array(blob);
  return {
    indices: new Uint32Array(copy.buffer, copy.byteOffset, count),
    values: new Float32Array(copy.buffer, copy.byteOffset + count * 4, count),
  };
}

/** A unit-length copy (cosine similarity becomes a dot product). */
export function normalized(vector: Float32Array): Float32Array {
  let sum = 0;
  for (let index = 0; index < vector.length; index++) sum += vector[index]! * vector[index]!;
  const norm = Math.sqrt(sum);
  const result = new Float32Array(vector.length);
  if (norm === 0) return result;
  for (let index = 0; index < vector.length; index++) result[index] = vector[index]! / norm;
  return result;
}

export function encodeDenseBlob(vector: Float32Array): Buffer {
  return Buffer.from(vector.buffer, vector.byteOffset, vector.byteLength);
}

export function decodeDenseBlob(blob: Uint8Array): Float32Array {
  const copy = blob.byteOffset % 4 === 0 ? blob : new Uint8Array(blob);
  return new Float32Array(copy.buffer, copy.byteOffset, copy.byteLength / 4);
}

export function signWords(dimension: number): number {
  return Math.ceil(dimension / 32);
}

export function signCode(
  vector: Float32Array,
  target = new Uint32Array(signWords(vector.length)),
): Uint32Array {
  target.fill(0);
  for (let index = 0; index < vector.length; index++) {
    if (vector[index]! > 0) target[index >>> 5]! |= 1 << (index & 31);
  }
  return target;
}

/** The sign bits (1 = positive) of int8 values into `target` from `offset`, 32 dimensions a word. */
export function writeSignWords(values: Int8Array, target: Int32Array, offset: number): void {
  const dimension = values.length;
  const words = signWords(dimension);
  for (let word = 0; word < words; word++) {
    let bits = 0;
    const end = Math.min(dimension, (word + 1) * 32);
    // (-v) >>> 31 is 1 exactly when v > 0: no branch per dimension.
    for (let index = word * 32; index < end; index++) bits |= (-values[index]! >>> 31) << (index & 31);
    target[offset + word] = bits;
  }
}

/** int8 quantisation: a float32 scale (max |value| / 127) followed by one int8 per dimension. */
export function encodeQuantizedBlob(vector: Float32Array): Buffer {
  let largest = 0;
  for (let index = 0; index < vector.length; index++) {
    const magnitude = Math.abs(vector[index]!);
    if (magnitude > largest) largest = magnitude;
  }
  const scale = largest === 0 ? 1 : largest / 127;
  const buffer = Buffer.alloc(4 + vector.length);
  buffer.writeFloatLE(scale, 0);
  const values = new Int8Array(buffer.buffer, buffer.byteOffset + 4, vector.length);
  const inverse = 1 / scale;
  for (let index = 0; index < vector.length; index++) values[index] = Math.round(vector[index]! * inverse);
  return buffer;
}

export function quantizedDimension(blob: Uint8Array): number {
  return blob.byteLength - 4;
}

export function dot(left: Float32Array, right: Float32Array, rightOffset = 0): number {
  const length = left.length;
  let sum0 = 0;
  let sum1 = 0;
  let sum2 = 0;
  let sum3 = 0;
  let index = 0;
  for (; index + 3 < length; index += 4) {
    const at = rightOffset + index;
    sum0 += left[index]! * right[at]!;
    sum1 += left[index + 1]! * right[at + 1]!;
    sum2 += left[index + 2]! * right[at + 2]!;
    sum3 += left[index + 3]! * right[at + 3]!;
  }
  for (; index < length; index++) sum0 += left[index]! * right[rightOffset + index]!;
  return sum0 + sum1 + sum2 + sum3;
}
