/**
 * Reading files a workspace controls (`.dynalintrc.json`, `.gitignore`, files named on the command line) without
 * trusting what they are: only a regular file is read (a FIFO would block forever, a link to `/dev/zero` would never
 * end), its size is capped before anything is read, and its bytes must be UTF-8 (decoded strictly: a latin-1 file is
 * reported, never turned into U+FFFD and written back). Synchronous, no sleeping, no time-box: every check is on the
 * open descriptor, so what is checked is what is read.
 */
import { closeSync, constants, fstatSync, openSync, readSync, type Stats } from 'node:fs';

/** Why a file was not read, in one line (`not a regular file (a FIFO)`, `not valid UTF-8 (byte 0xE9 at offset 3)`). */
export class UnreadableFileError extends Error {}

export interface TextFile {
  text: string;
  /** The file began with a UTF-8 byte order mark (not part of `text`; a writer puts it back). */
  bom: boolean;
  /** Size and modification time when read: a writer compares them before replacing the file. */
  size: number;
  mtimeMs: number;
}

function kindOf(st: Stats): string {
  if (st.isDirectory()) return 'a directory';
  if (st.isFIFO()) return 'a FIFO';
  if (st.isCharacterDevice()) return 'a character device';
  if (st.isBlockDevice()) return 'a block device';
  if (st.isSocket()) return 'a socket';
  return 'not a regular file';
}

const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/** The offset of the first byte that does not start a valid UTF-8 sequence (for the message only). */
function firstInvalid(b: Uint8Array): number {
  for (let i = 0; i < b.length; ) {
    const c = b[i];
    const n = c < 0x80 ? 0 : c >= 0xc2 && c <= 0xdf ? 1 : c >= 0xe0 && c <= 0xef ? 2 : c >= 0xf0 && c <= 0xf4 ? 3 : -1;
    if (n < 0) return i;
    // The second byte's range is narrower after E0, ED, F0 and F4 (no overlongs, surrogates or code points > 10FFFF).
    const lo = c === 0xe0 ? 0xa0 : c === 0xf0 ? 0x90 : 0x80;
    const hi = c === 0xed ? 0x9f : c === 0xf4 ? 0x8f : 0xbf;
    for (let k = 1; k <= n; k++) {
      const x = b[i + k];
      if (x === undefined || x < (k === 1 ? lo : 0x80) || x > (k === 1 ? hi : 0xbf)) return i;
    }
    i += n + 1;
  }
  return b.length;
}

/** Strict UTF-8 decoding of a whole file's bytes (a leading BOM is reported, not kept). */
export function decodeUtf8(bytes: Uint8Array): { text: string; bom: boolean } {
  const bom = bytes.length >= 3 && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf;
  const body = bom ? bytes.subarray(3) : bytes;
  try {
    return { text: utf8.decode(body), bom };
  } catch {
    const at = firstInvalid(body);
    const byte = body[at] ?? 0;
    throw new UnreadableFileError(`not valid UTF-8 (byte 0x${byte.toString(16).toUpperCase().padStart(2, '0')} at offset ${at + (bom ? 3 : 0)})`);
  }
}

/**
 * Read a regular file of at most `maxBytes` as strict UTF-8. Throws `UnreadableFileError` with a one-line reason for
 * anything else (or the system's error, e.g. ENOENT/EACCES, for a file that cannot be opened).
 */
export function readTextFile(path: string, maxBytes: number): TextFile {
  // O_NONBLOCK: opening a FIFO with no writer returns at once instead of waiting for one (it is then refused below).
  const fd = openSync(path, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0) | (constants.O_NOCTTY ?? 0));
  try {
    const st = fstatSync(fd);
    if (!st.isFile()) throw new UnreadableFileError(`not a regular file (${kindOf(st)})`);
    if (st.size > maxBytes) throw new UnreadableFileError(`${st.size} bytes, over the limit of ${maxBytes}`);
    // Read one byte more than the size: a file that grew since fstat is caught, and nothing past the cap is read.
    const buf = Buffer.allocUnsafe(Math.min(st.size, maxBytes) + 1);
    let got = 0;
    for (;;) {
      const n = readSync(fd, buf, got, buf.length - got, null);
      if (n === 0) break;
      got += n;
      if (got === buf.length) break;
    }
    if (got > maxBytes) throw new UnreadableFileError(`over the limit of ${maxBytes} bytes`);
    const { text, bom } = decodeUtf8(buf.subarray(0, got));
    return { text, bom, size: got, mtimeMs: st.mtimeMs };
  } finally {
    closeSync(fd);
  }
}

/** The one-line reason a read failed, for a report (`EACCES: permission denied` without the path noise). */
export function readFailure(e: unknown): string {
  if (e instanceof UnreadableFileError) return e.message;
  const err = e as NodeJS.ErrnoException;
  return err?.code ? `${err.code}: ${(err.message ?? '').replace(/^[A-Z]+: /, '').replace(/, \w+ '.*'$/, '')}` : String(e);
}

/** The cap for configuration files (`.dynalintrc.json`, `.gitignore`): far above any real one. */
export const CONFIG_FILE_MAX_BYTES = 1024 * 1024;
