import { describe, expect, it } from 'vitest';
import { BadRequestError, NotFoundError } from '../../../http/errors';
import { SAMPLE_COLLECTIONS } from '../collections';
import { DEFAULT_PAGE_SIZE, querySampleData } from '../query';
import type { Actor, Movie, User } from '../records';

const movies = SAMPLE_COLLECTIONS.get('collection-movie')!.records as readonly Movie[];
const actors = SAMPLE_COLLECTIONS.get('collection-actor')!.records as readonly Actor[];
const users = SAMPLE_COLLECTIONS.get('collection-user')!.records as readonly User[];

const moviesQuery = (raw: string) => querySampleData('collection-movie', raw) as Movie[];
const ids = (records: readonly { id: string }[]) => records.map((r) => r.id);
const byTitle = (title: string) => movies.find((m) => m.primaryTitle === title)!;

describe('querySampleData: collections', () => {
  it('answers every record of each collection, in dataset order, without parameters', () => {
    expect(querySampleData('collection-movie', '')).toEqual(movies);
    expect(querySampleData('collection-actor', '')).toEqual(actors);
    expect(querySampleData('collection-user', '')).toEqual(users);
  });

  it('throws NotFoundError for an unknown collection', () => {
    expect(() => querySampleData('collection-book', '')).toThrow(NotFoundError);
    expect(() => querySampleData('__proto__', '')).toThrow(NotFoundError);
    expect(() => querySampleData('Collection-Movie', '')).toThrow(NotFoundError);
  });

  it('accepts a leading question mark', () => {
    expect(moviesQuery('?_limit=2')).toEqual(movies.slice(0, 2));
  });
});

describe('querySampleData: _limit', () => {
  it('returns at most _limit records, from the start', () => {
    expect(moviesQuery('_limit=5')).toEqual(movies.slice(0, 5));
    expect(moviesQuery('_limit=0')).toEqual([]);
    expect(querySampleData('collection-user', `_limit=${users.length + 100}`)).toEqual(users);
  });

  it.each(['abc', '-1', '1.5', '', ' 3', '1e3', '99999999999999999999'])('rejects _limit=%s with BadRequestError', (raw) => {
    expect(() => moviesQuery(`_limit=${encodeURIComponent(raw)}`)).toThrow(BadRequestError);
  });

  it('rejects _limit given twice', () => {
    expect(() => moviesQuery('_limit=1&_limit=2')).toThrow(/at most once/);
  });
});

describe('querySampleData: _id and _id[]', () => {
  it('_id returns the record with this id', () => {
    const movie = movies[321]!;
    expect(moviesQuery(`_id=${movie.id}`)).toEqual([movie]);
    expect(querySampleData('collection-actor', `_id=${actors[7]!.id}`)).toEqual([actors[7]]);
  });

  it('_id works with an e-mail address, encoded or not', () => {
    const user = users[3]!;
    expect(querySampleData('collection-user', `_id=${encodeURIComponent(user.id)}`)).toEqual([user]);
    expect(querySampleData('collection-user', `_id=${user.id}`)).toEqual([user]);
  });

  it('_id of an unknown record returns an empty list', () => {
    expect(moviesQuery('_id=tt0000000')).toEqual([]);
    expect(moviesQuery('_id=')).toEqual([]);
  });

  it('_id matches ids exactly (ids are not case-folded)', () => {
    expect(moviesQuery(`_id=${movies[0]!.id.toUpperCase()}`)).toEqual([]);
  });

  it('repeated _id[] returns the records with any of these ids, in dataset order', () => {
    const wanted = [movies[900]!, movies[12]!, movies[450]!];
    const raw = wanted.map((m) => `_id[]=${m.id}`).join('&');
    expect(ids(moviesQuery(raw))).toEqual([movies[12]!.id, movies[450]!.id, movies[900]!.id]);
  });

  it('accepts percent-encoded brackets: _id%5B%5D', () => {
    const raw = `_id%5B%5D=${movies[3]!.id}&_id%5b%5d=${movies[1]!.id}`;
    expect(moviesQuery(raw)).toEqual([movies[1], movies[3]]);
  });

  it('accepts indexed brackets as query-string libraries send them: _id[0], _id[1]', () => {
    expect(moviesQuery(`_id%5B0%5D=${movies[5]!.id}&_id%5B1%5D=${movies[2]!.id}`)).toEqual([movies[2], movies[5]]);
  });

  it('returns each record once and skips unknown ids', () => {
    const raw = `_id[]=${movies[4]!.id}&_id[]=${movies[4]!.id}&_id[]=tt9999999&_id=${movies[2]!.id}`;
    expect(moviesQuery(raw)).toEqual([movies[2], movies[4]]);
  });

  it('looks up every cast member of a movie in collection-actor', () => {
    const movie = byTitle('Midnight in Lisbon');
    const raw = movie.actors.map((id) => `_id[]=${id}`).join('&');
    const cast = querySampleData('collection-actor', raw) as Actor[];
    expect(new Set(ids(cast))).toEqual(new Set(movie.actors));
  });
});

