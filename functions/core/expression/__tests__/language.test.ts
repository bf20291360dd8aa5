import { describe, expect, it } from 'vitest';
import { compileExpression, type ExpressionScope } from '..';
import { evaluationError, movies, run } from './fixtures';

describe('INTERFACE.md Component rule 7: property access, array indexing, length, == and string +', () => {
  it.each<[string, unknown]>([
    ['response[0].id', 'tt001'],
    ["response[1]['primaryTitle']", 'Beta'],
    ["response['0'].startYear", 1999],
    ['response.length', 3],
    ["'abc'.length", 3],
    ['response[0].genres.length', 2],
    ["response[0].id == 'tt001'", true],
    ["response[0].id + '/' + response[1].id", 'tt001/tt002'],
    ["'Batch ' + batchNumber", 'Batch 3'],
    ['response[0].missing', undefined],
    ["contextField('user').email", 'a@b.c'],
    ["componentResponse('movies')[2].primaryTitle", 'Gamma'],
    ['event.data.new.id', 'tt001'],
  ])('%s evaluates to %j', (text, expected) => {
    expect(run(text)).toEqual(expected);
  });
});

describe('INTERFACE.md Component rules 4 and 5: contextField(name) and componentResponse(code) are host functions', () => {
  it('contextField returns the value of the named field of the query context', () => {
    expect(run("contextField('ids')")).toEqual(['tt001', 'tt002']);
  });

  it('componentResponse returns the response of the named component', () => {
    expect(run("componentResponse('movies').length")).toBe(3);
  });

  it('namespace functions such as _.get are callable through the namespace', () => {
    expect(run("_.get(response[0], 'genres.0')")).toBe('Drama');
    expect(run("_.pick(response[0], ['id', 'startYear'])")).toEqual({ id: 'tt001', startYear: 1999 });
  });

  it('variables are looked up before functions and namespaces of the same name', () => {
    const s: ExpressionScope = { variables: { _: [1, 2] }, functions: { _: { map: () => 'namespace' } } };
    expect(run('_.map(x => x * 10)', s)).toEqual([10, 20]);
  });

  it('scope.functions may replace a built-in', () => {
    expect(run('String(1)', { functions: { String: () => 'host' } })).toBe('host');
  });
});

describe('literals and identifiers', () => {
  it.each<[string, unknown]>([
    ["'single'", 'single'],
    ['"double"', 'double'],
    ["'esc\\'aped\\n'", "esc'aped\n"],
    ['42', 42],
    ['1.5', 1.5],
    ['.5', 0.5],
    ['1e3', 1000],
    ['true', true],
    ['false', false],
    ['null', null],
    ['undefined', undefined],
    ['batchNumber', 3],
  ])('%s evaluates to %j', (text, expected) => {
    expect(run(text)).toEqual(expected);
  });

  it('an unknown identifier raises "x is not defined"', () => {
    expect(evaluationError('nothing').reason).toBe('nothing is not defined');
  });

  it('an expression may be evaluated without variables or functions', () => {
    expect(compileExpression('1 + 1').evaluate({})).toBe(2);
  });
});

