import * as env from '../core/env.ts';

/**
 * API Gateway's management API of the WebSocket API (PostToConnection, DeleteConnection), at
 * `REALTIME_ENDPOINT` (shared/core/env.ts; locally, the stand-in of infra/local/websocket-api.ts).
 * The SDK's client is loaded on first use, never at import: a function pays for it only when
 * someone is connected to be told (docs/benchmarks.md). Deployed it is kept beside the bundle, not
 * in it (`lazyModules.realtime`, infra/cdk/bundling.ts).
 */
export interface ManagementApi {
  /** Sends one frame; `gone` when the connection no longer exists, or is not open yet (410). */
  post(connectionId: string, frame: string): Promise<'sent' | 'gone'>;
  /** Closes the connection (its `$disconnect` follows). */
  close(connectionId: string): Promise<void>;
}

const clients = new Map<string, Promise<ManagementApi>>();

const connect = async (endpoint: string): Promise<ManagementApi> => {
  const sdk = await import('@aws-sdk/client-apigatewaymanagementapi');
  const client = new sdk.ApiGatewayManagementApiClient({ endpoint });
  const isGone = (error: unknown): boolean => error instanceof sdk.GoneException;
  return {
    post: async (connectionId, frame) => {
      try {
        await client.send(new sdk.PostToConnectionCommand({ ConnectionId: connectionId, Data: Buffer.from(frame) }));
        return 'sent';
      } catch (error) {
        if (isGone(error)) return 'gone';
        throw error;
      }
    },
    close: async (connectionId) => {
      try {
        await client.send(new sdk.DeleteConnectionCommand({ ConnectionId: connectionId }));
      } catch (error) {
        if (!isGone(error)) throw error;
      }
    },
  };
};

/** The management API, or undefined where there is none (no endpoint configured). */
export const managementApi = (): Promise<ManagementApi> | undefined => {
  const endpoint = env.realtimeEndpoint();
  if (!endpoint) return undefined;
  let api = clients.get(endpoint);
  if (!api) {
    api = connect(endpoint);
    // A failed load is tried again next time.
    api.catch(() => clients.delete(endpoint));
    clients.set(endpoint, api);
  }
  return api;
};
