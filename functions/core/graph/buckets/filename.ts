import { BadRequestError } from '../../../http/errors';

/** The longest filename, in UTF-8 bytes (the usual file-system limit for one name). */
export const MAX_FILENAME_BYTES = 255;

// C0 and C1 control characters and DEL.
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/**
 * Why a filename is not acceptable, or undefined. A filename is the last segment of a blob key
 * (`<customer>/<bucket>/<filename>`), so it may not contain `/` or `\`, nor be `.` or `..`:
 * no filename can reach another bucket or another customer's files.
 */
export function filenameProblem(filename: string): string | undefined {
  if (filename === '') return 'it is empty';
  if (filename === '.' || filename === '..') return 'it is . or ..';
  if (filename.includes('/') || filename.includes('\\')) return 'it contains / or \\';
  if (CONTROL.test(filename)) return 'it contains a control character';
  if (LONE_SURROGATE.test(filename)) return 'it is not valid Unicode';
  if (Buffer.byteLength(filename) > MAX_FILENAME_BYTES) return `it is longer than ${MAX_FILENAME_BYTES} bytes`;
  return undefined;
}

/** The filename itself, or a 400 `InvalidFilename` saying what is wrong with it. */
export function checkFilename(filename: string): string {
  const problem = filenameProblem(filename);
  if (problem) throw new BadRequestError(`Invalid filename ${JSON.stringify(filename)}: ${problem}`, 'InvalidFilename');
  return filename;
}
