import { putIfAbsent, queryAll, type Store } from '../../../ports/store';
import type { Collection, CollectionSchema, NavigationConfiguration } from './model';

/**
 * Collections, their schemas and the navigation: small items in one partition per customer
 * (`GRAPH#<customer>`), listed with one Query.
 */
export class CollectionRepository {
  constructor(private readonly store: Store) {}

  async get(customerCode: string, collectionCode: string): Promise<Collection | undefined> {
    return (await this.store.get(key(customerCode, `COLLECTION#${collectionCode}`)))?.collection as Collection | undefined;
  }

  /** Creates; false when the code is taken. */
  create(customerCode: string, collection: Collection): Promise<boolean> {
    return putIfAbsent(this.store, { ...key(customerCode, `COLLECTION#${collection.collectionCode}`), collection });
  }

  async list(customerCode: string): Promise<Collection[]> {
    return (await queryAll(this.store, partition(customerCode), { prefix: 'COLLECTION#' })).map((item) => item.collection as Collection);
  }

  async delete(customerCode: string, collectionCode: string): Promise<void> {
    await this.store.delete(key(customerCode, `SCHEMA#${collectionCode}`));
    await this.store.delete(key(customerCode, `COLLECTION#${collectionCode}`));
  }

  async getSchema(customerCode: string, collectionCode: string): Promise<CollectionSchema | undefined> {
    return (await this.store.get(key(customerCode, `SCHEMA#${collectionCode}`)))?.schema as CollectionSchema | undefined;
  }

  async putSchema(customerCode: string, collectionCode: string, schema: CollectionSchema): Promise<void> {
    await this.store.put({ ...key(customerCode, `SCHEMA#${collectionCode}`), schema });
  }

  async getNavigation(customerCode: string): Promise<NavigationConfiguration> {
    return ((await this.store.get(key(customerCode, 'NAVIGATION')))?.navigationConfiguration as NavigationConfiguration) ?? [];
  }

  async putNavigation(customerCode: string, navigationConfiguration: NavigationConfiguration): Promise<void> {
    await this.store.put({ ...key(customerCode, 'NAVIGATION'), navigationConfiguration });
  }
}

const partition = (customerCode: string) => `GRAPH#${customerCode}`;
const key = (customerCode: string, sk: string) => ({ pk: partition(customerCode), sk });