describe('querySampleData: _query', () => {
  it('equality on a scalar field: primaryTitle', () => {
    expect(moviesQuery('_query=primaryTitle:The+Silent+Harbor')).toEqual([byTitle('The Silent Harbor')]);
    expect(moviesQuery('_query=primaryTitle:Midnight%20in%20Lisbon')).toEqual([byTitle('Midnight in Lisbon')]);
  });

  it('is case-insensitive on the value', () => {
    const expected = [byTitle('The Silent Harbor')];
    expect(moviesQuery('_query=primaryTitle:the+silent+harbor')).toEqual(expected);
    expect(moviesQuery('_query=primaryTitle:THE+SILENT+HARBOR')).toEqual(expected);
    expect(moviesQuery('_query=genres:sci-fi')).toEqual(movies.filter((m) => m.genres.includes('Sci-Fi')));
    expect(querySampleData('collection-user', '_query=favouriteGenre:DRAMA')).toEqual(users.filter((u) => u.favouriteGenre === 'Drama'));
  });

  it('is equality, not a substring match', () => {
    expect(moviesQuery('_query=primaryTitle:Silent+Harbor')).toEqual([]);
  });

  it('keeps colons after the first as part of the value', () => {
    expect(moviesQuery('_query=primaryTitle:Galaxy+Patrol%3A+The+Last+Frontier')).toEqual([byTitle('Galaxy Patrol: The Last Frontier')]);
    expect(moviesQuery('_query=primaryTitle:Galaxy Patrol: The Last Frontier')).toEqual([byTitle('Galaxy Patrol: The Last Frontier')]);
  });

  it('decodes a percent-encoded _query (colon and apostrophe)', () => {
    expect(moviesQuery(`_query=${encodeURIComponent("primaryTitle:The Clockmaker's Daughter")}`)).toEqual([byTitle("The Clockmaker's Daughter")]);
  });

  it('membership on an array field: genres', () => {
    const westerns = movies.filter((m) => m.genres.includes('Western'));
    expect(westerns.length).toBeGreaterThan(0);
    expect(moviesQuery('_query=genres:Western')).toEqual(westerns);
  });

  it('membership on an array of ids: the movies of an actor', () => {
    const actorId = byTitle('The Silent Harbor').actors[0]!;
    const result = moviesQuery(`_query=actors:${actorId}`);
    expect(result).toEqual(movies.filter((m) => m.actors.includes(actorId)));
    expect(ids(result)).toContain(byTitle('The Silent Harbor').id);
  });

  it('compares numbers, booleans and null by their string form', () => {
    const year = byTitle('The Silent Harbor').startYear;
    expect(moviesQuery(`_query=startYear:${year}`)).toEqual(movies.filter((m) => m.startYear === year));
    expect(moviesQuery('_query=runtimeMinutes:-1')).toEqual(movies.filter((m) => m.runtimeMinutes === -1));
    expect(moviesQuery('_query=isAdult:TRUE')).toEqual(movies.filter((m) => m.isAdult));
    expect(querySampleData('collection-actor', '_query=deathYear:null')).toEqual(actors.filter((a) => a.deathYear === null));
  });

  it('favouriteGenre on users', () => {
    const genre = users[0]!.favouriteGenre;
    const result = querySampleData('collection-user', `_query=favouriteGenre:${genre}`) as User[];
    expect(result.length).toBeGreaterThan(0);
    expect(result).toEqual(users.filter((u) => u.favouriteGenre === genre));
  });

  it('ANDs several _query parameters', () => {
    const expected = movies.filter((m) => m.genres.includes('Drama') && m.genres.includes('Romance'));
    expect(expected.length).toBeGreaterThan(1);
    expect(moviesQuery('_query=genres:Drama&_query=genres:romance')).toEqual(expected);
    expect(moviesQuery('_query=genres:Drama&_query=primaryTitle:Midnight+in+Lisbon')).toEqual([byTitle('Midnight in Lisbon')]);
    expect(moviesQuery('_query=genres:Comedy&_query=primaryTitle:Midnight+in+Lisbon')).toEqual([]);
  });

  it('matches an empty value only against an empty field', () => {
    expect(moviesQuery('_query=primaryTitle:')).toEqual([]);
  });

  it.each(['genres', 'genresDrama', ':Drama', ''])('rejects _query=%s without <field>: with BadRequestError', (raw) => {
    expect(() => moviesQuery(`_query=${encodeURIComponent(raw)}`)).toThrow(BadRequestError);
  });

  it('rejects a field the collection does not have, naming the fields', () => {
    expect(() => moviesQuery('_query=genre:Drama')).toThrow(/unknown field "genre".*genres/);
    expect(() => querySampleData('collection-user', '_query=primaryTitle:x')).toThrow(BadRequestError);
  });
});

