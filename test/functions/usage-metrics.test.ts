import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { setupAccounts } from '../support/accounts.ts';
import { albumInfo, createAlbum } from '../support/library.ts';

let accounts: Awaited<ReturnType<typeof setupAccounts>>;
beforeAll(async () => {
  accounts = await setupAccounts();
});

afterEach(() => {
  vi.restoreAllMocks();
});

/** The request lines the handlers log while `fn` runs. */
const requestLines = async (fn: () => Promise<unknown>): Promise<Record<string, any>[]> => {
  const lines: string[] = [];
  vi.spyOn(console, 'log').mockImplementation((line: unknown) => void lines.push(String(line)));
  const level = process.env.LOG_LEVEL;
  process.env.LOG_LEVEL = 'info';
  try {
    await fn();
  } finally {
    process.env.LOG_LEVEL = level;
  }
  return lines.map((line) => JSON.parse(line)).filter((entry) => entry.message === 'request');
};

describe('DynamoDB usage per request, in the request line and as a metric', () => {
  it('counts the calls and the read and write units DynamoDB reports for each request, separately per request', async () => {
    const token = accounts.user1.accessToken;
    let albumId = '';
    const [create] = await requestLines(async () => {
      albumId = (await createAlbum(token, { albumName: 'Usage' })).id;
    });
    expect(create).toMatchObject({ route: 'POST /api/album', status: 201 });
    expect(create?.dynamoCalls).toBeGreaterThanOrEqual(2);
    expect(create?.dynamoWriteUnits).toBeGreaterThan(0);
    const [read] = await requestLines(() => albumInfo(token, albumId));
    expect(read?.dynamoCalls).toBeGreaterThanOrEqual(2);
    expect(read?.dynamoReadUnits).toBeGreaterThan(0);
    expect(read?.dynamoWriteUnits).toBe(0);
    const names = ((read?._aws.CloudWatchMetrics[0].Metrics ?? []) as { Name: string }[]).map((metric) => metric.Name);
    expect(names).toEqual(expect.arrayContaining(['dynamoCalls', 'dynamoReadUnits', 'dynamoWriteUnits']));
  });
});
