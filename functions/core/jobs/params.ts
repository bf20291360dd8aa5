import type * as z from 'zod';
import { BadRequestError } from '../../http/errors';
import { describeIssues } from '../../http/respond';
import type { JobType } from '../../ports/job-runner';
import { compileExpression, compileValue } from '../expression';
import { PARAMS_SCHEMAS } from './model';

/**
 * Checks a job's params for its type: the shape (zod, defaults applied) and every expression
 * in it (it must parse). Answers the params with defaults, or throws a 400 naming the bad param.
 */
export function checkParams<T extends JobType>(jobType: T, params: unknown): z.infer<(typeof PARAMS_SCHEMAS)[T]> {
  const result = PARAMS_SCHEMAS[jobType].safeParse(params ?? {});
  if (!result.success) throw new BadRequestError(describeIssues(result.error, 'params'), 'InvalidParams');
  const checked = result.data as Record<string, unknown>;
  const expressions: [string, () => unknown][] = [];
  if (jobType === 'downloadDataFromWebservice') {
    const p = checked as z.infer<(typeof PARAMS_SCHEMAS)['downloadDataFromWebservice']>;
    if (p.hasMore !== undefined) expressions.push(['params.hasMore', () => compileExpression(p.hasMore!)]);
    if (p.responsePrep !== undefined) expressions.push(['params.responsePrep', () => compileExpression(p.responsePrep!)]);
    expressions.push(['params.initialRequest', () => compileValue(p.initialRequest)]);
    if (p.nextPageRequest) expressions.push(['params.nextPageRequest', () => compileValue(p.nextPageRequest)]);
    if (p.isPaged && p.hasMore === undefined) throw new BadRequestError('params.hasMore: a paged download needs a hasMore expression', 'InvalidParams');
  }
  if (jobType === 'callWebservice') expressions.push(['params', () => compileValue(checked)]);
  for (const [path, compile] of expressions) {
    try {
      compile();
    } catch (err) {
      throw new BadRequestError(`${path}: ${(err as Error).message}`, 'InvalidParams');
    }
  }
  return checked as never;
}
