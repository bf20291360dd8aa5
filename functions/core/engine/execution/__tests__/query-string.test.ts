import { describe, expect, it } from 'vitest';
import { buildQueryString } from '../query-string';

const ids: [string, unknown][] = [['_id', ['a b', 'c']]];

describe('query parameter options (INTERFACE.md "Component" rules 1-2, COMPAT.md queryParamsOptions)', () => {
  it('arrayFormat bracket serialises an array as repeated name[]=value pairs joined by &', () => {
    expect(decodeURIComponent(buildQueryString([['_id', ['tt1', 'tt2']]], { arrayFormat: 'bracket' }))).toBe('_id[]=tt1&_id[]=tt2');
  });

  it('every other arrayFormat of COMPAT.md', () => {
    const build = (arrayFormat: any, extra = {}) => decodeURIComponent(buildQueryString(ids, { arrayFormat, ...extra }));
    expect(build('none')).toBe('_id=a b&_id=c');
    expect(build('index')).toBe('_id[0]=a b&_id[1]=c');
    expect(build('comma')).toBe('_id=a b,c');
    expect(build('separator', { arrayFormatSeparator: '|' })).toBe('_id=a b|c');
    expect(build('bracket-separator', { arrayFormatSeparator: '|' })).toBe('_id[]=a b|c');
    expect(build('colon-list-separator')).toBe('_id:list=a b&_id:list=c');
  });

  it('values are encoded by default and left alone with encode false', () => {
    expect(buildQueryString([['q', 'a b&c']])).toBe('q=a%20b%26c');
    expect(buildQueryString([['q', 'a b']], { encode: false })).toBe('q=a b');
  });

  it('null values are skipped by default, empty strings kept by default', () => {
    expect(buildQueryString([['a', null], ['b', ''], ['c', 1]])).toBe('b=&c=1');
    expect(buildQueryString([['a', null], ['b', '']], { skipNull: false, skipEmptyString: true })).toBe('a=');
  });
});
