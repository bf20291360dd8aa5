import type { Readable } from 'node:stream';

export interface Line {
  /** 1-based. */
  lineNumber: number;
  text: string;
  /** Byte offset just past this line's end (where the next line starts). */
  endByte: number;
}

/**
 * The lines of a stream, with their byte positions so that an import can resume after the
 * last line it finished. Streams the file: never more than one chunk plus one line in memory.
 * `\r\n` and `\n` both end a line; a last line without a newline still counts.
 */
export async function* readLines(stream: Readable, startByte = 0, firstLineNumber = 1): AsyncGenerator<Line> {
  let pending: Buffer = Buffer.alloc(0);
  let position = startByte;
  let lineNumber = firstLineNumber;
  let skip = startByte;
  for await (const raw of stream) {
    let chunk: Buffer = Buffer.isBuffer(raw) ? raw : Buffer.from(raw as Uint8Array);
    if (skip > 0) {
      // Resuming: drop what earlier chunks of the import already handled.
      if (chunk.length <= skip) {
        skip -= chunk.length;
        continue;
      }
      chunk = chunk.subarray(skip);
      skip = 0;
    }
    pending = pending.length === 0 ? chunk : Buffer.concat([pending, chunk]);
    let start = 0;
    for (let nl = pending.indexOf(10, start); nl !== -1; nl = pending.indexOf(10, start)) {
      const end = nl > start && pending[nl - 1] === 13 ? nl - 1 : nl;
      position += nl + 1 - start;
      yield { lineNumber: lineNumber++, text: pending.toString('utf8', start, end), endByte: position };
      start = nl + 1;
    }
    pending = pending.subarray(start);
  }
  if (pending.length > 0) {
    position += pending.length;
    const end = pending[pending.length - 1] === 13 ? pending.length - 1 : pending.length;
    yield { lineNumber, text: pending.toString('utf8', 0, end), endByte: position };
  }
}
