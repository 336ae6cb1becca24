import { constants, promises as fs } from 'node:fs';
import { CoreError } from '../../../shared/ipc/index.ts';
import { megabytes } from './exports/exportedLogin.ts';

/**
 * Reads an export whole, from a regular file only, at most `maxBytes`. The file is opened first
 * and everything is asked of the open file (no gap in which the path can be swapped), without
 * blocking (a FIFO or a device is refused, never waited on). Every failure is one sentence
 * saying what is wrong with the path, on the `path` field.
 */
export async function readExportFile(path: string, maxBytes: number, signal?: AbortSignal): Promise<Uint8Array> {
  let handle: fs.FileHandle;
  try {
    handle = await fs.open(path, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0));
  } catch (error) {
    throw pathError(path, error);
  }
  try {
    const stat = await handle.stat();
    if (stat.isDirectory()) throw invalid(`${path} is a folder: choose the export file inside it.`);
    if (!stat.isFile()) throw invalid(`${path} is not a regular file (a device, a pipe or a socket): choose the export file itself.`);
    if (stat.size === 0) throw invalid(`${path} is empty: export your passwords again, then choose the new file.`);
    if (stat.size > maxBytes) throw invalid(`${path} is ${megabytes(stat.size)}, more than the ${megabytes(maxBytes)} an export can be: is it the right file?`);
    const bytes = new Uint8Array(stat.size);
    let read = 0;
    while (read < bytes.length) {
      if (signal?.aborted) throw new CoreError('cancelled', 'The import was cancelled: nothing was kept.');
      const { bytesRead } = await handle.read(bytes, read, Math.min(bytes.length - read, 1 << 20), read);
      if (bytesRead === 0) break;
      read += bytesRead;
    }
    return read === bytes.length ? bytes : bytes.subarray(0, read);
  } catch (error) {
    if (error instanceof CoreError) throw error;
    throw pathError(path, error);
  } finally {
    await handle.close();
  }
}

function invalid(message: string): CoreError {
  return new CoreError('invalid-arguments', message, [{ path: 'path', message }]);
}

function pathError(path: string, error: unknown): CoreError {
  const code = (error as NodeJS.ErrnoException).code;
  switch (code) {
    case 'ENOENT':
      return invalid(`There is no file at ${path}: check the name and the folder.`);
    case 'ENOTDIR':
      return invalid(`${path} is not a path to a file: a part of it is not a folder.`);
    case 'EACCES':
    case 'EPERM':
      return invalid(`${path} cannot be read: this app is not allowed to open it. Move the file somewhere you own (such as Downloads) or change its permissions.`);
    case 'EISDIR':
      return invalid(`${path} is a folder: choose the export file inside it.`);
    case 'ELOOP':
      return invalid(`${path} is a link that leads nowhere (it loops): choose the export file itself.`);
    default:
      return invalid(`${path} could not be read (${code ?? (error instanceof Error ? error.message : String(error))}).`);
  }
}
