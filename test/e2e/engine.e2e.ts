import { afterAll, describe, expect, it } from 'vitest';
import { RUN, call, engine, target } from './support/target';

const connectionCode = `sampleData-${RUN}`;
const movie = `movie-${RUN}`;
const cast = `cast-${RUN}`;
const page = `moviePage-${RUN}`;

afterAll(async () => {
  await engine('DELETE', `/experience/templates/${page}`);
  await engine('DELETE', `/experience/components/${cast}`);
  await engine('DELETE', `/experience/components/${movie}`);
  await engine('DELETE', `/experience/connections/${connectionCode}`);
});

describe('public routes', () => {
  it('GET /health answers 200', async () => {
    const res = await call('GET', '/health');
    expect(res).toMatchObject({ status: 200, body: { status: 'ok' } });
  });

  it('the sample data web service answers a movie by id, without credentials', async () => {
    const res = await call('GET', '/api/collections/collection-movie?_id=tt0084112');
    expect(res.status).toBe(200);
    expect(res.body.map((m: { id: string }) => m.id)).toEqual(['tt0084112']);
  });
});

describe('authentication', () => {
  it('refuses engine routes without a token, with the API key, or with another customer code', async () => {
    // API Gateway answers 401 for a missing header and 403 for a refused token; the local host 401/403 with its JSON error.
    expect((await call('GET', '/experience/connections')).status).toBe(401);
    expect([401, 403]).toContain((await call('GET', '/experience/connections', { auth: 'graph' })).status);
    const t = target();
    const other = await call('GET', '/experience/connections', { headers: { authorization: `Bearer ${t.engineToken}`, 'x-customer-code': `${t.customerCode}-other` } });
    expect(other.status).toBe(403);
  });
});

describe('the orchestration engine against the sample data web service of the same deployment', () => {
  it('configures a connection, two components and a template', async () => {
    const put = async (path: string, body: unknown) => {
      const res = await engine('PUT', path, body);
      expect(res.status, `${path}: ${res.text}`).toBe(200);
    };
    await put(`/experience/connections/${connectionCode}`, {
      connectionCode,
      name: 'Sample data',
      connectorCode: 'genericWebservice',
      config: { baseUrl: target().apiUrl, path: '/api/collections' },
    });
    await put(`/experience/components/${movie}`, {
      componentCode: movie,
      name: 'Movie',
      componentType: 'genericWebserviceCall',
      validityExpression: 'response.length > 0',
      config: { connectionCode, path: '/collection-movie', method: 'GET', queryParams: [{ parameter: '_id', value: { contextField: 'movieId' } }] },
      contextFieldEnrichment: [{ contextField: 'actorIds', expression: 'response[0].actors' }],
    });
    await put(`/experience/components/${cast}`, {
      componentCode: cast,
      name: 'Cast',
      componentType: 'genericWebserviceCall',
      config: {
        connectionCode,
        path: '/collection-actor',
        method: 'GET',
        queryParams: [{ parameter: '_id', value: '`contextField("actorIds")`' }],
        queryParamsOptions: { arrayFormat: 'bracket' },
      },
    });
    await put(`/experience/templates/${page}`, { templateCode: page, name: 'Movie page', componentCodes: [movie, cast] });
  });

  it('a component query runs the dependency first and returns only what was asked', async () => {
    const res = await engine('POST', '/experience/components/_query', { componentCodes: [cast], context: { movieId: 'tt0084112' } });
    expect(res.status, res.text).toBe(200);
    expect(Object.keys(res.body.components)).toEqual([cast]);
    expect(res.body.components[cast].status).toBe('VALID');
    expect(res.body.components[cast].response.length).toBeGreaterThan(0);
    expect(typeof res.body.duration).toBe('number');
  });

  it('a template query answers every component of the template', async () => {
    const res = await engine('POST', '/experience/template/_query', { templateCode: [page], context: { movieId: 'tt0084112' } });
    expect(res.status, res.text).toBe(200);
    expect(res.body.components[movie]).toMatchObject({ status: 'VALID', response: [expect.objectContaining({ id: 'tt0084112' })] });
    expect(res.body.components[cast].status).toBe('VALID');
  });
});
