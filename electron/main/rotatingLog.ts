import { createWriteStream, mkdirSync, renameSync, statSync, type WriteStream } from 'node:fs';
import path from 'node:path';
import { Writable } from 'node:stream';

/** The core's log is rotated past this size: one previous file is kept, so it never holds more than about twice this. */
export const LOG_LIMIT_BYTES = 5 * 1024 * 1024;

/**
 * Appends to `file` and, once it passes `limitBytes` — at opening or while written, however
 * long the app runs — moves it to `<file>.1` (replacing the previous one) and starts afresh.
 * A failed write is warned about and skipped: the log never stops what writes to it.
 */
export function openRotatingLog(file: string, limitBytes = LOG_LIMIT_BYTES): Writable {
  mkdirSync(path.dirname(file), { recursive: true });
  const open = (): WriteStream => {
    const stream = createWriteStream(file, { flags: 'a' });
    stream.on('error', (error) => console.warn('the core log cannot be written', error));
    return stream;
  };
  const rotate = () => {
    try {
      renameSync(file, `${file}.1`);
    } catch (error) {
      console.warn('the core log cannot be rotated', error);
    }
  };
  let size = sizeOf(file);
  if (size > limitBytes) {
    rotate();
    size = 0;
  }
  let stream = open();
  return new Writable({
    write(chunk: Buffer, _encoding, done) {
      stream.write(chunk, (error) => {
        if (error) return done();
        size += chunk.length;
        if (size <= limitBytes) return done();
        // Writes wait for this callback, so nothing lands in the old file after its rename.
        stream.end(() => {
          rotate();
          size = 0;
          stream = open();
          done();
        });
      });
    },
    final(done) {
      stream.end(() => done());
    },
  });
}

function sizeOf(file: string): number {
  try {
    return statSync(file).size;
  } catch {
    return 0;
  }
}
