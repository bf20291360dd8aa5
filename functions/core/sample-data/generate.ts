// The sample data web service's dataset, generated: fully synthetic (every name, title and id
// comes from the word lists and the seeded generator below; no third-party data is used). The
// service generates it at load, and the same records are committed as JSON in ./dataset/ by
// `npm run sample-data` (scripts/generate-sample-data.ts); a test checks that the two agree.
import { GENRES, type Actor, type Genre, type Movie, type User } from './records';

/** Sizes of the generated collections. */
export const SAMPLE_SIZES = { movies: 1200, actors: 2200, users: 250 } as const;

/** The seed of the committed dataset; changing it changes every record. */
export const SAMPLE_SEED = 20240607;

export interface SampleData {
  movies: Movie[];
  actors: Actor[];
  users: User[];
}

// ---------------------------------------------------------------------------------------------
// Seeded randomness: mulberry32, so the output depends on the seed only (no Math.random, no clock).

type Rng = () => number;

/** A small deterministic PRNG: the same seed always gives the same sequence. */
export function mulberry32(seed: number): Rng {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Integer in [min, max], both inclusive. */
function int(rng: Rng, min: number, max: number): number {
  return min + Math.floor(rng() * (max - min + 1));
}

function pick<T>(rng: Rng, items: readonly T[]): T {
  return items[Math.floor(rng() * items.length)]!;
}

function chance(rng: Rng, probability: number): boolean {
  return rng() < probability;
}

function weighted<T>(rng: Rng, entries: readonly (readonly [T, number])[]): T {
  const total = entries.reduce((sum, [, weight]) => sum + weight, 0);
  let r = rng() * total;
  for (const [item, weight] of entries) {
    r -= weight;
    if (r < 0) return item;
  }
  return entries[entries.length - 1]![0];
}

/** `count` distinct items of `items` (fewer when `items` is smaller). */
function distinct<T>(rng: Rng, count: number, draw: () => T): T[] {
  const chosen = new Set<T>();
  for (let attempts = 0; chosen.size < count && attempts < count * 50; attempts++) chosen.add(draw());
  return [...chosen];
}

/** `prefix` + 7 digits, increasing with random gaps so ids look scattered but stay sorted. */
function idSequence(rng: Rng, prefix: string, count: number, start: number, maxGap: number): string[] {
  const ids: string[] = [];
  let n = start;
  for (let i = 0; i < count; i++) {
    n += int(rng, 1, maxGap);
    ids.push(prefix + String(n).padStart(7, '0'));
  }
  if (n > 9_999_999) throw new Error(`${prefix} ids overflow 7 digits`);
  return ids;
}

// ---------------------------------------------------------------------------------------------
// Word lists (invented for this dataset).

const FEMALE_FIRST_NAMES = [
  'Ada', 'Agnes', 'Alma', 'Amara', 'Anika', 'Beatrice', 'Bianca', 'Camille', 'Carmen', 'Celia',
  'Clara', 'Daphne', 'Delia', 'Edith', 'Elena', 'Eliza', 'Elsa', 'Esme', 'Eva', 'Fatima',
  'Flora', 'Freya', 'Greta', 'Hana', 'Harriet', 'Helena', 'Ida', 'Ines', 'Iris', 'Ivy',
  'Jade', 'June', 'Kaia', 'Lena', 'Leonora', 'Lila', 'Lucia', 'Mabel', 'Maia', 'Margot',
  'Marisol', 'Maya', 'Mei', 'Mina', 'Nadia', 'Nina', 'Noor', 'Olive', 'Paloma', 'Pearl',
  'Priya', 'Rosa', 'Ruth', 'Sabine', 'Selma', 'Sofia', 'Stella', 'Talia', 'Vera', 'Yara',
] as const;

const MALE_FIRST_NAMES = [
  'Aaron', 'Abel', 'Adrian', 'Albert', 'Amir', 'Anton', 'Arlo', 'Arthur', 'Bruno', 'Caleb',
  'Cyrus', 'Dario', 'Declan', 'Desmond', 'Elias', 'Emil', 'Ezra', 'Felix', 'Floyd', 'Gideon',
  'Hector', 'Hugo', 'Ian', 'Isaac', 'Jasper', 'Jonah', 'Julian', 'Kenji', 'Lars', 'Leon',
  'Lionel', 'Luca', 'Magnus', 'Malik', 'Marco', 'Milo', 'Nestor', 'Nico', 'Omar', 'Oscar',
  'Otto', 'Pablo', 'Pavel', 'Quentin', 'Rafael', 'Ravi', 'Rex', 'Rufus', 'Silas', 'Soren',
  'Tariq', 'Theo', 'Tobias', 'Ulric', 'Victor', 'Walter', 'Wesley', 'Xavier', 'Yusuf', 'Zane',
] as const;

const LAST_NAMES = [
  'Abernathy', 'Achterberg', 'Adeyemi', 'Albright', 'Almeida', 'Arkwright', 'Ashdown', 'Bellamy',
  'Benedetti', 'Blackwood', 'Bramwell', 'Brightwater', 'Calloway', 'Carrow', 'Castellanos', 'Cavendish',
  'Chandler', 'Cortazar', 'Crane', 'Dalgaard', 'Delacroix', 'Drummond', 'Dunmore', 'Eastwick',
  'Ellingham', 'Falkner', 'Farrow', 'Fenwick', 'Fitzgerald', 'Fontaine', 'Galloway', 'Garland',
  'Greaves', 'Hallberg', 'Harrowgate', 'Hartley', 'Hawthorne', 'Holloway', 'Ibarra', 'Iverson',
  'Jansen', 'Kallio', 'Kavanagh', 'Kessler', 'Kowalczyk', 'Lachance', 'Langley', 'Larkspur',
  'Lindqvist', 'Lockhart', 'Lombardi', 'Marchetti', 'Mercer', 'Montague', 'Moreau', 'Nakamura',
  'Navarro', 'Northcott', 'Novak', 'Okafor', 'Oyelaran', 'Pemberton', 'Petrakis', 'Quennell',
  'Radcliffe', 'Ravenscroft', 'Rinaldi', 'Rochester', 'Rosales', 'Sandoval', 'Sato', 'Selwyn',
  'Sinclair', 'Stavros', 'Sterling', 'Sutherland', 'Takahashi', 'Thornbury', 'Trevelyan', 'Underhill',
  'Valdez', 'Vance', 'Varga', 'Vasquez', 'Wainwright', 'Westbrook', 'Whitlock', 'Winslow',
  'Wolfe', 'Yamada', 'Yilmaz', 'Zeller', 'Zhou', 'Zielinski',
] as const;

const ADJECTIVES = [
  'Silent', 'Crimson', 'Hidden', 'Last', 'Broken', 'Golden', 'Distant', 'Burning', 'Frozen', 'Secret',
  'Wild', 'Quiet', 'Lost', 'Hollow', 'Iron', 'Velvet', 'Electric', 'Forgotten', 'Endless', 'Savage',
  'Gentle', 'Restless', 'Scarlet', 'Paper', 'Glass', 'Northern', 'Sleeping', 'Wandering', 'Fallen', 'Bright',
  'Dark', 'Little', 'Final', 'Stolen', 'Painted', 'Haunted', 'Midnight', 'Silver', 'Lonely', 'Blue',
] as const;

const NOUNS = [
  'Harbor', 'River', 'Garden', 'Empire', 'Kingdom', 'Letter', 'Promise', 'Horizon', 'Shadow', 'Mirror',
  'Storm', 'Station', 'Frontier', 'Orchard', 'Lighthouse', 'Carnival', 'Detective', 'Stranger', 'Machine', 'Voyage',
  'Symphony', 'Island', 'Window', 'Bridge', 'Crown', 'Summer', 'Winter', 'Tide', 'Valley', 'Canyon',
  'Witness', 'Circus', 'Signal', 'Compass', 'Lantern', 'Heist', 'Dynasty', 'Orbit', 'Ballad', 'Highway',
] as const;

const PEOPLE = [
  'Children', 'Queen', 'Ghosts', 'Sons', 'Daughters', 'Keeper', 'Prisoner', 'King', 'Thieves', 'Rider',
  'Song', 'Return', 'Legend', 'Secret', 'Curse', 'Last Days', 'Fall', 'Heart', 'Ghost', 'Bride',
] as const;

const MOMENTS = ['Midnight', 'Summer', 'Winter', 'Rain', 'Autumn', 'Sunday', 'Murder', 'Love', 'Morning', 'Snow'] as const;

const CITIES = [
  'Lisbon', 'Vienna', 'Marrakesh', 'Havana', 'Kyoto', 'Cairo', 'Prague', 'Istanbul', 'Buenos Aires', 'Reykjavik',
  'Naples', 'Odessa', 'Tangier', 'Shanghai', 'Montreal', 'Dakar', 'Lima', 'Oslo', 'Seville', 'Bombay',
] as const;

/** Original (non-English) titles for the movies whose originalTitle differs from primaryTitle. */
const FOREIGN_ADJECTIVES = {
  fr: ['Silencieux', 'Perdu', 'Secret', 'Dernier', 'Sauvage', 'Rouge', 'Lointain', 'Oublié'],
  es: ['Silencioso', 'Perdido', 'Secreto', 'Último', 'Salvaje', 'Rojo', 'Lejano', 'Olvidado'],
  it: ['Silenzioso', 'Perduto', 'Segreto', 'Ultimo', 'Selvaggio', 'Rosso', 'Lontano', 'Dimenticato'],
  de: ['Stille', 'Verlorene', 'Geheime', 'Letzte', 'Wilde', 'Rote', 'Ferne', 'Vergessene'],
} as const;
const FOREIGN_NOUNS = {
  fr: ['Le Port', 'Le Jardin', 'Le Miroir', 'Le Voyage', 'Le Royaume', 'Le Fleuve', 'Le Phare', 'Le Pont'],
  es: ['El Puerto', 'El Jardín', 'El Espejo', 'El Viaje', 'El Reino', 'El Río', 'El Faro', 'El Puente'],
  it: ['Il Porto', 'Il Giardino', 'Lo Specchio', 'Il Viaggio', 'Il Regno', 'Il Fiume', 'Il Faro', 'Il Ponte'],
  de: ['Der Hafen', 'Der Garten', 'Der Spiegel', 'Die Reise', 'Das Reich', 'Der Fluss', 'Der Leuchtturm', 'Die Brücke'],
} as const;

const MAIL_DOMAINS = ['example.com', 'example.org', 'example.net'] as const;

/** How often each genre is drawn: drama and comedy dominate, as in real catalogues. */
const GENRE_WEIGHTS: readonly (readonly [Genre, number])[] = [
  ['Drama', 30], ['Comedy', 20], ['Action', 12], ['Romance', 10], ['Thriller', 10], ['Crime', 9],
  ['Adventure', 8], ['Horror', 7], ['Mystery', 6], ['Documentary', 5], ['Family', 5], ['Fantasy', 5],
  ['Sci-Fi', 5], ['Biography', 4], ['History', 4], ['Animation', 4], ['Music', 3], ['War', 3],
  ['Western', 3], ['Musical', 2], ['Sport', 2],
];

/**
 * Hand-written movies with unique titles, placed at fixed positions, so that tests and
 * documentation have stable, readable examples (one title contains a colon on purpose).
 */
const FEATURED_MOVIES: readonly { index: number; primaryTitle: string; originalTitle?: string; genres: Genre[] }[] = [
  { index: 0, primaryTitle: 'The Silent Harbor', genres: ['Drama', 'Mystery'] },
  { index: 41, primaryTitle: 'Midnight in Lisbon', originalTitle: 'Meia-Noite em Lisboa', genres: ['Drama', 'Romance'] },
  { index: 137, primaryTitle: 'Galaxy Patrol: The Last Frontier', genres: ['Action', 'Adventure', 'Sci-Fi'] },
  { index: 256, primaryTitle: "The Clockmaker's Daughter", genres: ['Drama', 'Fantasy', 'Mystery'] },
  { index: 512, primaryTitle: 'Lord of the Lanterns', genres: ['Adventure', 'Fantasy'] },
  { index: 777, primaryTitle: 'Tokyo After Rain', genres: ['Crime', 'Thriller'] },
  { index: 1024, primaryTitle: 'The Great Pelican Race', genres: ['Animation', 'Comedy', 'Family'] },
];
const FEATURED_TITLES = new Set(FEATURED_MOVIES.map((m) => m.primaryTitle.toLowerCase()));

// ---------------------------------------------------------------------------------------------
// Generation.

/** Generates the whole dataset from `seed`: pure, the same seed always gives the same records. */
export function generateSampleData(seed: number = SAMPLE_SEED): SampleData {
  const rng = mulberry32(seed);
  const actors = generatePeople(rng);
  const movies = generateMovies(rng, actors);
  const users = generateUsers(rng, movies);
  return { movies, actors, users };
}

function generatePeople(rng: Rng): Actor[] {
  const ids = idSequence(rng, 'nm', SAMPLE_SIZES.actors, 100, 900);
  const names = new Set<string>();
  return ids.map((id) => {
    const female = chance(rng, 0.5);
    let primaryName: string;
    do {
      primaryName = `${pick(rng, female ? FEMALE_FIRST_NAMES : MALE_FIRST_NAMES)} ${pick(rng, LAST_NAMES)}`;
    } while (names.has(primaryName));
    names.add(primaryName);

    // Birth years lean recent (1880-2005), as in a catalogue that keeps growing.
    const birthYear = chance(rng, 0.88) ? 1880 + Math.floor(126 * Math.sqrt(rng())) : null;
    // Most people are alive; nobody born before 1930 still is.
    const deathChance = birthYear === null ? 0.03 : birthYear < 1930 ? 1 : birthYear < 1945 ? 0.6 : birthYear < 1960 ? 0.2 : 0.03;
    let deathYear: number | null = null;
    if (chance(rng, deathChance)) {
      deathYear = Math.min(2024, (birthYear ?? 1900) + int(rng, 30, 95));
    }

    const primaryProfession: string[] = [];
    const performs = chance(rng, 0.85);
    if (performs) primaryProfession.push(female ? 'actress' : 'actor');
    if (chance(rng, performs ? 0.1 : 0.45)) primaryProfession.push('director');
    if (chance(rng, performs ? 0.1 : 0.45)) primaryProfession.push('writer');
    if (chance(rng, performs ? 0.06 : 0.3)) primaryProfession.push('producer');
    if (chance(rng, performs ? 0.01 : 0.15)) primaryProfession.push('composer');
    if (primaryProfession.length === 0) primaryProfession.push(pick(rng, ['director', 'writer', 'producer'] as const));

    return { id, primaryName, birthYear, deathYear, primaryProfession };
  });
}

/** Someone could have worked on a film of `year` at an age between `minAge` and `maxAge`. */
function plausible(person: Actor, year: number, minAge: number, maxAge: number): boolean {
  if (person.deathYear !== null && person.deathYear < year) return false;
  if (person.birthYear === null) return true;
  const age = year - person.birthYear;
  return age >= minAge && age <= maxAge;
}

/** `count` distinct people of `pool`, preferring those of a plausible age for `year`. */
function crew(rng: Rng, pool: readonly Actor[], count: number, year: number, minAge: number, maxAge: number): string[] {
  const eligible = pool.filter((p) => plausible(p, year, minAge, maxAge));
  const from = eligible.length >= count * 3 ? eligible : pool;
  return distinct(rng, count, () => pick(rng, from).id);
}

function generateTitle(rng: Rng): string {
  for (;;) {
    const title = weighted<() => string>(rng, [
      [() => `The ${pick(rng, ADJECTIVES)} ${pick(rng, NOUNS)}`, 30],
      [() => `${pick(rng, ADJECTIVES)} ${pick(rng, NOUNS)}`, 15],
      [() => `The ${pick(rng, NOUNS)}`, 8],
      [() => `${pick(rng, PEOPLE)} of the ${pick(rng, NOUNS)}`, 15],
      [() => `${pick(rng, MOMENTS)} in ${pick(rng, CITIES)}`, 12],
      [() => `The ${pick(rng, NOUNS)} of ${pick(rng, CITIES)}`, 10],
      [() => `Return to ${pick(rng, CITIES)}`, 3],
      [() => `Escape from the ${pick(rng, ADJECTIVES)} ${pick(rng, NOUNS)}`, 3],
      [() => `The ${pick(rng, ADJECTIVES)} ${pick(rng, NOUNS)} ${int(rng, 2, 3)}`, 4],
    ])();
    if (!FEATURED_TITLES.has(title.toLowerCase())) return title;
  }
}

function foreignTitle(rng: Rng): string {
  const language = pick(rng, ['fr', 'es', 'it', 'de'] as const);
  const noun = pick(rng, FOREIGN_NOUNS[language]);
  const adjective = pick(rng, FOREIGN_ADJECTIVES[language]);
  // German puts the adjective first ("Der Stille Hafen"); the others after the noun.
  if (language === 'de') {
    const [article, word] = noun.split(' ');
    return `${article} ${adjective} ${word}`;
  }
  return `${noun} ${adjective}`;
}

function generateGenres(rng: Rng): string[] {
  const count = weighted(rng, [[1, 35], [2, 40], [3, 25]] as const);
  // IMDb lists the genres of a title in alphabetical order.
  return distinct(rng, count, () => weighted(rng, GENRE_WEIGHTS)).sort();
}

function generateMovies(rng: Rng, people: readonly Actor[]): Movie[] {
  const performers = people.filter((p) => p.primaryProfession.includes('actor') || p.primaryProfession.includes('actress'));
  const directors = people.filter((p) => p.primaryProfession.includes('director'));
  const writers = people.filter((p) => p.primaryProfession.includes('writer'));
  if (performers.length < 50 || directors.length < 20 || writers.length < 20) throw new Error('Too few people per profession');

  const featured = new Map(FEATURED_MOVIES.map((m) => [m.index, m]));
  const ids = idSequence(rng, 'tt', SAMPLE_SIZES.movies, 10_000, 4_000);
  return ids.map((id, index) => {
    const titleType = weighted(rng, [['movie', 85], ['tvMovie', 9], ['short', 6]] as const);
    const startYear = Math.min(2024, 1920 + Math.floor(105 * Math.pow(rng(), 0.6)));
    const [minRuntime, maxRuntime] = titleType === 'short' ? [4, 40] : titleType === 'tvMovie' ? [60, 120] : [72, 190];
    const runtimeMinutes = chance(rng, 0.03) ? -1 : int(rng, minRuntime, maxRuntime);
    const isAdult = chance(rng, 0.004);
    const generatedTitle = generateTitle(rng);
    const generatedOriginal = chance(rng, 0.08) ? foreignTitle(rng) : undefined;
    const generatedGenres = generateGenres(rng);
    const movieDirectors = crew(rng, directors, chance(rng, 0.1) ? 2 : 1, startYear, 20, 90);
    const movieWriters = crew(rng, writers, weighted(rng, [[1, 50], [2, 35], [3, 15]] as const), startYear, 18, 90);
    const movieActors = crew(rng, performers, int(rng, 3, 8), startYear, 6, 95);

    const special = featured.get(index);
    const primaryTitle = special?.primaryTitle ?? generatedTitle;
    return {
      id,
      titleType: special ? 'movie' : titleType,
      primaryTitle,
      originalTitle: special ? (special.originalTitle ?? primaryTitle) : (generatedOriginal ?? primaryTitle),
      startYear,
      runtimeMinutes: special && runtimeMinutes < 72 ? 104 : runtimeMinutes,
      isAdult: special ? false : isAdult,
      genres: special ? [...special.genres] : generatedGenres,
      directors: movieDirectors,
      writers: movieWriters,
      actors: movieActors,
    };
  });
}

function generateUsers(rng: Rng, movies: readonly Movie[]): User[] {
  // favouriteGenre is always a genre that occurs among the movies, weighted by how often.
  const genreCounts = new Map<string, number>();
  for (const movie of movies) for (const genre of movie.genres) genreCounts.set(genre, (genreCounts.get(genre) ?? 0) + 1);
  const genres = [...genreCounts.entries()].sort(([a], [b]) => a.localeCompare(b));

  const emails = new Set<string>();
  while (emails.size < SAMPLE_SIZES.users) {
    const first = pick(rng, chance(rng, 0.5) ? FEMALE_FIRST_NAMES : MALE_FIRST_NAMES).toLowerCase();
    const last = pick(rng, LAST_NAMES).toLowerCase();
    const local = weighted<string>(rng, [
      [`${first}.${last}`, 60],
      [`${first[0]}${last}`, 20],
      [`${first}${int(rng, 1, 99)}`, 20],
    ]);
    emails.add(`${local}@${pick(rng, MAIL_DOMAINS)}`);
  }
  return [...emails].map((id) => ({ id, favouriteGenre: weighted(rng, genres) }));
}
