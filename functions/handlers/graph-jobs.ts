import * as z from 'zod';
import { JOB_TYPES, jobDefinitionSchema } from '../core/jobs/model';
import { jobServices } from '../core/jobs/services';
import type { Deps } from '../deps';
import type { ApiHandler } from '../http/api-event';
import { BadRequestError, NotFoundError } from '../http/errors';
import { customerOf, json, parseBody, parseWith, pathParam, withErrors } from '../http/respond';
import type { JobType } from '../ports/job-runner';
import { GRAPH_PREFIX } from '../routes';
import { lambdaHandler } from './lambda-entry';

const executeBody = z.object({ params: z.record(z.string(), z.unknown()).optional() }).default({});
const typeBody = z.object({ params: z.record(z.string(), z.unknown()) });
const jobBody = z.record(z.string(), z.unknown());
const listQuery = z.object({
  status: z.enum(['QUEUED', 'RUNNING', 'SUCCEEDED', 'FAILED']).optional(),
  limit: z.coerce.number().int().optional(),
});

/**
 * INTERFACE.md "Job, job definition": job definitions, running jobs by definition or by type,
 * the download and import endpoints of buckets, and job state. Starting answers 202 `{jobId}`.
 */
export function create(deps: Deps): ApiHandler {
  const { jobs } = jobServices(deps);
  return withErrors(async (event) => {
    const customerCode = customerOf(event);
    const started = (job: { jobId: string }) => json(202, { jobId: job.jobId });
    switch (event.routeKey.replace(GRAPH_PREFIX, '')) {
      case 'POST /job-definitions':
        return json(201, await jobs.define(customerCode, parseBody(event, jobDefinitionSchema)));
      case 'GET /job-definitions':
        return json(200, { data: await jobs.listDefinitions(customerCode) });
      case 'GET /job-definitions/{jobDefinitionCode}':
        return json(200, await jobs.getDefinition(customerCode, pathParam(event, 'jobDefinitionCode')));
      case 'DELETE /job-definitions/{jobDefinitionCode}':
        await jobs.deleteDefinition(customerCode, pathParam(event, 'jobDefinitionCode'));
        return json(204);
      case 'POST /job-definitions/{jobDefinitionCode}/_execute':
        return started(await jobs.execute(customerCode, pathParam(event, 'jobDefinitionCode'), parseBody(event, executeBody).params));
      case 'POST /job-types/{jobType}/_execute': {
        const jobType = pathParam(event, 'jobType');
        if (!(JOB_TYPES as readonly string[]).includes(jobType)) throw new NotFoundError(`Unknown job type ${jobType}; known: ${JOB_TYPES.join(', ')}`);
        return started(await jobs.start(customerCode, jobType as JobType, parseBody(event, typeBody).params));
      }
      case 'GET /jobs': {
        const query = parseWith(listQuery, event.queryStringParameters ?? {}, 'query');
        return json(200, { data: await jobs.list(customerCode, query) });
      }
      case 'GET /jobs/{jobId}':
        return json(200, await jobs.get(customerCode, pathParam(event, 'jobId')));
      case 'POST /buckets/{bucketCode}/files/_download-from-webservice': {
        const body = parseBody(event, jobBody);
        return started(await jobs.start(customerCode, 'downloadDataFromWebservice', withBucket(body, 'targetBucketCode', pathParam(event, 'bucketCode'))));
      }
      case 'POST /buckets/{bucketCode}/files/_import': {
        const body = parseBody(event, jobBody);
        return started(await jobs.start(customerCode, 'importDataFiles', withBucket(body, 'sourceBucketCode', pathParam(event, 'bucketCode'))));
      }
      default:
        throw new NotFoundError(`No route ${event.routeKey}`);
    }
  });
}

/** The bucket of the path fills the body's bucket field; both given and different is a 400. */
function withBucket(body: Record<string, unknown>, field: string, bucketCode: string): Record<string, unknown> {
  if (body[field] !== undefined && body[field] !== bucketCode) {
    throw new BadRequestError(`${field} (${String(body[field])}) differs from the bucket of the path (${bucketCode})`, 'BucketMismatch');
  }
  return { ...body, [field]: bucketCode };
}

export const handler = lambdaHandler(create);
