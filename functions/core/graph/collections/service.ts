import { BadRequestError, ConflictError, NotFoundError } from '../../../http/errors';
import type { Clock } from '../../../ports/clock';
import type { RecordService } from '../records/service';
import type { Collection, CollectionSchema, NavigationConfiguration } from './model';
import type { CollectionRepository } from './repository';

/**
 * INTERFACE.md "Data graph API": collections, their schemas and the navigation. A created
 * collection is queryable at once and appears in the navigation only once added there.
 */
export class CollectionService {
  constructor(
    private readonly repository: CollectionRepository,
    private readonly records: RecordService,
    private readonly clock: Clock,
  ) {}

  async create(customerCode: string, body: Omit<Collection, 'createdAt'>): Promise<Collection> {
    const collection: Collection = { ...body, createdAt: new Date(this.clock.now()).toISOString() };
    if (!(await this.repository.create(customerCode, collection))) {
      throw new ConflictError(`Collection ${body.collectionCode} already exists`);
    }
    return collection;
  }

  list(customerCode: string): Promise<Collection[]> {
    return this.repository.list(customerCode);
  }

  async get(customerCode: string, collectionCode: string): Promise<Collection> {
    const collection = await this.repository.get(customerCode, collectionCode);
    if (!collection) throw new NotFoundError(`Collection ${collectionCode} does not exist`);
    return collection;
  }

  /** Removes the collection and every record of it (each raising DataRecordRemoved). */
  async delete(customerCode: string, collectionCode: string): Promise<{ removedRecords: number }> {
    await this.get(customerCode, collectionCode);
    const removedRecords = await this.records.removeAll(customerCode, collectionCode);
    await this.repository.delete(customerCode, collectionCode);
    const navigation = await this.repository.getNavigation(customerCode);
    const pruned = navigation.map((group) => ({ ...group, actions: group.actions.filter((a) => a.dataCollectionCode !== collectionCode) }));
    if (JSON.stringify(pruned) !== JSON.stringify(navigation)) await this.repository.putNavigation(customerCode, pruned);
    return { removedRecords };
  }

  async setSchema(customerCode: string, collectionCode: string, fields: CollectionSchema['fields']): Promise<CollectionSchema> {
    await this.get(customerCode, collectionCode);
    for (const [name, definition] of Object.entries(fields)) {
      if (definition.jsonSchema.type !== 'array' && definition.jsonSchema.items !== undefined) {
        throw new BadRequestError(`fields.${name}.jsonSchema.items: only array fields have items`, 'InvalidSchema');
      }
    }
    const previous = await this.repository.getSchema(customerCode, collectionCode);
    const schema: CollectionSchema = { fields, updatedAt: new Date(this.clock.now()).toISOString() };
    await this.repository.putSchema(customerCode, collectionCode, schema);
    // A field newly marked indexed gets entries for the records already there.
    for (const [name, definition] of Object.entries(fields)) {
      if (definition.options?.indexed && !previous?.fields[name]?.options?.indexed) {
        await this.records.backfillIndex(customerCode, collectionCode, name);
      }
    }
    return schema;
  }

  async getSchema(customerCode: string, collectionCode: string): Promise<CollectionSchema> {
    await this.get(customerCode, collectionCode);
    return (await this.repository.getSchema(customerCode, collectionCode)) ?? { fields: {} };
  }

  async setNavigation(customerCode: string, navigationConfiguration: NavigationConfiguration): Promise<NavigationConfiguration> {
    const known = new Set((await this.repository.list(customerCode)).map((c) => c.collectionCode));
    navigationConfiguration.forEach((group, g) =>
      group.actions.forEach((action, a) => {
        if (!known.has(action.dataCollectionCode)) {
          throw new BadRequestError(
            `navigationConfiguration[${g}].actions[${a}].dataCollectionCode: collection ${action.dataCollectionCode} does not exist`,
            'UnknownCollection',
          );
        }
      }),
    );
    await this.repository.putNavigation(customerCode, navigationConfiguration);
    return navigationConfiguration;
  }

  getNavigation(customerCode: string): Promise<NavigationConfiguration> {
    return this.repository.getNavigation(customerCode);
  }
}
