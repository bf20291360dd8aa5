import { queryAll, type Item, type Store } from '../../../ports/store';
import { KINDS, type Component, type Connection, type EngineConfig, type Kind, type Template } from './model';

type ObjectOf<K extends Kind> = K extends 'connection' ? Connection : K extends 'component' ? Component : Template;

/**
 * Engine configuration in the store. All of one customer's configuration is one partition
 * (`ENGINE#<customer>`), so loading it whole is one paged Query; a version counter item in
 * the same partition lets every host instance cache the compiled configuration and notice
 * a change with a single GetItem.
 */
export class EngineConfigRepository {
  constructor(private readonly store: Store) {}

  async get<K extends Kind>(customerCode: string, kind: K, code: string): Promise<ObjectOf<K> | undefined> {
    const item = await this.store.get({ pk: partition(customerCode), sk: sortKey(kind, code) });
    return item?.body as ObjectOf<K> | undefined;
  }

  async list<K extends Kind>(customerCode: string, kind: K): Promise<ObjectOf<K>[]> {
    const items = await this.queryAll(customerCode, `${kind.toUpperCase()}#`);
    return items.map((item) => item.body as ObjectOf<K>);
  }

  /** Stores (creates or replaces) one object and bumps the version. */
  async put<K extends Kind>(customerCode: string, kind: K, object: ObjectOf<K>): Promise<void> {
    const code = codeOf(kind, object);
    await this.store.put({ pk: partition(customerCode), sk: sortKey(kind, code), body: object });
    await this.bumpVersion(customerCode);
  }

  /** Removes one object; false when it did not exist. */
  async delete(customerCode: string, kind: Kind, code: string): Promise<boolean> {
    const old = await this.store.delete({ pk: partition(customerCode), sk: sortKey(kind, code) });
    if (old) await this.bumpVersion(customerCode);
    return old !== undefined;
  }

  async loadAll(customerCode: string): Promise<EngineConfig> {
    const config: EngineConfig = { connections: [], components: [], templates: [] };
    for (const item of await this.queryAll(customerCode, '')) {
      const kind = String(item.sk).split('#')[0].toLowerCase() as Kind;
      if (kind in KINDS) (config[KINDS[kind].plural] as unknown[]).push(item.body);
    }
    return config;
  }

  /** Replaces the whole configuration (COMPAT.md's `PUT /engine-config`). */
  async replaceAll(customerCode: string, config: EngineConfig): Promise<void> {
    const pk = partition(customerCode);
    const puts = (Object.keys(KINDS) as Kind[]).flatMap((kind) =>
      (config[KINDS[kind].plural] as ObjectOf<Kind>[]).map((object) => ({
        pk,
        sk: sortKey(kind, codeOf(kind, object)),
        body: object,
      })),
    );
    const keep = new Set(puts.map((p) => p.sk));
    const deletes = (await this.queryAll(customerCode, ''))
      .map((item) => String(item.sk))
      .filter((sk) => sk !== VERSION_SK && !keep.has(sk))
      .map((sk) => ({ pk, sk }));
    await this.store.batchWrite(puts, deletes);
    await this.bumpVersion(customerCode);
  }

  /** The configuration's version: 0 before anything was written. */
  async version(customerCode: string): Promise<number> {
    const item = await this.store.get({ pk: partition(customerCode), sk: VERSION_SK });
    return typeof item?.version === 'number' ? item.version : 0;
  }

  private bumpVersion(customerCode: string): Promise<number> {
    return this.store.increment({ pk: partition(customerCode), sk: VERSION_SK }, 'version');
  }

  private async queryAll(customerCode: string, prefix: string): Promise<Item[]> {
    return (await queryAll(this.store, partition(customerCode), { prefix })).filter((item) => item.sk !== VERSION_SK);
  }
}

const VERSION_SK = 'VERSION';
const partition = (customerCode: string) => `ENGINE#${customerCode}`;
const sortKey = (kind: Kind, code: string) => `${kind.toUpperCase()}#${code}`;

function codeOf(kind: Kind, object: ObjectOf<Kind>): string {
  return (object as unknown as Record<string, string>)[KINDS[kind].codeField];
}
