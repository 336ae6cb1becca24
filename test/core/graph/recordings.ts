// The real `/v2/node` request/response recordings in ../shared/fixtures/datacommons (read-only,
// from outside the project; absent in a fresh clone, so every user of them must skip).
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { NodeResponse } from '../../../shared/graph/index.ts';
import { skipWithoutFixture } from '../../support/fixtures.ts';

export const RECORDINGS_DIR = fileURLToPath(new URL('../../../../shared/fixtures/datacommons/', import.meta.url));
export const recordingsMissing = skipWithoutFixture(path.join(RECORDINGS_DIR, 'INDEX.json'), 'the tests against the real /v2/node recordings');

export interface Recording {
  file: string;
  nodes: string[];
  property: string;
  limit?: number;
  /** The request's continuation token, when the recording is of a later page. */
  nextToken?: string;
  response: NodeResponse;
}

/** Every recording (test goldens and documentation examples), by file name. */
export function loadRecordings(): Map<string, Recording> {
  const recordings = new Map<string, Recording>();
  const read = (dir: string, prefix: string) => {
    for (const file of readdirSync(dir).sort()) {
      if (!file.endsWith('.json') || file === 'INDEX.json') continue;
      const raw = JSON.parse(readFileSync(path.join(dir, file), 'utf8')) as Omit<Recording, 'file'>;
      // Kept as recorded (not as zod outputs it), so comparisons can include key order.
      NodeResponse.parse(raw.response);
      recordings.set(prefix + file, { ...raw, file: prefix + file });
    }
  };
  read(RECORDINGS_DIR, '');
  if (existsSync(path.join(RECORDINGS_DIR, 'docs'))) read(path.join(RECORDINGS_DIR, 'docs'), 'docs/');
  return recordings;
}