describe('operators', () => {
  it.each<[string, unknown]>([
    ['1 + 2 * 3', 7],
    ['(1 + 2) * 3', 9],
    ['10 - 4 / 2', 8],
    ['7 % 3', 1],
    ['2 * -3', -6],
    ["'a' + 1", 'a1'],
    ["1 + '1'", '11'],
    ["'5' * '2'", 10],
    ["+'3'", 3],
    ['-batchNumber', -3],
    ['[1, 2] + [3]', '1,23'],
    ["({}) + ''", '[object Object]'],
    ['1 / 0', Infinity],
    ['1 < 2', true],
    ['2 <= 2', true],
    ['3 > 4', false],
    ['4 >= 5', false],
    ["'b' > 'a'", true],
    ["1 == '1'", true],
    ["1 === '1'", false],
    ["1 != '1'", false],
    ["1 !== '1'", true],
    ['null == undefined', true],
    ['null === undefined', false],
    ['[1] == 1', true],
    ['response == response', true],
    ['response[0] == response[1]', false],
    ['true && 0', 0],
    ["0 || 'fallback'", 'fallback'],
    ["0 ?? 'fallback'", 0],
    ["null ?? 'fallback'", 'fallback'],
    ["undefined ?? null ?? 'last'", 'last'],
    ['!response.length', false],
    ['!!contextField("empty")', false],
    ["typeof 'x'", 'string'],
    ['typeof response', 'object'],
    ['typeof nothingAtAll', 'undefined'],
    ['typeof contextField', 'function'],
    ["typeof batchNumber + '!'", 'number!'],
    ["response.length > 2 ? 'many' : 'few'", 'many'],
    ["0 ? 'a' : null ? 'b' : 'c'", 'c'],
  ])('%s evaluates to %j', (text, expected) => {
    expect(run(text)).toEqual(expected);
  });

  it('&&, || and ?? do not evaluate their right side when the left decides', () => {
    expect(run('false && nothing.at.all')).toBe(false);
    expect(run('true || nothing')).toBe(true);
    expect(run("'set' ?? nothing")).toBe('set');
  });
});

describe('optional chaining', () => {
  it.each<[string, unknown]>([
    ["contextField('missing')?.email", undefined],
    ["contextField('missing')?.a.b.c", undefined],
    ["contextField('missing')?.[0].id", undefined],
    ["contextField('user')?.email", 'a@b.c'],
    ['response?.[0]?.id', 'tt001'],
    ["contextField('missing')?.map(x => x)", undefined],
    ["response[0].id.nonexistent?.()", undefined],
    ["contextField('missing')?.id ?? 'none'", 'none'],
  ])('%s evaluates to %j', (text, expected) => {
    expect(run(text)).toEqual(expected);
  });
});

describe('array and object literals, spread', () => {
  it.each<[string, unknown]>([
    ['[1, "two", [3]]', [1, 'two', [3]]],
    ['[]', []],
    ['[1, , 3]', [1, undefined, 3]],
    ['[...response.map(m => m.id), "x"]', ['tt001', 'tt002', 'tt003', 'x']],
    ["[...'ab']", ['a', 'b']],
    ['({a: 1, "b c": 2, 3: "three"})', { a: 1, 'b c': 2, 3: 'three' }],
    ["({['k' + 1]: true})", { k1: true }],
    ['({batchNumber})', { batchNumber: 3 }],
    ['({...response[1], genres: undefined, extra: 1}).primaryTitle', 'Beta'],
    ["({...contextField('user'), email: 'x'})", { id: 'a@b.c', email: 'x', favouriteGenre: 'Drama' }],
    ['({...null, ...undefined, ...1})', {}],
    ["({...['x']})", { 0: 'x' }],
    ['Math.max(...response.map(m => m.startYear))', 2012],
    ["response.map(m => ({id: m.id, n: m.genres.length}))[0]", { id: 'tt001', n: 2 }],
    ['response.map(m => {a: m.startYear})[2]', { a: 2012 }],
  ])('%s evaluates to %j', (text, expected) => {
    expect(run(text)).toEqual(expected);
  });

  it('an object literal has an ordinary prototype', () => {
    expect(Object.getPrototypeOf(run('({a: 1})'))).toBe(Object.prototype);
  });

  it('spreading something that is not a list into a list is an evaluation error', () => {
    expect(evaluationError('[...response[0]]').reason).toBe('Cannot spread an object into a list; only arrays and strings can be');
  });
});

describe('template literals', () => {
  it.each<[string, unknown]>([
    ["`/movies/${contextField('id')}`", '/movies/tt001'],
    ['`${batchNumber}-${batchNumber + 1}`', '3-4'],
    ["'<' + `plain` + '>'", '<plain>'],
    ["`a ${`b ${'c'}`}`", 'a b c'],
    ['`${response.map(m => m.id)}`', 'tt001,tt002,tt003'],
    ['`${null}|${undefined}|${true}|${({})}`', 'null|undefined|true|[object Object]'],
    ["'[' + `line\\nbreak` + ']'", '[line\nbreak]'],
    ['`x`.length', 1],
  ])('%s evaluates to %j', (text, expected) => {
    expect(run(text)).toEqual(expected);
  });
});

