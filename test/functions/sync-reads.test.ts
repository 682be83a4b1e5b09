import { beforeAll, describe, expect, it } from 'vitest';
import { handler as addUsersHandler } from '#functions/album/add-users-to-album.ts';
import { handler as createPartnerHandler } from '#functions/partner/create-partner.ts';
import * as partitions from '#shared/db/partitions.ts';
import { bearer, freshUser, setupAccounts } from '../support/accounts.ts';
import { invoke } from '../support/invoke.ts';
import { addPhoto, createAlbum } from '../support/library.ts';
import { recordRoundTrips } from '../support/round-trips.ts';
import { appTypes, syncStream } from '../support/sync-client.ts';

/**
 * What one POST /sync/stream reads of the caller's relations: their album memberships and partner
 * shares once each, however many types use them (shared/services/sync/stream.service.ts, `once`).
 */
let accounts: Awaited<ReturnType<typeof setupAccounts>>;

beforeAll(async () => {
  accounts = await setupAccounts();
});

describe('a sync request', () => {
  it("reads the caller's albums and partners once each, for every type that needs them", async () => {
    const owner = await freshUser(accounts.admin.accessToken, 'Reader');
    const partner = await freshUser(accounts.admin.accessToken, 'ReadPartner');
    const member = await freshUser(accounts.admin.accessToken, 'ReadMember');
    const photo = await addPhoto(member.accessToken, { color: [70, 10, 10] });
    const album = (await createAlbum(member.accessToken, { albumName: 'Read', assetIds: [photo] })).id;
    await invoke(addUsersHandler, {
      method: 'PUT',
      path: `/api/album/${album}/users`,
      pathParameters: { id: album },
      headers: bearer(member.accessToken),
      body: { sharedUserIds: [owner.id] },
    });
    await invoke(createPartnerHandler, {
      method: 'POST',
      path: `/api/partner/${owner.id}`,
      pathParameters: { id: owner.id },
      headers: bearer(partner.accessToken),
    });
    let status = 0;
    const calls = await recordRoundTrips(async () => {
      status = (await syncStream(owner.accessToken, { types: appTypes })).status;
    });
    expect(status).toBe(200);
    const queries = (partition: string) =>
      calls.filter(
        (call) => call.command === 'QueryCommand' && Object.values(call.input.ExpressionAttributeValues ?? {}).includes(partition),
      ).length;
    expect({
      albumsSharedWith: queries(partitions.albumsSharedWith(owner.id).value),
      partnersSharingWith: queries(partitions.partnersSharingWith(owner.id).value),
      partnersSharedBy: queries(partitions.partnersSharedBy(owner.id).value),
    }).toEqual({ albumsSharedWith: 1, partnersSharingWith: 1, partnersSharedBy: 1 });
  });
});
