/**
 * MurmurHash3 x86 32-bit (seed 0) over the UTF-8 bytes of a string, as a signed 32-bit integer —
 * the same number Python's `mmh3.hash(text)` returns, which FastEmbed's BM25 uses for token ids.
 */
const encoder = new TextEncoder();

export function murmur3Signed(text: string): number {
  return murmur3Bytes(isAscii(text) ? asciiBytes(text) : encoder.encode(text));
}

function isAscii(text: string): boolean {
  for (let index = 0; index < text.length; index++) if (text.charCodeAt(index) > 0x7f) return false;
  return true;
}

let scratch = new Uint8Array(64);
function asciiBytes(text: string): Uint8Array {
  if (scratch.length < text.length) scratch = new Uint8Array(text.length * 2);
  for (let index = 0; index < text.length; index++) scratch[index] = text.charCodeAt(index);
  return scratch.subarray(0, text.length);
}

/** MurmurHash3 x86 32-bit of raw bytes with a seed, as a signed 32-bit integer. */
export function murmur3Bytes(bytes: Uint8Array, seed = 0): number {
  const length = bytes.length;
  const c1 = 0xcc9e2d51;
  const c2 = 0x1b873593;
  let hash = seed | 0;
  const blocks = length & ~3;
  for (let offset = 0; offset < blocks; offset += 4) {
    let block =
      bytes[offset]! | (bytes[offset + 1]! << 8) | (bytes[offset + 2]! << 16) | (bytes[offset + 3]! << 24);
    block = Math.imul(block, c1);
    block = (block << 15) | (block >>> 17);
    block = Math.imul(block, c2);
    hash ^= block;
    hash = (hash << 13) | (hash >>> 19);
    hash = (Math.imul(hash, 5) + 0xe6546b64) | 0;
  }
  const remainder = length & 3;
  if (remainder > 0) {
    let tail = 0;
    if (remainder === 3) tail ^= bytes[blocks + 2]! << 16;
    if (remainder >= 2) tail ^= bytes[blocks + 1]! << 8;
    tail ^= bytes[blocks]!;
    tail = Math.imul(tail, c1);
    tail = (tail << 15) | (tail >>> 17);
    tail = Math.imul(tail, c2);
    hash ^= tail;
  }
  hash ^= length;
  hash ^= hash >>> 16;
  hash = Math.imul(hash, 0x85ebca6b);
  hash ^= hash >>> 13;
  hash = Math.imul(hash, 0xc2b2ae35);
  hash ^= hash >>> 16;
  return hash | 0;
}
