import type { Component, Connection, EngineConfig } from '../../functions/core/engine/config/model';

/** A generic web-service connection to `baseUrl`. */
export function connection(connectionCode: string, baseUrl: string, config: Partial<Connection['config']> = {}): Connection {
  return { connectionCode, name: connectionCode, connectorCode: 'genericWebservice', config: { baseUrl, ...config } };
}

/** A web-service component calling `path` on the connection `upstream` unless told otherwise. */
export function component(componentCode: string, fields: Partial<Omit<Component, 'config'>> & { config?: Partial<Component['config']> } = {}): Component {
  const { config, ...rest } = fields;
  return {
    componentCode,
    name: componentCode,
    componentType: 'genericWebserviceCall',
    ...rest,
    config: { connectionCode: 'upstream', path: `/${componentCode}`, method: 'GET', ...config },
  };
}

export function engineConfig(parts: Partial<EngineConfig>): EngineConfig {
  return { connections: [], components: [], templates: [], ...parts };
}