describe('arrow functions as arguments of whitelisted methods', () => {
  it.each<[string, unknown]>([
    ['response.map(m => m.id)', ['tt001', 'tt002', 'tt003']],
    ['response.map((m, i) => m.id + i)', ['tt0010', 'tt0021', 'tt0032']],
    ['response.map(() => 1)', [1, 1, 1]],
    ['response.map(m => m.genres.map(g => m.id + ":" + g)).flat()', ['tt001:Drama', 'tt001:Comedy', 'tt003:Horror']],
    ['response.filter(m => m.startYear > 2000).length', 2],
    ["response.find(m => m.titleType == 'short').id", 'tt002'],
    ["response.find(m => m.titleType == 'series')", undefined],
    ['response.findIndex(m => m.isAdult)', 2],
    ['response.some(m => m.runtimeMinutes < 0)', true],
    ['response.every(m => m.id.startsWith("tt"))', true],
    ['response.reduce((sum, m) => sum + m.startYear, 0)', 6016],
    ['[1, 2, 3].reduce((a, b) => a * b)', 6],
    ['response.flatMap(m => m.actors)', ['nm1', 'nm2', 'nm2']],
    ['[3, 1, 2].sort((a, b) => b - a)', [3, 2, 1]],
    ["'a-b'.replace('-', m => m + m)", 'a--b'],
  ])('%s evaluates to %j', (text, expected) => {
    expect(run(text)).toEqual(expected);
  });

  it('arrow functions see the parameters of enclosing arrow functions and the variables of the scope', () => {
    expect(run('[1, 2].map(a => [10, 20].map(b => a + b + batchNumber))')).toEqual([[14, 24], [15, 25]]);
  });

  it('an arrow parameter shadows a variable of the same name', () => {
    expect(run('[7].map(response => response + 1)')).toEqual([8]);
  });
});

describe('whitelisted array methods', () => {
  it.each<[string, unknown]>([
    ['[1, 2, 3].includes(2)', true],
    ["['a', null].includes('b')", false],
    ['[1, 2, 3].indexOf(3)', 2],
    ['[1, 2, 3].indexOf(9)', -1],
    ["[1, null, 'x', [2, 3]].join('|')", '1||x|2,3'],
    ['[1, 2].join()', '1,2'],
    ['[1, 2, 3, 4].slice(1, 3)', [2, 3]],
    ['[1, 2, 3, 4].slice(-2)', [3, 4]],
    ['[1].concat([2, 3], 4, [[5]])', [1, 2, 3, 4, [5]]],
    ['[1, [2, [3, [4]]]].flat()', [1, 2, [3, [4]]]],
    ['[1, [2, [3, [4]]]].flat(2)', [1, 2, 3, [4]]],
    ['[1, 2, 3].at(-1)', 3],
    ['[1, 2, 3].at(5)', undefined],
    ['[1, 2, 3].reverse()', [3, 2, 1]],
    ['[10, 9, 1].sort()', [1, 10, 9]],
    ["['b', undefined, 'a'].sort()", ['a', 'b', undefined]],
    ['[2, 1].toSorted()', [1, 2]],
    ['[1, 2].toReversed()', [2, 1]],
  ])('%s evaluates to %j', (text, expected) => {
    expect(run(text)).toEqual(expected);
  });

  it("reverse and sort return copies and never change the caller's data", () => {
    const list = [3, 1, 2];
    const s: ExpressionScope = { variables: { list } };
    expect(run('list.reverse()', s)).toEqual([2, 1, 3]);
    expect(run('list.sort()', s)).toEqual([1, 2, 3]);
    expect(run('list.sort((a, b) => b - a)', s)).toEqual([3, 2, 1]);
    expect(list).toEqual([3, 1, 2]);
  });

  it('map, filter, slice and concat return new arrays and leave the response untouched', () => {
    const before = JSON.stringify(movies);
    run('[response.map(m => m), response.filter(m => true), response.slice(), response.concat([1])]');
    expect(JSON.stringify(movies)).toBe(before);
  });

  it('a method that needs an arrow function says so', () => {
    expect(evaluationError('response.map(1)').reason).toBe('map expects an arrow function such as x => ..., not a number');
  });

  it('reduce of an empty array without an initial value is an evaluation error', () => {
    expect(evaluationError('[].reduce((a, b) => a + b)').reason).toBe('reduce of an empty array needs an initial value');
  });
});

