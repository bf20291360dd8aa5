/**
 * The record shapes of the sample data web service (INTERFACE.md "Sample data records").
 * The dataset generator (`scripts/generate-sample-data.ts`) and the query code share them.
 */

/** The IMDb genre list the sample movies draw their `genres` from. */
export const GENRES = [
  'Action',
  'Adventure',
  'Animation',
  'Biography',
  'Comedy',
  'Crime',
  'Documentary',
  'Drama',
  'Family',
  'Fantasy',
  'History',
  'Horror',
  'Music',
  'Musical',
  'Mystery',
  'Romance',
  'Sci-Fi',
  'Sport',
  'Thriller',
  'War',
  'Western',
] as const;
export type Genre = (typeof GENRES)[number];

export const TITLE_TYPES = ['movie', 'tvMovie', 'short'] as const;
export type TitleType = (typeof TITLE_TYPES)[number];

export const PROFESSIONS = ['actor', 'actress', 'director', 'writer', 'producer', 'composer'] as const;
export type Profession = (typeof PROFESSIONS)[number];

/** INTERFACE.md "Sample data records": Movie. `runtimeMinutes` is -1 where unknown. */
export interface Movie {
  id: string;
  titleType: string;
  primaryTitle: string;
  originalTitle: string;
  startYear: number;
  runtimeMinutes: number;
  isAdult: boolean;
  genres: string[];
  /** Person ids (records of collection-actor). */
  directors: string[];
  /** Person ids (records of collection-actor). */
  writers: string[];
  /** Actor ids (records of collection-actor). */
  actors: string[];
}

/** INTERFACE.md "Sample data records": Actor (every person: actors, directors, writers...). */
export interface Actor {
  id: string;
  primaryName: string;
  birthYear: number | null;
  deathYear: number | null;
  primaryProfession: string[];
}

/** INTERFACE.md "Sample data records": User; the id is an e-mail address. */
export interface User {
  id: string;
  favouriteGenre: string;
}

/** Any record of the sample data web service; every one has a string `id`. */
export type SampleRecord = Movie | Actor | User;
