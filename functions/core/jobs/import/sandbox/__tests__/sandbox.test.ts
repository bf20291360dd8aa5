import _ from 'lodash';
import { afterAll, describe, expect, it } from 'vitest';
import { TransformerCompileError, TransformerSandbox, type TransformerOutcome } from '..';

const sandboxes: TransformerSandbox[] = [];
function sandbox(options?: ConstructorParameters<typeof TransformerSandbox>[0]): TransformerSandbox {
  const created = new TransformerSandbox(options);
  sandboxes.push(created);
  return created;
}
afterAll(async () => {
  await Promise.all(sandboxes.map((s) => s.close()));
});

const shared = sandbox();
async function transform(expressions: string[], records: unknown[]): Promise<TransformerOutcome[]> {
  const prepared = await shared.prepare(expressions);
  return prepared.run(records);
}
function values(outcomes: TransformerOutcome[]): unknown[] {
  return outcomes.map((o) => (o.ok ? o.value : { error: o.error }));
}
/** Everything that came back is plain JSON data: no function, no host object of any kind. */
function assertJsonData(value: unknown, path = '$'): void {
  if (value === null || ['string', 'number', 'boolean'].includes(typeof value)) return;
  if (Array.isArray(value)) return value.forEach((v, i) => assertJsonData(v, `${path}[${i}]`));
  expect(typeof value, path).toBe('object');
  expect(Object.getPrototypeOf(value), path).toBe(Object.prototype);
  for (const key of Reflect.ownKeys(value as object)) {
    expect(typeof key, path).toBe('string');
    const desc = Object.getOwnPropertyDescriptor(value, key)!;
    expect('value' in desc, `${path}.${String(key)} is a data property`).toBe(true);
    assertJsonData(desc.value, `${path}.${String(key)}`);
  }
}

describe('TransformerSandbox: customer expressions', () => {
  it('runs the documented examples', async () => {
    const record = { id: 7, first: 'Ada', last: 'Lovelace', title: 'Notes', year: '1843', genres: 'math|computing' };
    expect(values(await transform(["_.set(data, 'fullName', data.first + ' ' + data.last)"], [record]))).toEqual([
      { ...record, fullName: 'Ada Lovelace' },
    ]);
    expect(values(await transform(["_.pick(data, ['id', 'title', 'year'])"], [record]))).toEqual([
      { id: 7, title: 'Notes', year: '1843' },
    ]);
    expect(values(await transform(['({...data, year: _.toNumber(data.year)})'], [record]))).toEqual([{ ...record, year: 1843 }]);
    expect(values(await transform(["data.genres = data.genres.split('|'), data"], [record]))).toEqual([
      { ...record, genres: ['math', 'computing'] },
    ]);
  });

  it('applies transformers in order and the last one can keep only the listed fields', async () => {
    const outcomes = await transform(
      ["_.set(data, 'x', 1)", '({...data, y: data.x + 1})', "_.pick(data, ['id', 'x', 'y'])"],
      [{ id: 1, drop: 'me', nested: { a: 1 } }, { id: 2 }],
    );
    expect(values(outcomes)).toEqual([
      { id: 1, x: 1, y: 2 },
      { id: 2, x: 1, y: 2 },
    ]);
  });

  it('keeps record order across several batches and reuses the compiled transformers', async () => {
    const s = sandbox({ batchSize: 64 });
    const prepared = await s.prepare(["_.set(data, 'double', data.n * 2)"]);
    const records = Array.from({ length: 1000 }, (_, n) => ({ n }));
    const first = await prepared.run(records);
    const second = await prepared.run(records.slice(0, 10));
    expect(first.map((o) => (o.ok ? (o.value as { double: number }).double : -1))).toEqual(records.map((r) => r.n * 2));
    expect(second).toHaveLength(10);
  });

  it('accepts a trailing semicolon and a trailing line comment', async () => {
    expect(values(await transform(["_.set(data, 'a', 1);", "_.set(data, 'b', 2) // the b field"], [{}]))).toEqual([{ a: 1, b: 2 }]);
  });

  it('gives lodash semantics for set, get, pick, omit, has, merge, cloneDeep, toNumber, toString, isEmpty', async () => {
    const record = { id: 1, a: { b: [1, { c: 2 }] }, s: ' 42 ', empty: {}, list: [], n: null, toString: 'own', valueOf: 3 };
    const expressions: Record<string, string> = {
      set: "_.set(_.cloneDeep(data), 'a.b[1].d', 3)",
      setPlain: "_.set(_.cloneDeep(data), 'x', undefined)",
      setBanned: "_.set(_.cloneDeep(data), 'constructor', 1)",
      setOverride: "_.set(_.cloneDeep(data), 'hasOwnProperty', 5)",
      get: "({v: _.get(data, 'a.b[1].c'), w: _.get(data, 'missing', 'dflt'), x: _.get(data, 'n', 'dflt'), y: _.get(data, ['a', 'b', 0])})",
      pick: "_.pick(data, ['id', 'missing', 'a.b', 'constructor', 'toString', 'hasOwnProperty'])",
      pickRest: "_.pick(data, 'id', ['s'])",
      omit: "_.omit(data, ['a', 'toString'])",
      omitDeep: "_.omit(data, ['a.b'])",
      has: "({a: _.has(data, 'a'), ab: _.has(data, 'a.b[1].c'), m: _.has(data, 'missing'), t: _.has(data, 'hasOwnProperty')})",
      merge: '_.merge({}, data, {a: {b: [9], z: 1}})',
      cloneDeep: '_.cloneDeep(data)',
      convert: "({n: _.toNumber(data.s), t: _.toString(data.a.b), e: _.isEmpty(data.empty), l: _.isEmpty(data.list), i: _.isEmpty(data.id)})",
    };
    const names = Object.keys(expressions);
    const prepared = await Promise.all(names.map((name) => shared.prepare([expressions[name]])));
    const outcomes = await Promise.all(prepared.map((p) => p.run([record])));
    // The same expressions on the host with real lodash (JSON round trip = what crosses the boundary).
    const host = names.map((name) => {
      const fn = new Function('data', '_', `return (${expressions[name]});`) as (data: unknown, l: typeof _) => unknown;
      return JSON.parse(JSON.stringify(fn(_.cloneDeep(record), _)));
    });
    names.forEach((name, i) => expect(values(outcomes[i])[0], name).toEqual(host[i]));
  });
});

