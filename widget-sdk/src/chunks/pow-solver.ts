/**
 * The proof-of-work the server may ask for before a session starts (contract: `botDefence`,
 * CHALLENGE_REQUIRED): a nonce such that SHA-256 of the UTF-8 text `${challenge}:${nonce}` starts
 * with `difficulty` zero bits. A SHA-256 in plain JavaScript: bench/pow-hash.mjs measured it
 * several times faster than awaiting `crypto.subtle.digest` per hash at these sizes (each digest
 * is a promise and a copy), and it needs no secure context. The blocks of the challenge that do
 * not change are hashed once (midstate), so a long challenge costs nothing per try.
 * The search runs in slices of ~10 ms that yield to the event loop (a MessageChannel message:
 * not throttled like timers), so the page never freezes; no Worker and no blob: URL, which host
 * pages' CSPs often refuse.
 */

// The constants are the fractional parts of the square (initial state) and cube (round constants)
// roots of the first primes: computed, not written out (a smaller chunk, same numbers).
const K: number[] = [];
const H0: number[] = [];
for (let n = 2; K.length < 64; n++) {
  let prime = true;
  for (let d = 2; d * d <= n; d++) if (n % d === 0) prime = false;
  if (!prime) continue;
  if (H0.length < 8) H0.push(((Math.sqrt(n) % 1) * 2 ** 32) | 0);
  K.push(((Math.cbrt(n) % 1) * 2 ** 32) | 0);
}

const w = new Int32Array(64);

/** One 64-byte block (`bytes` from `at`) into `h`. */
function compress(h: Int32Array, bytes: Uint8Array, at: number) {
  for (let i = 0; i < 16; i++, at += 4) w[i] = (bytes[at]! << 24) | (bytes[at + 1]! << 16) | (bytes[at + 2]! << 8) | bytes[at + 3]!;
  for (let i = 16; i < 64; i++) {
    const x = w[i - 15]!;
    const y = w[i - 2]!;
    w[i] =
      ((((x >>> 7) | (x << 25)) ^ ((x >>> 18) | (x << 14)) ^ (x >>> 3)) +
        (((y >>> 17) | (y << 15)) ^ ((y >>> 19) | (y << 13)) ^ (y >>> 10)) +
        w[i - 16]! +
        w[i - 7]!) |
      0;
  }
  let a = h[0]!, b = h[1]!, c = h[2]!, d = h[3]!, e = h[4]!, f = h[5]!, g = h[6]!, k = h[7]!;
  for (let i = 0; i < 64; i++) {
    const t1 = (k + (((e >>> 6) | (e << 26)) ^ ((e >>> 11) | (e << 21)) ^ ((e >>> 25) | (e << 7))) + ((e & f) ^ (~e & g)) + K[i]! + w[i]!) | 0;
    const t2 = ((((a >>> 2) | (a << 30)) ^ ((a >>> 13) | (a << 19)) ^ ((a >>> 22) | (a << 10))) + ((a & b) ^ (a & c) ^ (b & c))) | 0;
    k = g;
    g = f;
    f = e;
    e = (d + t1) | 0;
    d = c;
    c = b;
    b = a;
    a = (t1 + t2) | 0;
  }
  [a, b, c, d, e, f, g, k].forEach((v, i) => (h[i] = (h[i]! + v) | 0));
}

/** A prefix hashed up to its last whole block: the state, the bytes left over, the prefix's length. */
export interface Midstate {
  state: Int32Array;
  tail: Uint8Array;
  length: number;
}

export function midstate(prefix: Uint8Array): Midstate {
  const state = Int32Array.from(H0);
  const whole = prefix.length - (prefix.length % 64);
  for (let at = 0; at < whole; at += 64) compress(state, prefix, at);
  return { state, tail: prefix.slice(whole), length: prefix.length };
}

const block = new Uint8Array(128);

/** SHA-256 of the midstate's prefix followed by `suffix` (ASCII), as eight 32-bit words. */
export function digestWith(m: Midstate, suffix: string): Int32Array {
  const h = m.state.slice();
  const n = m.tail.length + suffix.length;
  block.fill(0);
  block.set(m.tail);
  for (let i = 0; i < suffix.length; i++) block[m.tail.length + i] = suffix.charCodeAt(i);
  block[n] = 0x80;
  const end = n + 9 > 64 ? 128 : 64;
  const bits = (m.length + suffix.length) * 8;
  // Lengths here are far below 2^32 bits: the high word stays 0.
  block[end - 4] = bits >>> 24;
  block[end - 3] = bits >>> 16;
  block[end - 2] = bits >>> 8;
  block[end - 1] = bits;
  compress(h, block, 0);
  if (end === 128) compress(h, block, 64);
  return h;
}

/**
 * Whether `digest` starts with `bits` zero bits, for 0 to 32 bits (the controller refuses more than
 * 24; the contract's are 16 and 18).
 */
export const leadingZeros = (digest: Int32Array, bits: number) => bits < 1 || !(digest[0]! >>> (32 - bits));

const yieldToPage = () =>
  new Promise<void>((resolve) => {
    const channel = new MessageChannel();
    channel.port1.onmessage = () => {
      channel.port1.close();
      resolve();
    };
    channel.port2.postMessage(0);
  });

/**
 * Finds the nonce (base36 of a counter: at most 11 characters for any count a browser reaches,
 * well under the contract's 32). `signal` stops the search (it then rejects).
 */
export async function solve(challenge: string, difficulty: number, signal?: AbortSignal, sliceMs = 10): Promise<string> {
  const m = midstate(new TextEncoder().encode(`${challenge}:`));
  for (let n = 0; ; ) {
    const until = Date.now() + sliceMs;
    do {
      for (let i = 0; i < 512; i++, n++) {
        const nonce = n.toString(36);
        if (leadingZeros(digestWith(m, nonce), difficulty)) return nonce;
      }
    } while (Date.now() < until);
    await yieldToPage();
    signal?.throwIfAborted();
  }
}
