/** The lookup tables of the search snapshot: scope names and token ids to small numbers. */

/** Scope names ↔ small codes, shared by every segment of a snapshot so one mask serves them all. */
export class ScopeTable {
  readonly names: string[] = [];
  private readonly codes = new Map<string, number>();

  code(name: string): number {
    let code = this.codes.get(name);
    if (code === undefined) {
      code = this.names.length;
      this.names.push(name);
      this.codes.set(name, code);
    }
    return code;
  }
}

/**
 * Token id → ordinal, open addressing over typed arrays: a `Map` is several times slower here, because
 * half of the 31-bit token ids do not fit V8's small integers.
 */
export class TokenTable {
  size = 0;
  private keys: Uint32Array;
  private values: Int32Array;
  private shift: number;

  constructor(expected = 512) {
    let bits = 4;
    while (1 << bits < expected * 2) bits++;
    this.keys = new Uint32Array(1 << bits);
    this.values = new Int32Array(1 << bits).fill(-1);
    this.shift = 32 - bits;
  }

  /** Its arrays, for the snapshot file. */
  get arrays(): { keys: Uint32Array; values: Int32Array } {
    return { keys: this.keys, values: this.values };
  }

  /** A table from the arrays of `arrays` (as read back from the snapshot file). */
  static from(keys: Uint32Array, values: Int32Array, size: number): TokenTable {
    const table = new TokenTable(1);
    table.keys = keys;
    table.values = values;
    table.size = size;
    table.shift = 32 - Math.log2(values.length);
    return table;
  }

  /** The ordinal of the token, or -1. */
  get(token: number): number {
    const mask = this.values.length - 1;
    for (let slot = Math.imul(token, 0x9e3779b1) >>> this.shift; ; slot = (slot + 1) & mask) {
      const value = this.values[slot]!;
      if (value === -1 || this.keys[slot] === token) return value;
    }
  }

  /** The ordinal of the token, numbering it next when it is new. */
  add(token: number): number {
    const mask = this.values.length - 1;
    for (let slot = Math.imul(token, 0x9e3779b1) >>> this.shift; ; slot = (slot + 1) & mask) {
      const value = this.values[slot]!;
      if (value !== -1 && this.keys[slot] !== token) continue;
      if (value !== -1) return value;
      this.keys[slot] = token;
      this.values[slot] = this.size;
      if (++this.size * 2 > this.values.length) this.grow();
      return this.size - 1;
    }
  }

  byteSize(): number {
    return this.keys.byteLength + this.values.byteLength;
  }

  private grow(): void {
    const { keys, values } = this;
    this.keys = new Uint32Array(keys.length * 2);
    this.values = new Int32Array(values.length * 2).fill(-1);
    this.shift--;
    const mask = this.values.length - 1;
    for (let old = 0; old < values.length; old++) {
      if (values[old] === -1) continue;
      let slot = Math.imul(keys[old]!, 0x9e3779b1) >>> this.shift;
      while (this.values[slot] !== -1) slot = (slot + 1) & mask;
      this.keys[slot] = keys[old]!;
      this.values[slot] = values[old]!;
    }
  }
}
