import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestHost, type TestHost } from '../support/local-host';
import { component, connection } from '../support/engine-config';

let host: TestHost;
beforeAll(async () => {
  host = await startTestHost();
});
afterAll(() => host.stop());

describe('the engine against the sample data web service of the same host', () => {
  it('a movie page: the movie by id, then its cast with _id[] built from the movie response', async () => {
    const engineConfig = {
      connections: [connection('sampleData', host.url, { path: '/api/collections' })],
      components: [
        component('movie', {
          validityExpression: 'response.length == 1',
          config: { connectionCode: 'sampleData', path: '/collection-movie', queryParams: [{ parameter: '_id', value: { contextField: 'movieId' } }] },
          contextFieldEnrichment: [{ contextField: 'actorIds', expression: 'response[0].actors' }],
        }),
        component('cast', {
          validityExpression: "response.length == contextField('actorIds').length",
          config: {
            connectionCode: 'sampleData',
            path: '/collection-actor',
            queryParams: [{ parameter: '_id', value: "`contextField('actorIds')`" }],
            queryParamsOptions: { arrayFormat: 'bracket' },
          },
        }),
        component('fans', {
          config: {
            connectionCode: 'sampleData',
            path: '/collection-user',
            queryParams: [{ parameter: '_query', value: "`'favouriteGenre:' + componentResponse('movie')[0].genres[0]`" }],
          },
        }),
      ],
      templates: [{ templateCode: 'moviePage', name: 'Movie page', componentCodes: ['movie', 'cast', 'fans'] }],
    };
    expect((await host.call('PUT', '/engine-config', { engineConfig })).status).toBe(200);

    const res = await host.call('POST', '/experience/template/_query', { templateCode: ['moviePage'], context: { movieId: 'tt0084112' } });
    expect(res.status).toBe(200);
    const { movie, cast, fans } = res.body.components;
    expect(movie.status).toBe('VALID');
    expect(movie.response[0].primaryTitle).toBe('Midnight in Lisbon');
    expect(cast.status).toBe('VALID');
    expect(cast.response.map((a: any) => a.id).sort()).toEqual([...movie.response[0].actors].sort());
    expect(fans.status).toBe('VALID');
    expect(fans.response.length).toBeGreaterThan(0);
    for (const user of fans.response) expect(user.favouriteGenre).toBe(movie.response[0].genres[0]);
  });

  it('an unknown movie: enrichment indexes past the end, so the movie is FAILED, and the cast, missing its field, FAILED too', async () => {
    const res = await host.call('POST', '/experience/components/_query', { componentCodes: ['movie', 'cast'], context: { movieId: 'tt0000000' } });
    expect(res.status).toBe(200);
    expect(res.body.components.movie).toEqual({ status: 'FAILED', error: expect.stringContaining('response[0].actors') });
    expect(res.body.components.cast.status).toBe('FAILED');
  });
});
