import { BadRequestError } from '../../../http/errors';

/** The longest pattern accepted. */
export const MAX_PATTERN_LENGTH = 1024;

// eslint-disable-next-line no-control-regex
const NEVER_IN_A_FILENAME = /[/\\\u0000-\u001f\u007f]/;

/**
 * A filename pattern (COMPAT.md "Buckets": `pattern=` wildcards, and the import job's
 * `filenamePattern`): `*` matches any run of characters (also none), `?` exactly one
 * character; everything else matches itself. The whole filename must match.
 */
export function compileFilenamePattern(pattern: string): RegExp {
  checkFilenamePattern(pattern);
  let source = '';
  for (const char of pattern) {
    if (char === '*') source += '.*';
    else if (char === '?') source += '.';
    else source += char.replace(/[\\^$.*+?()[\]{}|]/g, '\\$&');
  }
  // `u`: `?` is one code point, not one UTF-16 unit; `s`: `.` matches any character.
  return new RegExp(`^${source}$`, 'us');
}

/** True when `filename` matches `pattern`. */
export function matchesFilenamePattern(pattern: string, filename: string): boolean {
  return compileFilenamePattern(pattern).test(filename);
}

/** The text before the first wildcard: every match begins with it, so listings can start there. */
export function literalPrefixOf(pattern: string): string {
  const wildcard = pattern.search(/[*?]/);
  return wildcard < 0 ? pattern : pattern.slice(0, wildcard);
}

/** The pattern itself, or a 400 `InvalidPattern`; a pattern that no filename could match is refused. */
export function checkFilenamePattern(pattern: string): string {
  if (pattern === '') throw new BadRequestError('The pattern is empty: use * for every file', 'InvalidPattern');
  if (pattern.length > MAX_PATTERN_LENGTH) {
    throw new BadRequestError(`The pattern is longer than ${MAX_PATTERN_LENGTH} characters`, 'InvalidPattern');
  }
  if (NEVER_IN_A_FILENAME.test(pattern)) {
    throw new BadRequestError(`Invalid pattern ${JSON.stringify(pattern)}: filenames never contain /, \\ or control characters`, 'InvalidPattern');
  }
  return pattern;
}
