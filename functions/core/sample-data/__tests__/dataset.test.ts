import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import { DATASET_DIR, datasetFiles, generateSampleData } from '../../../../scripts/generate-sample-data';
import { SAMPLE_COLLECTIONS } from '../collections';
import { GENRES, PROFESSIONS, type Actor, type Movie, type User } from '../records';

// INTERFACE.md "Sample data records", field by field; strict objects reject any extra field.
const year = z.number().int().min(1800).max(2024);
const movieSchema = z.strictObject({
  id: z.string().regex(/^tt\d{7}$/),
  titleType: z.enum(['movie', 'tvMovie', 'short']),
  primaryTitle: z.string().min(1),
  originalTitle: z.string().min(1),
  startYear: z.number().int().min(1920).max(2024),
  runtimeMinutes: z.number().int().refine((n) => n === -1 || n > 0, 'positive or -1'),
  isAdult: z.boolean(),
  genres: z.array(z.enum(GENRES)).min(1).max(3),
  directors: z.array(z.string().regex(/^nm\d{7}$/)).min(1),
  writers: z.array(z.string().regex(/^nm\d{7}$/)).min(1),
  actors: z.array(z.string().regex(/^nm\d{7}$/)).min(3).max(8),
});
const actorSchema = z.strictObject({
  id: z.string().regex(/^nm\d{7}$/),
  primaryName: z.string().regex(/^\S+ \S+$/),
  birthYear: year.nullable(),
  deathYear: year.nullable(),
  primaryProfession: z.array(z.enum(PROFESSIONS)).min(1),
});
const userSchema = z.strictObject({
  id: z.email(),
  favouriteGenre: z.enum(GENRES),
});

const movies = SAMPLE_COLLECTIONS.get('collection-movie')!.records as readonly Movie[];
const actors = SAMPLE_COLLECTIONS.get('collection-actor')!.records as readonly Actor[];
const users = SAMPLE_COLLECTIONS.get('collection-user')!.records as readonly User[];
const actorsById = new Map(actors.map((a) => [a.id, a]));

function expectUniqueIds(records: readonly { id: string }[]): void {
  expect(new Set(records.map((r) => r.id)).size).toBe(records.length);
}

describe('sample dataset', () => {
  it('has at least 1,000 movies, 2,000 actors and 200 users', () => {
    expect(movies.length).toBeGreaterThanOrEqual(1000);
    expect(actors.length).toBeGreaterThanOrEqual(2000);
    expect(users.length).toBeGreaterThanOrEqual(200);
  });

  it('gives every movie the Movie shape of INTERFACE.md', () => {
    for (const movie of movies) expect(movieSchema.safeParse(movie).error?.issues ?? [], movie.id).toEqual([]);
    expectUniqueIds(movies);
  });

  it('gives every actor the Actor shape, with a death year after the birth year', () => {
    for (const actor of actors) {
      expect(actorSchema.safeParse(actor).error?.issues ?? [], actor.id).toEqual([]);
      if (actor.birthYear !== null && actor.deathYear !== null) expect(actor.deathYear).toBeGreaterThan(actor.birthYear);
    }
    expectUniqueIds(actors);
  });

  it('gives every user the User shape, the id being an e-mail address', () => {
    for (const user of users) expect(userSchema.safeParse(user).error?.issues ?? [], user.id).toEqual([]);
    expectUniqueIds(users);
  });

  it('has realistic proportions: mostly movies, a few unknown runtimes, mostly living people', () => {
    const share = (n: number, of: number) => n / of;
    expect(share(movies.filter((m) => m.titleType === 'movie').length, movies.length)).toBeGreaterThan(0.7);
    for (const titleType of ['tvMovie', 'short']) expect(movies.some((m) => m.titleType === titleType)).toBe(true);
    const unknownRuntime = share(movies.filter((m) => m.runtimeMinutes === -1).length, movies.length);
    expect(unknownRuntime).toBeGreaterThan(0.01);
    expect(unknownRuntime).toBeLessThan(0.06);
    expect(share(movies.filter((m) => m.isAdult).length, movies.length)).toBeLessThan(0.01);
    expect(movies.some((m) => m.originalTitle !== m.primaryTitle)).toBe(true);
    expect(share(actors.filter((a) => a.deathYear === null).length, actors.length)).toBeGreaterThan(0.5);
    expect(actors.some((a) => a.birthYear === null)).toBe(true);
  });

  it('uses every IMDb genre', () => {
    expect(new Set(movies.flatMap((m) => m.genres))).toEqual(new Set(GENRES));
  });

  it('keeps referential integrity: every actor, director and writer of a movie is in collection-actor', () => {
    for (const movie of movies) {
      for (const id of [...movie.actors, ...movie.directors, ...movie.writers]) expect(actorsById.has(id), `${movie.id} → ${id}`).toBe(true);
    }
  });

  it('casts performers as actors, directors as directors and writers as writers', () => {
    for (const movie of movies) {
      for (const id of movie.actors) {
        const professions = actorsById.get(id)!.primaryProfession;
        expect(professions.includes('actor') || professions.includes('actress'), `${movie.id} → ${id}`).toBe(true);
      }
      for (const id of movie.directors) expect(actorsById.get(id)!.primaryProfession).toContain('director');
      for (const id of movie.writers) expect(actorsById.get(id)!.primaryProfession).toContain('writer');
      expect(new Set(movie.actors).size).toBe(movie.actors.length);
    }
  });

  it('has cast and crew alive and of a plausible age in the movie\'s startYear', () => {
    const plausible = (id: string, year: number, minAge: number, maxAge: number) => {
      const { birthYear, deathYear } = actorsById.get(id)!;
      if (deathYear !== null && deathYear < year) return false;
      return birthYear === null || (year - birthYear >= minAge && year - birthYear <= maxAge);
    };
    for (const movie of movies) {
      for (const id of movie.actors) expect(plausible(id, movie.startYear, 6, 95), `${movie.id} → ${id}`).toBe(true);
      for (const id of [...movie.directors, ...movie.writers]) expect(plausible(id, movie.startYear, 18, 90), `${movie.id} → ${id}`).toBe(true);
    }
  });

  it('gives every user a favouriteGenre that occurs among the movies', () => {
    const movieGenres = new Set(movies.flatMap((m) => m.genres));
    for (const user of users) expect(movieGenres.has(user.favouriteGenre), user.id).toBe(true);
  });

  it('has the featured titles exactly once each', () => {
    for (const title of ['The Silent Harbor', 'Midnight in Lisbon', 'Galaxy Patrol: The Last Frontier', "The Clockmaker's Daughter"]) {
      expect(movies.filter((m) => m.primaryTitle === title), title).toHaveLength(1);
    }
  });
});

describe('dataset generator', () => {
  it('is deterministic: two runs give identical records', () => {
    expect(generateSampleData()).toEqual(generateSampleData());
  });

  it('reproduces the committed files byte for byte', () => {
    const files = datasetFiles(generateSampleData());
    for (const [name, content] of Object.entries(files)) {
      expect(readFileSync(DATASET_DIR + name, 'utf8') === content, `${name} is out of date: run npm run sample-data`).toBe(true);
    }
  });

  it('gives a different dataset for a different seed', () => {
    expect(generateSampleData(1).movies[1]).not.toEqual(generateSampleData().movies[1]);
  });
});
