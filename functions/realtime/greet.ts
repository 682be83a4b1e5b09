/**
 * The greeter: invoked asynchronously by the `$connect` function for each new connection (API
 * Gateway cannot post to a connection from its own `$connect`), it waits for the connection to
 * open and says what Immich's server says first (shared/realtime/greeting.ts).
 */
import { log, withLogContext } from '#shared/core/log.ts';
import { greet } from '#shared/realtime/greeting.ts';
import type { Greeting } from '#shared/services/realtime.service.ts';

export const handler = async (event: Greeting): Promise<{ outcome: string }> =>
  withLogContext({}, async () => {
    const outcome = await greet(event);
    log.info('realtime', { route: 'greet', outcome });
    return { outcome };
  });
