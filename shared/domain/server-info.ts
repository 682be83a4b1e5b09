/** The Immich server version whose API this project implements (the CLI and SDK check it). */
export const serverVersion = { major: 1, minor: 100, patch: 0 } as const;

/** Where Immich clients find the API, answered at /.well-known/immich. */
export const wellKnown = { api: { endpoint: '/api' } } as const;

export type ServerVersionResponseDto = typeof serverVersion;
export type WellKnownResponseDto = typeof wellKnown;
export interface ServerPingResponse {
  res: string;
}
