import { describe, expect, it } from 'vitest';
import { compileExpression, compileValue } from '..';

const refs = (text: string) => compileExpression(text).references;

describe('references: what an expression reads, for the dependency planner (INTERFACE.md "Component result status" rule 2)', () => {
  it('a context field read through contextField is a reference', () => {
    expect(refs("contextField('user').email")).toEqual({ contextFields: ['user'], componentResponses: [], dynamic: false });
  });

  it("another component's response read through componentResponse is a reference", () => {
    expect(refs('componentResponse("movies")[0].id')).toEqual({ contextFields: [], componentResponses: ['movies'], dynamic: false });
  });

  it('references are deduplicated and kept in order of appearance', () => {
    expect(refs("contextField('b') + contextField('a') + contextField('b') + componentResponse('y') + componentResponse('x') + componentResponse('y')")).toEqual({
      contextFields: ['b', 'a'],
      componentResponses: ['y', 'x'],
      dynamic: false,
    });
  });

  it.each([
    ["`/movies/${contextField('id')}`", ['id']],
    ["response.map(r => contextField('inArrow') + r.id)", ['inArrow']],
    ["[contextField('inArray'), {k: contextField('inObject')}]", ['inArray', 'inObject']],
    ["contextField('c') ? contextField('t') : contextField('f')", ['c', 't', 'f']],
    ["_.get(contextField('inArgument'), 'a')", ['inArgument']],
    ["contextField(contextField('inner'))", ['inner']],
    ['contextField(`template`)', ['template']],
    ["`${`${contextField('deep')}`}`", ['deep']],
  ])('references are found anywhere: %s', (text, fields) => {
    expect(refs(text).contextFields).toEqual(fields);
  });

  it.each(["contextField('a' + 'b')", 'contextField(response[0].id)', 'componentResponse(`c${1}`)', 'contextField(...names)', 'contextField(1)'])(
    'a call with an argument that is not a string literal is dynamic: %s',
    (text) => {
      expect(refs(text).dynamic).toBe(true);
    },
  );

  it('the literal arguments of a dynamic expression are still listed', () => {
    expect(refs("contextField(contextField('key'))")).toEqual({ contextFields: ['key'], componentResponses: [], dynamic: true });
  });

  it('calls of other functions, and methods named contextField, are not references', () => {
    expect(refs("other('x') + _.contextField('y') + response.length")).toEqual({ contextFields: [], componentResponses: [], dynamic: false });
  });

  it('compileValue gathers the references of every expression and every {contextField} object at any depth', () => {
    const compiled = compileValue({
      a: { contextField: 'token' },
      b: ["`componentResponse('login')[0].session`", { c: '`contextField(name)`' }],
      d: '`contextField("token")`',
    });
    expect(compiled.references).toEqual({ contextFields: ['token'], componentResponses: ['login'], dynamic: true });
  });
});