describe('whitelisted string methods', () => {
  it.each<[string, unknown]>([
    ["'AbC'.toLowerCase()", 'abc'],
    ["'AbC'.toUpperCase()", 'ABC'],
    ["'  x  '.trim()", 'x'],
    ["'  x  '.trimStart()", 'x  '],
    ["'  x  '.trimEnd()", '  x'],
    ["'hello'.includes('ell')", true],
    ["'hello'.startsWith('he')", true],
    ["'hello'.endsWith('lo')", true],
    ["'hello'.indexOf('l')", 2],
    ["'hello'.slice(1, -1)", 'ell'],
    ["'hello'.slice(-3)", 'llo'],
    ["'hello'.substring(3, 1)", 'el'],
    ["'a,b,,c'.split(',')", ['a', 'b', '', 'c']],
    ["'abc'.split('')", ['a', 'b', 'c']],
    ["'a,b,c'.split(',', 2)", ['a', 'b']],
    ["'abc'.split()", ['abc']],
    ["'a-b-c'.replace('-', '+')", 'a+b-c'],
    ["'a-b'.replace('-', '$&$&')", 'a$&$&b'],
    ["'7'.padStart(3, '0')", '007'],
    ["'7'.padEnd(3)", '7  '],
    ["'ab'.repeat(3)", 'ababab'],
    ["'hello'.charAt(1)", 'e'],
    ["'hello'.at(-1)", 'o'],
    ["'x'.toString()", 'x'],
    ["'hello'[1]", 'e'],
  ])('%s evaluates to %j', (text, expected) => {
    expect(run(text)).toEqual(expected);
  });

  it('replace accepts only a string pattern', () => {
    expect(evaluationError("'abc'.replace(['b'], 'x')").reason).toBe('replace accepts only a string pattern, not an array');
  });
});

describe('whitelisted number methods and safe built-ins', () => {
  it.each<[string, unknown]>([
    ['(3.14159).toFixed(2)', '3.14'],
    ['(255).toString(16)', 'ff'],
    ['batchNumber.toString()', '3'],
    ['true.toString()', 'true'],
    ['Math.min(3, 1, 2)', 1],
    ['Math.max()', -Infinity],
    ['Math.floor(1.7)', 1],
    ['Math.ceil(1.2)', 2],
    ['Math.round(2.5)', 3],
    ['Math.abs(-4)', 4],
    ["JSON.stringify({a: [1, 'x', null], b: undefined})", '{"a":[1,"x",null]}'],
    ['JSON.stringify({a: 1}, null, 2)', '{\n  "a": 1\n}'],
    ['JSON.stringify(undefined)', undefined],
    ['JSON.parse(\'{"a":[1,2]}\').a[1]', 2],
    ["Object.keys(contextField('user'))", ['id', 'email', 'favouriteGenre']],
    ['Object.values({a: 1, b: 2})', [1, 2]],
    ["Object.entries({a: 1})", [['a', 1]]],
    ["Object.keys(['x', 'y'])", ['0', '1']],
    ['Array.isArray(response)', true],
    ['Array.isArray(response[0])', false],
    ["Number('42')", 42],
    ['Number()', 0],
    ["String(12) + String([1, 2])", '121,2'],
    ["Boolean('')", false],
    ["parseInt('42px')", 42],
    ["parseInt('ff', 16)", 255],
    ["parseFloat('3.5kg')", 3.5],
    ["encodeURIComponent('a b&c/é')", 'a%20b%26c%2F%C3%A9'],
  ])('%s evaluates to %j', (text, expected) => {
    expect(run(text)).toEqual(expected);
  });

  it('JSON.parse of bad text is an evaluation error naming JSON.parse', () => {
    expect(evaluationError("JSON.parse('{')").reason).toMatch(/^JSON\.parse failed: /);
  });
});
