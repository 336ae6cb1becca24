import { CoreError } from '../../../../shared/ipc/index.ts';

/**
 * The text of an export, from its bytes. Exports are UTF-8, with or without a byte order mark
 * (Chrome, Firefox, Bitwarden, 1Password, KeePassXC all write UTF-8); a file re-saved by a
 * spreadsheet on Windows may be UTF-16 with a byte order mark. Anything else (a legacy code
 * page, a binary file) is refused with the byte where reading stopped, never read as garbage.
 */
export interface DecodedText {
  text: string;
  /** The text as UTF-8 without a byte order mark (the input itself when it was UTF-8: no copy). */
  utf8: Uint8Array;
}

export function decodeText(bytes: Uint8Array): DecodedText {
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return decodeUtf16(bytes, 'utf-16le');
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return decodeUtf16(bytes, 'utf-16be');
  const start = bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? 3 : 0;
  const utf8 = bytes.subarray(start);
  try {
    return { text: new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(utf8), utf8 };
  } catch {
    const offset = start + firstInvalidUtf8(utf8);
    throw new CoreError(
      'invalid-arguments',
      `The file is not UTF-8 text: the byte at offset ${offset.toLocaleString('en-US')} is not part of a valid character. Export it again from the password manager, or save it as UTF-8.`,
    );
  }
}

function decodeUtf16(bytes: Uint8Array, encoding: 'utf-16le' | 'utf-16be'): DecodedText {
  const body = bytes.subarray(2);
  if (body.length % 2 !== 0)
    throw new CoreError('invalid-arguments', `The file says it is UTF-16 text but ends in the middle of a character (it has an odd number of bytes). Export it again, or save it as UTF-8.`);
  let text: string;
  try {
    text = new TextDecoder(encoding, { fatal: true, ignoreBOM: true }).decode(body);
  } catch {
    const offset = 2 + firstUnpairedSurrogate(body, encoding === 'utf-16le');
    throw new CoreError(
      'invalid-arguments',
      `The file is not valid UTF-16 text: the character at byte offset ${offset.toLocaleString('en-US')} is half of a pair. Export it again, or save it as UTF-8.`,
    );
  }
  return { text, utf8: new TextEncoder().encode(text) };
}

/** Where a UTF-8 decoder gives up (RFC 3629, section 4: no overlong forms, no surrogates, nothing past U+10FFFF). */
export function firstInvalidUtf8(bytes: Uint8Array): number {
  let i = 0;
  while (i < bytes.length) {
    const lead = bytes[i]!;
    if (lead < 0x80) {
      i++;
      continue;
    }
    const trailing = lead >= 0xc2 && lead <= 0xdf ? 1 : lead >= 0xe0 && lead <= 0xef ? 2 : lead >= 0xf0 && lead <= 0xf4 ? 3 : 0;
    if (trailing === 0) return i;
    for (let k = 1; k <= trailing; k++) {
      const next = bytes[i + k];
      let low = 0x80;
      let high = 0xbf;
      if (k === 1) {
        if (lead === 0xe0) low = 0xa0;
        if (lead === 0xed) high = 0x9f;
        if (lead === 0xf0) low = 0x90;
        if (lead === 0xf4) high = 0x8f;
      }
      if (next === undefined || next < low || next > high) return i;
    }
    i += trailing + 1;
  }
  return bytes.length;
}

function firstUnpairedSurrogate(body: Uint8Array, littleEndian: boolean): number {
  const unit = (i: number) => (littleEndian ? body[i]! | (body[i + 1]! << 8) : (body[i]! << 8) | body[i + 1]!);
  for (let i = 0; i < body.length; i += 2) {
    const code = unit(i);
    if (code >= 0xd800 && code <= 0xdbff) {
      const next = i + 2 < body.length ? unit(i + 2) : -1;
      if (next < 0xdc00 || next > 0xdfff) return i;
      i += 2;
    } else if (code >= 0xdc00 && code <= 0xdfff) return i;
  }
  return body.length;
}