describe('TransformerSandbox: failing records', () => {
  it('fails only the record whose transformer throws, with the message', async () => {
    const outcomes = await transform(
      ["data.bad ? (() => { throw new Error('bad record ' + data.id) })() : data", 'data.missing.field ? data : data'],
      [{ id: 1, missing: {} }, { id: 2, bad: true }, { id: 3 }, { id: 4, missing: { field: 1 } }],
    );
    expect(outcomes[0]).toEqual({ ok: true, value: { id: 1, missing: {} } });
    expect(outcomes[1]).toEqual({ ok: false, error: 'transformers[0] threw Error: bad record 2' });
    expect(outcomes[2].ok).toBe(false);
    expect((outcomes[2] as { error: string }).error).toMatch(/^transformers\[1\] threw TypeError: .*field/);
    expect(outcomes[3]).toEqual({ ok: true, value: { id: 4, missing: { field: 1 } } });
  });

  it('fails a record whose result is not a plain object', async () => {
    const outcomes = await transform(
      ['data.r === "array" ? [data] : data.r === "number" ? 5 : data.r === "null" ? null : data.r === "undefined" ? undefined : data.r === "date" ? new Date(0) : data.r === "promise" ? Promise.resolve(data) : data.r === "string" ? "x" : data'],
      ['array', 'number', 'null', 'undefined', 'date', 'promise', 'string', 'ok'].map((r) => ({ r })),
    );
    expect(outcomes.map((o) => o.ok)).toEqual([false, false, false, false, false, false, false, true]);
    expect((outcomes[0] as { error: string }).error).toBe('transformers[0] returned an array; a transformer must return a plain object');
    expect((outcomes[3] as { error: string }).error).toContain('returned undefined');
    expect((outcomes[5] as { error: string }).error).toContain('Promise');
  });

  it('turns results into JSON data: functions and undefined dropped, a cycle fails only its record', async () => {
    const outcomes = await transform(
      ['data.cycle ? (data.self = data, data) : ({...data, f: () => 1, u: undefined, d: new Date(0), nested: {g() {}}})'],
      [{ id: 1 }, { id: 2, cycle: true }, { id: 3 }],
    );
    expect(outcomes[0]).toEqual({ ok: true, value: { id: 1, d: '1970-01-01T00:00:00.000Z', nested: {} } });
    expect(outcomes[1].ok).toBe(false);
    expect((outcomes[1] as { error: string }).error).toMatch(/could not be serialised as JSON.*circular/i);
    expect(outcomes[2].ok).toBe(true);
  });

  it('fails a record that is not JSON data on the host side', async () => {
    const outcomes = await transform(['data'], [{ id: 1 }, { big: 1n }, undefined, 'text', { id: 5 }]);
    expect(outcomes.map((o) => o.ok)).toEqual([true, false, false, false, true]);
  });

  it('stops an infinite loop at the deadline, fails only that record, and the next batch works', async () => {
    const s = sandbox(); // default deadline: 1000 ms
    const prepared = await s.prepare(['data.loop ? (() => { while (true) {} })() : data']);
    const started = Date.now();
    const outcomes = await prepared.run([{ id: 1 }, { id: 2, loop: true }, { id: 3 }]);
    expect(Date.now() - started).toBeLessThan(4000);
    expect(outcomes).toEqual([
      { ok: true, value: { id: 1 } },
      { ok: false, error: 'Transformer exceeded its deadline of 1000 ms' },
      { ok: true, value: { id: 3 } },
    ]);
    expect(await prepared.run([{ id: 4 }])).toEqual([{ ok: true, value: { id: 4 } }]);
  });

  it('kills and replaces the worker when the deadline is not enforced from inside (host wall clock)', async () => {
    const s = sandbox({ deadlineMs: 200, interruptInside: false });
    const prepared = await s.prepare(['data.loop ? (() => { while (true) {} })() : data']);
    const outcomes = await prepared.run([{ id: 1 }, { id: 2, loop: true }, { id: 3 }]);
    expect(outcomes).toEqual([
      { ok: true, value: { id: 1 } },
      { ok: false, error: 'Transformer exceeded its deadline of 200 ms' },
      { ok: true, value: { id: 3 } },
    ]);
    expect(await prepared.run([{ id: 4 }])).toEqual([{ ok: true, value: { id: 4 } }]);
  });

  it('fails a memory bomb with the memory limit as the reason; other records are unaffected', async () => {
    const outcomes = await transform(
      ['data.bomb ? (() => { let a = []; while (true) a.push(new Array(1e6)); })() : data'],
      [{ id: 1 }, { id: 2, bomb: true }, { id: 3 }],
    );
    expect(outcomes[0]).toEqual({ ok: true, value: { id: 1 } });
    expect(outcomes[1].ok).toBe(false);
    expect((outcomes[1] as { error: string }).error).toMatch(/memory limit of 32 MiB/);
    expect(outcomes[2]).toEqual({ ok: true, value: { id: 3 } });
    expect(values(await transform(["_.set(data, 'after', true)"], [{ id: 4 }]))).toEqual([{ id: 4, after: true }]);
  });

  it('fails deep recursion with the stack limit as the reason', async () => {
    const outcomes = await transform(['data.deep ? (function f() { return f(); })() : data'], [{ deep: true }, { id: 2 }]);
    expect(outcomes[0].ok).toBe(false);
    expect((outcomes[0] as { error: string }).error).toMatch(/maximum stack size of 256 KiB/);
    expect(outcomes[1]).toEqual({ ok: true, value: { id: 2 } });
  });

  it('fails only the record whose transformer builds something nested too deeply', async () => {
    const outcomes = await transform(
      [`data.deep ? JSON.parse('{"d":'.repeat(100000) + '1' + '}'.repeat(100000)) : data`],
      [{ id: 1 }, { deep: true }, { id: 3 }],
    );
    expect(outcomes[0]).toEqual({ ok: true, value: { id: 1 } });
    expect(outcomes[1]).toEqual({ ok: false, error: 'transformers[0] threw SyntaxError: stack overflow' });
    expect(outcomes[2]).toEqual({ ok: true, value: { id: 3 } });
  });

  it('drains or discards promise jobs a transformer leaves behind', async () => {
    const prepared = await shared.prepare(['(Promise.resolve().then(() => { while (true) {} }), data)']);
    const started = Date.now();
    expect(await prepared.run([{ id: 1 }])).toEqual([{ ok: true, value: { id: 1 } }]);
    expect(values(await transform(['data'], [{ id: 2 }]))).toEqual([{ id: 2 }]);
    expect(Date.now() - started).toBeLessThan(4000);
  });
});

