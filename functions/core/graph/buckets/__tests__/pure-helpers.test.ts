import { describe, expect, it } from 'vitest';
import { blobKey, bucketPrefix, filenameOfKey } from '../blob-key';
import { checkBucketCode, isDefaultBucket } from '../bucket-code';
import { checkFilename, filenameProblem } from '../filename';
import { checkFilenamePattern, compileFilenamePattern, literalPrefixOf, matchesFilenamePattern } from '../pattern';

describe('filename patterns: * and ? only, the whole filename must match', () => {
  it('* matches any run of characters, also none; ? exactly one character', () => {
    expect(matchesFilenamePattern('*.jsonl', 'movies.jsonl')).toBe(true);
    expect(matchesFilenamePattern('*.jsonl', '.jsonl')).toBe(true);
    expect(matchesFilenamePattern('*.jsonl', 'movies.jsonl.bak')).toBe(false);
    expect(matchesFilenamePattern('movies-000??.jsonl', 'movies-00012.jsonl')).toBe(true);
    expect(matchesFilenamePattern('movies-000??.jsonl', 'movies-0001.jsonl')).toBe(false);
    expect(matchesFilenamePattern('movies-000??.jsonl', 'movies-000123.jsonl')).toBe(false);
    expect(matchesFilenamePattern('?', 'é')).toBe(true);
    expect(matchesFilenamePattern('?', '😀')).toBe(true);
    expect(matchesFilenamePattern('a*b*c', 'a--b--c')).toBe(true);
  });

  it('every other character is literal, regular-expression syntax included', () => {
    for (const name of ['a.b', 'a+b', '(x)', '[ab]', 'a{2}', '^x$', 'a|b', 'a\u2028b', 'back-ref']) {
      expect(matchesFilenamePattern(name, name), name).toBe(true);
    }
    expect(matchesFilenamePattern('a.b', 'axb')).toBe(false);
    expect(matchesFilenamePattern('[ab]', 'a')).toBe(false);
    expect(matchesFilenamePattern('a|b', 'a')).toBe(false);
    expect(compileFilenamePattern('*.csv').source).toBe('^.*\\.csv$');
  });

  it('the literal prefix is the text before the first wildcard', () => {
    expect(literalPrefixOf('movies-*.jsonl')).toBe('movies-');
    expect(literalPrefixOf('m?vies*')).toBe('m');
    expect(literalPrefixOf('*')).toBe('');
    expect(literalPrefixOf('exact.json')).toBe('exact.json');
  });

  it('an empty pattern, or one no filename could match, is refused', () => {
    for (const pattern of ['', 'a/*', '*\\*', 'a\u0000', 'x'.repeat(1025)]) {
      expect(() => checkFilenamePattern(pattern), JSON.stringify(pattern)).toThrow(expect.objectContaining({ statusCode: 400, code: 'InvalidPattern' }));
    }
  });
});

describe('filenames', () => {
  it('refuses empty, . and .., separators, control characters and more than 255 bytes', () => {
    const bad = ['', '.', '..', 'a/b', '/a', 'a\\b', 'a\u0000b', 'a\nb', 'a\u007fb', 'a\u0085b', 'x'.repeat(256), 'é'.repeat(128), 'a\uD800b'];
    for (const name of bad) {
      expect(filenameProblem(name), JSON.stringify(name)).toBeDefined();
      expect(() => checkFilename(name)).toThrow(expect.objectContaining({ statusCode: 400, code: 'InvalidFilename' }));
    }
  });

  it('accepts dots, spaces, unicode and exactly 255 bytes', () => {
    for (const name of ['...', '.hidden', 'a b.json', 'movies-00001.jsonl', 'x'.repeat(255), 'é'.repeat(127) + 'x', '😀.txt']) {
      expect(filenameProblem(name), name).toBeUndefined();
    }
  });
});

describe('bucket codes and blob keys', () => {
  it('bucket codes are 1 to 64 letters, digits, _ or -, starting with a letter or digit', () => {
    for (const code of ['incoming', 'A', '0', 'exports_2024-q1', 'x'.repeat(64)]) expect(checkBucketCode(code)).toBe(code);
    for (const code of ['', '-a', '_a', 'a.b', 'a/b', '..', 'x'.repeat(65), 'ü']) {
      expect(() => checkBucketCode(code), code).toThrow(expect.objectContaining({ statusCode: 400, code: 'InvalidBucketCode' }));
    }
    expect(isDefaultBucket('skipped')).toBe(true);
    expect(isDefaultBucket('Skipped')).toBe(false);
  });

  it('keys are <customer>/<bucket>/<filename>, so no customer or bucket is a prefix of another', () => {
    expect(blobKey('acme', 'incoming', 'a.jsonl')).toBe('acme/incoming/a.jsonl');
    expect(bucketPrefix('acme', 'in')).toBe('acme/in/');
    expect(blobKey('acme', 'incoming', 'x').startsWith(bucketPrefix('acme', 'in'))).toBe(false);
    expect(filenameOfKey('acme/incoming/a.jsonl', 'acme/incoming/')).toBe('a.jsonl');
    expect(filenameOfKey('acme/incoming/deeper/a.jsonl', 'acme/incoming/')).toBeUndefined();
    expect(filenameOfKey('globex/incoming/a.jsonl', 'acme/incoming/')).toBeUndefined();
    expect(() => bucketPrefix('ac/me', 'incoming')).toThrow();
    expect(() => bucketPrefix('.tmp', 'incoming')).toThrow();
  });
});
