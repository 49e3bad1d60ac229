/** The part of pako 1.0 (zlib in JavaScript) that zip.ts uses: streaming raw inflate. */
declare module "pako" {
  export class Inflate {
    constructor(options?: { raw?: boolean; chunkSize?: number });
    /** Feeds input; `last` finishes the stream. Returns false on a data error (`err`, `msg`). */
    push(data: Uint8Array, last?: boolean): boolean;
    onData: (chunk: Uint8Array) => void;
    onEnd: (status: number) => void;
    err: number;
    msg: string;
  }
}
