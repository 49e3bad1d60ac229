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
for (let n = 2, d; K.length < 64; n++) {
  for (d = 2; n % d; d++);
  if (d < n) continue;
  if (n < 20) H0.push(((n ** 0.5 % 1) * 2 ** 32) | 0);
  K.push(((Math.cbrt(n) % 1) * 2 ** 32) | 0);
}
const w = new Int32Array(64);
const rotr = (x: number, n: number) => (x >>> n) | (x << (32 - n));
/** One 64-byte block (`bytes` from `at`, read big-endian) into `h`. */
function compress(h: Int32Array, bytes: DataView, at: number) {
  let a = h[0]!, b = h[1]!, c = h[2]!, d = h[3]!, e = h[4]!, f = h[5]!, g = h[6]!, k = h[7]!;
  for (let i = 0, x, y, t; i < 64; i++) {
    w[i] = i < 16 ? bytes.getInt32(at + i * 4) : ((x = w[i - 15]!), (y = w[i - 2]!), (rotr(x, 7) ^ rotr(x, 18) ^ (x >>> 3)) + (rotr(y, 17) ^ rotr(y, 19) ^ (y >>> 10)) + w[i - 16]! + w[i - 7]!) | 0;
    t = (k! + (rotr(e!, 6) ^ rotr(e!, 11) ^ rotr(e!, 25)) + ((e! & f!) ^ (~e! & g!)) + K[i]! + w[i]!) | 0;
    k = g;
    g = f;
    f = e;
    e = (d! + t) | 0;
    d = c;
    c = b;
    b = a;
    a = (t + (rotr(b!, 2) ^ rotr(b!, 13) ^ rotr(b!, 22)) + ((b! & c!) ^ (b! & d!) ^ (c! & d!))) | 0;
  }
  [a, b, c, d, e, f, g, k].map((v, i) => (h[i]! += v!));
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
  for (let at = 0; at < whole; at += 64) compress(state, new DataView(prefix.buffer, prefix.byteOffset), at);
  return { state, tail: prefix.slice(whole), length: prefix.length };
}

const block = new Uint8Array(128);
const view = new DataView(block.buffer);

/** SHA-256 of the midstate's prefix followed by `suffix` (ASCII), as eight 32-bit words. */
export function digestWith(m: Midstate, suffix: string): Int32Array {
  const h = m.state.slice();
  const n = m.tail.length + suffix.length;
  block.fill(0);
  block.set(m.tail);
  for (let i = 0; i < suffix.length; i++) block[m.tail.length + i] = suffix.charCodeAt(i);
  block[n] = 0x80;
  const end = n < 56 ? 64 : 128;
  // Lengths here are far below 2^32 bits: the high word stays 0.
  view.setInt32(end - 4, (m.length + suffix.length) * 8);
  for (let at = 0; at < end; at += 64) compress(h, view, at);
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