describe('querySampleData: paging with _offset and _page', () => {
  it('_offset skips records (0-based)', () => {
    expect(moviesQuery('_offset=10&_limit=5')).toEqual(movies.slice(10, 15));
    expect(moviesQuery('_offset=0&_limit=3')).toEqual(movies.slice(0, 3));
    expect(moviesQuery(`_offset=${movies.length - 2}`)).toEqual(movies.slice(-2));
    expect(moviesQuery(`_offset=${movies.length + 5}`)).toEqual([]);
  });

  it(`_page without _limit gives pages of ${DEFAULT_PAGE_SIZE}`, () => {
    expect(DEFAULT_PAGE_SIZE).toBe(20);
    expect(moviesQuery('_page=1')).toEqual(movies.slice(0, 20));
    expect(moviesQuery('_page=3')).toEqual(movies.slice(40, 60));
  });

  it('_page with _limit uses _limit as the page size (1-based pages)', () => {
    expect(moviesQuery('_page=2&_limit=7')).toEqual(movies.slice(7, 14));
    expect(moviesQuery('_limit=7&_page=1')).toEqual(movies.slice(0, 7));
  });

  it('a page past the end is empty', () => {
    expect(moviesQuery('_page=1000')).toEqual([]);
  });

  it('rejects _offset and _page together', () => {
    expect(() => moviesQuery('_offset=1&_page=1')).toThrow(/either _offset or _page/);
  });

  it.each(['_page=0', '_page=-1', '_page=x', '_offset=-1', '_offset=abc', '_page=1&_page=2'])('rejects %s', (raw) => {
    expect(() => moviesQuery(raw)).toThrow(BadRequestError);
  });

  it('pages over the filtered records: filters first, then offset or page, then limit', () => {
    const dramas = movies.filter((m) => m.genres.includes('Drama'));
    expect(moviesQuery('_query=genres:Drama&_page=2&_limit=10')).toEqual(dramas.slice(10, 20));
    expect(moviesQuery('_query=genres:Drama&_offset=3&_limit=4')).toEqual(dramas.slice(3, 7));
    expect(moviesQuery('_limit=4&_offset=3&_query=genres:drama')).toEqual(dramas.slice(3, 7));
  });

  it('combines _id[] with _query and _limit', () => {
    const chosen = movies.slice(0, 60);
    const raw = chosen.map((m) => `_id[]=${m.id}`).join('&') + '&_query=genres:Comedy&_limit=3';
    expect(moviesQuery(raw)).toEqual(chosen.filter((m) => m.genres.includes('Comedy')).slice(0, 3));
  });
});

describe('querySampleData: other parameters', () => {
  it('ignores parameters it does not know', () => {
    expect(moviesQuery('_limit=2&_sort=primaryTitle&foo=bar')).toEqual(movies.slice(0, 2));
  });

  it('answers records that callers cannot change', () => {
    const [movie] = moviesQuery('_limit=1');
    expect(Object.isFrozen(movie)).toBe(true);
    expect(Object.isFrozen(movie!.genres)).toBe(true);
  });
});
