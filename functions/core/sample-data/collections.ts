import type { Actor, Movie, SampleRecord, User } from './records';
import { generateSampleData } from './generate';

// Generated at load (a few tens of milliseconds) rather than bundled: the same records as the
// committed ./dataset/*.json (a test compares them), at a tenth of the Lambda bundle's size.
const { movies, actors, users } = generateSampleData();

/** One collection of the sample data web service, indexed by record id once, at load. */
export interface SampleCollection {
  readonly collectionCode: string;
  /** The records in dataset order (the order every answer keeps). */
  readonly records: readonly SampleRecord[];
  /** Record id → position in `records`. */
  readonly positionById: ReadonlyMap<string, number>;
  /** The field names of the collection's record shape (INTERFACE.md "Sample data records"). */
  readonly fields: ReadonlySet<string>;
}

function collection(collectionCode: string, records: readonly SampleRecord[], fields: readonly string[]): SampleCollection {
  // The records outlive every request in a warm Lambda: freeze them so no caller can change them.
  for (const record of records) {
    for (const value of Object.values(record)) if (Array.isArray(value)) Object.freeze(value);
    Object.freeze(record);
  }
  return {
    collectionCode,
    records: Object.freeze(records),
    positionById: new Map(records.map((record, position) => [record.id, position])),
    fields: new Set(fields),
  };
}

const movieFields: readonly (keyof Movie)[] = [
  'id', 'titleType', 'primaryTitle', 'originalTitle', 'startYear', 'runtimeMinutes', 'isAdult', 'genres', 'directors', 'writers', 'actors',
];
const actorFields: readonly (keyof Actor)[] = ['id', 'primaryName', 'birthYear', 'deathYear', 'primaryProfession'];
const userFields: readonly (keyof User)[] = ['id', 'favouriteGenre'];

/** The collections of INTERFACE.md "Sample data web service", by collection code. */
export const SAMPLE_COLLECTIONS: ReadonlyMap<string, SampleCollection> = new Map(
  [
    collection('collection-movie', movies as Movie[], movieFields),
    collection('collection-actor', actors as Actor[], actorFields),
    collection('collection-user', users as User[], userFields),
  ].map((c) => [c.collectionCode, c]),
);
