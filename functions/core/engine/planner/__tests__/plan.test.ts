import { describe, expect, it } from 'vitest';
import { compileConfig } from '../../config/compile';
import { component, connection, engineConfig } from '../../../../../test/support/engine-config';
import { planQuery } from '../plan';

const base = connection('upstream', 'http://127.0.0.1:9');

function plan(components: ReturnType<typeof component>[], requested: string[], given: string[] = []) {
  const config = compileConfig(engineConfig({ connections: [base], components }));
  expect(config.problems).toEqual([]);
  return planQuery(config, requested, new Set(given));
}

const enriches = (field: string) => ({ contextFieldEnrichment: [{ contextField: field, expression: 'response.id' }] });
const readsField = (field: string) => ({ config: { queryParams: [{ parameter: 'q', value: { contextField: field } }] } });
const readsResponse = (code: string) => ({ validityExpression: `componentResponse('${code}').length > 0` });

describe('query planning (INTERFACE.md "Component result status", rules 2-4)', () => {
  it('a component that reads a context field another requested component enriches depends on it', () => {
    const p = plan([component('user', enriches('userId')), component('orders', readsField('userId'))], ['orders', 'user']);
    expect(p.nodes.get('orders')!.dependsOn).toEqual(['user']);
    expect(p.nodes.get('user')!.dependsOn).toEqual([]);
  });

  it('a component read through componentResponse joins the query even when not requested', () => {
    const p = plan([component('a'), component('b', readsResponse('a'))], ['b']);
    expect([...p.nodes.keys()].sort()).toEqual(['a', 'b']);
    expect(p.nodes.get('b')!.dependsOn).toEqual(['a']);
  });

  it('an enricher joins the query when the field is neither in the context nor enriched by a requested component', () => {
    const config = [component('user', enriches('userId')), component('orders', readsField('userId'))];
    expect([...plan(config, ['orders']).nodes.keys()].sort()).toEqual(['orders', 'user']);
    // Given by the query context: the context value is used and the enricher stays out.
    expect([...plan(config, ['orders'], ['userId']).nodes.keys()]).toEqual(['orders']);
  });

  it('reading a field the component enriches itself is not a dependency', () => {
    const p = plan([component('a', { ...enriches('x'), ...readsField('x') })], ['a']);
    expect(p.nodes.get('a')!.dependsOn).toEqual([]);
    expect(p.cycles.size).toBe(0);
  });

  it('dependencies may chain without limit (rule 4): a chain of 500 components', () => {
    const chain = Array.from({ length: 500 }, (_, i) => component(`c${i}`, i === 0 ? {} : readsResponse(`c${i - 1}`)));
    const p = plan(chain, ['c499']);
    expect(p.nodes.size).toBe(500);
    expect(p.nodes.get('c499')!.dependsOn).toEqual(['c498']);
    expect(p.cycles.size).toBe(0);
  });

  it('a diamond has each dependency once', () => {
    const p = plan(
      [
        component('top', enriches('t')),
        component('left', { ...readsField('t'), ...enriches('l') }),
        component('right', { ...readsField('t'), ...enriches('r') }),
        component('bottom', { config: { queryParams: [{ parameter: 'a', value: { contextField: 'l' } }, { parameter: 'b', value: { contextField: 'r' } }] } }),
      ],
      ['bottom'],
    );
    expect(p.nodes.get('bottom')!.dependsOn).toEqual(['left', 'right']);
    expect(p.nodes.get('left')!.dependsOn).toEqual(['top']);
    expect(p.nodes.get('right')!.dependsOn).toEqual(['top']);
  });

  it('a dependency cycle is reported for each component on it with the whole cycle path', () => {
    const p = plan(
      [component('a', readsResponse('b')), component('b', readsResponse('c')), component('c', readsResponse('a')), component('d', readsResponse('a')), component('e')],
      ['a', 'd', 'e'],
    );
    expect(p.cycles.get('a')).toBe('Dependency cycle: a -> b -> c -> a');
    expect(p.cycles.get('b')).toBe('Dependency cycle: b -> c -> a -> b');
    expect(p.cycles.get('c')).toBe('Dependency cycle: c -> a -> b -> c');
    expect(p.cycles.has('d')).toBe(false);
    expect(p.cycles.has('e')).toBe(false);
  });

  it('a cycle through context fields is found too', () => {
    const p = plan(
      [component('a', { ...enriches('x'), ...readsField('y') }), component('b', { ...enriches('y'), ...readsField('x') })],
      ['a', 'b'],
    );
    expect(p.cycles.get('a')).toBe('Dependency cycle: a -> b -> a');
  });

  it('a long cycle of 1,000 components does not overflow the stack', () => {
    const n = 1000;
    const ring = Array.from({ length: n }, (_, i) => component(`r${i}`, readsResponse(`r${(i + 1) % n}`)));
    const p = plan(ring, ['r0']);
    expect(p.cycles.size).toBe(n);
    expect(p.cycles.get('r0')!.split(' -> ')).toHaveLength(n + 1);
  });
});
