import { toApiGatewayEvent } from '#infra/local/http-event.ts';
import { hashPassword, hashSecret, newSecret, verifyPassword } from '#shared/core/crypto.ts';
import { readCredentials } from '#shared/http/credentials.ts';
import { median, percentile, table } from './stats.ts';

/** Password hashing cost, and what authentication costs a request before its one GetItem. */
export const authSection = {
  name: 'auth',
  async run(): Promise<string> {
    const hashMs: number[] = [];
    const verifyMs: number[] = [];
    let stored = '';
    for (let i = 0; i < 30; i++) {
      let start = performance.now();
      stored = await hashPassword(`password-${i}`);
      hashMs.push(performance.now() - start);
      start = performance.now();
      await verifyPassword(`password-${i}`, stored);
      verifyMs.push(performance.now() - start);
    }

    const token = newSecret();
    const event = toApiGatewayEvent(
      { method: 'GET', url: '/api/user/me', headers: { authorization: `Bearer ${token}`, 'user-agent': 'bench' } },
      { routeKey: 'GET /api/user/me' },
    );
    const calls = 200_000;
    for (let i = 0; i < 20_000; i++) hashSecret(readCredentials(event)?.secret ?? '');
    const rounds: number[] = [];
    for (let round = 0; round < 5; round++) {
      const start = process.hrtime.bigint();
      for (let i = 0; i < calls; i++) hashSecret(readCredentials(event)?.secret ?? '');
      rounds.push(Number(process.hrtime.bigint() - start) / 1_000 / calls);
    }

    return [
      'argon2id (node:crypto, 19 MiB, 2 passes, 1 lane), 30 samples each; and the work authentication adds to a request besides its one GetItem (read the credential, SHA-256 it).',
      '',
      table(
        ['what', 'median', 'p95'],
        [
          ['hash a password', `${median(hashMs).toFixed(1)} ms`, `${percentile(hashMs, 95).toFixed(1)} ms`],
          ['verify a password', `${median(verifyMs).toFixed(1)} ms`, `${percentile(verifyMs, 95).toFixed(1)} ms`],
          ['find + hash a Bearer token', `${median(rounds).toFixed(2)} µs`, '–'],
        ],
      ),
    ].join('\n');
  },
};