describe('TransformerSandbox: isolation', () => {
  it('gives the transformer no way to reach the host', async () => {
    const attempts = [
      'process',
      'process.env',
      "require('fs')",
      "globalThis.constructor.constructor('return process')()",
      "({}).constructor.constructor('return typeof process')()",
      'this',
      "import('fs')",
      "Function('return this')()",
      "({...Function('return this')()})",
      "eval('this')",
      '({ types: [typeof process, typeof require, typeof module, typeof fetch, typeof setTimeout, typeof setInterval, typeof queueMicrotask, typeof XMLHttpRequest, typeof WebAssembly, typeof Buffer, typeof std, typeof os, typeof globalThis.__dirname] })',
      '({ globals: Object.getOwnPropertyNames(globalThis).filter((k) => !/^[A-Z]/.test(k)) })',
      "({ caller: (function () { try { return String(Function('return (function g(){ return g.caller })()')()) } catch (e) { return e.name } })() })",
      '({ stack: new Error("x").stack })',
    ];
    const outcomes = await Promise.all(attempts.map(async (expression) => (await shared.prepare([expression])).run([{ id: 1 }])));
    const byAttempt = Object.fromEntries(attempts.map((a, i) => [a, outcomes[i][0]]));
    for (const outcome of Object.values(byAttempt)) assertJsonData(outcome);
    expect(byAttempt.process).toEqual({ ok: false, error: "transformers[0] threw ReferenceError: 'process' is not defined" });
    expect(byAttempt["require('fs')"].ok).toBe(false);
    expect(byAttempt["globalThis.constructor.constructor('return process')()"].ok).toBe(false);
    expect(byAttempt["({}).constructor.constructor('return typeof process')()"].ok).toBe(false);
    expect(byAttempt.this).toEqual({ ok: false, error: 'transformers[0] returned undefined; a transformer must return a plain object' });
    expect(byAttempt["import('fs')"].ok).toBe(false);
    // The sandbox's own global object, serialised as JSON: nothing enumerable on it.
    expect(byAttempt["Function('return this')()"]).toEqual({ ok: true, value: {} });
    expect(byAttempt["({...Function('return this')()})"]).toEqual({ ok: true, value: {} });
    const types = (byAttempt[attempts[10]] as { value: { types: string[] } }).value.types;
    expect(types.every((t) => t === 'undefined')).toBe(true);
    const globals = (byAttempt[attempts[11]] as { value: { globals: string[] } }).value.globals;
    expect(globals.sort()).toEqual(
      ['_', 'console', 'decodeURI', 'decodeURIComponent', 'encodeURI', 'encodeURIComponent', 'escape', 'eval', 'globalThis', 'isFinite', 'isNaN', 'parseFloat', 'parseInt', 'undefined', 'unescape', 'Infinity', 'NaN'].filter((k) => !/^[A-Z]/.test(k)).sort(),
    );
  });

  it('does not let one record poison built-ins, lodash or globals for the next', async () => {
    const poison = [
      'Array.prototype.map = null',
      'Object.prototype.polluted = 1',
      'Object.defineProperty(Array.prototype, "extra", { value: 1 })',
      'JSON.stringify = () => "{}"',
      '_.set = null',
      '_.mixin({ set: () => ({ hacked: true }) })',
      'String.prototype.split = null',
      'globalThis.leak = 1',
      'Object.setPrototypeOf(Object.prototype, { polluted: 2 })',
      '({}).__proto__.polluted = 3',
      'console.log = null',
    ];
    const prepared = await shared.prepare([
      'data.poison !== undefined ? (eval(data.poison), data) : data',
      "_.set(data, 'check', { map: typeof [].map, polluted: ({}).polluted, extra: [].extra, json: JSON.stringify({a: 1}), split: typeof ''.split, leak: typeof leak, log: typeof console.log, setIsLodash: _.set({}, 'a.b', 1).a.b === 1 })",
    ]);
    const records = [...poison.map((p) => ({ poison: p })), { id: 'after' }];
    const outcomes = await prepared.run(records);
    const clean = { map: 'function', json: '{"a":1}', split: 'function', leak: 'undefined', log: 'function', setIsLodash: true };
    for (let i = 0; i < poison.length; i++) {
      // Either the attempt throws (frozen), or it silently did nothing (lodash's sloppy-mode code).
      if (outcomes[i].ok) expect(outcomes[i], poison[i]).toEqual({ ok: true, value: { poison: poison[i], check: clean } });
      else expect((outcomes[i] as { error: string }).error, poison[i]).toMatch(/^transformers\[0\] threw TypeError/);
    }
    expect(outcomes.filter((o) => !o.ok).length).toBeGreaterThanOrEqual(poison.length - 1);
    expect(outcomes[poison.length]).toEqual({ ok: true, value: { id: 'after', check: clean } });
    // And in a later batch too.
    expect(await prepared.run([{ id: 'later' }])).toEqual([{ ok: true, value: { id: 'later', check: clean } }]);
  });

  it('still lets a record shadow an inherited name (toString, valueOf) on its own objects', async () => {
    expect(values(await transform(["_.set(data, 'toString', 'x')", '(data.valueOf = 1, data)', '({...data, hasOwnProperty: 2})'], [{}]))).toEqual([
      { toString: 'x', valueOf: 1, hasOwnProperty: 2 },
    ]);
  });

  it('names the transformer index of a syntax error at prepare', async () => {
    await expect(shared.prepare(['data', "_.set(data, 'x' 1)"])).rejects.toThrow(TransformerCompileError);
    const error = await shared.prepare(['data', 'data', 'data.(']).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TransformerCompileError);
    expect((error as TransformerCompileError).index).toBe(2);
    expect((error as TransformerCompileError).message).toMatch(/^transformers\[2\] is not a valid expression: SyntaxError/);
    const empty = await shared.prepare(['data', '  ']).catch((e: unknown) => e);
    expect((empty as TransformerCompileError).index).toBe(1);
    // The sandbox is still usable afterwards.
    expect(values(await transform(['data'], [{ ok: 1 }]))).toEqual([{ ok: 1 }]);
  });

  it('runs two sandboxes in parallel independently', async () => {
    const a = sandbox({ deadlineMs: 500 });
    const b = sandbox();
    const [pa, pb] = await Promise.all([
      a.prepare(["data.loop ? (() => { while (true) {} })() : _.set(data, 'by', 'a')"]),
      b.prepare(["_.set(data, 'by', 'b')"]),
    ]);
    const records = Array.from({ length: 2000 }, (_, id) => ({ id }));
    let bFinishedAt = 0;
    let aFinishedAt = 0;
    const [ra, rb] = await Promise.all([
      pa.run([{ loop: true }, { id: 'a' }]).then((r) => ((aFinishedAt = Date.now()), r)),
      pb.run(records).then((r) => ((bFinishedAt = Date.now()), r)),
    ]);
    expect(bFinishedAt).toBeLessThan(aFinishedAt);
    expect(ra).toEqual([
      { ok: false, error: 'Transformer exceeded its deadline of 500 ms' },
      { ok: true, value: { id: 'a', by: 'a' } },
    ]);
    expect(rb.every((o, i) => o.ok && _.isEqual(o.value, { id: i, by: 'b' }))).toBe(true);
  });

  it('refuses work after close', async () => {
    const s = new TransformerSandbox();
    const prepared = await s.prepare(['data']);
    await s.close();
    await expect(prepared.run([{}])).rejects.toThrow(/closed/);
    await expect(s.prepare(['data'])).rejects.toThrow(/closed/);
  });
});
