import type { Auth } from '../auth/authenticate.ts';
import { findByChecksums, getAssetWithFaces } from '../db/asset.repository.ts';
import { getPeople } from '../db/person.repository.ts';
import { getUser } from '../db/user.repository.ts';
import { BadRequestException } from '../http/errors.ts';
import { mapAsset, type AssetResponseDto } from '../mappers/asset.mapper.ts';
import type { AssetBulkUploadCheckResult } from '../schemas/asset.ts';

/**
 * POST /asset/bulk-upload-check: for each file, `accept`, or `reject` as a `duplicate` of the
 * owner's existing asset. Checksums are SHA-1, hex (40) or base64 (28).
 */
export const checkBulkUpload = async (auth: Auth, assets: readonly { id: string; checksum: string }[]): Promise<{ results: AssetBulkUploadCheckResult[] }> => {
  const hexOf = (checksum: string): string => (checksum.length === 28 ? Buffer.from(checksum, 'base64').toString('hex') : checksum.toLowerCase());
  const found = await findByChecksums(auth.user.id, assets.map((asset) => hexOf(asset.checksum)));
  return {
    results: assets.map(({ id, checksum }) => {
      const assetId = found.get(hexOf(checksum));
      return assetId ? { id, assetId, action: 'reject', reason: 'duplicate' } : { id, action: 'accept' };
    }),
  };
};

/** GET /asset/:id: the owner's asset with EXIF, owner, tags and people. */
export const getAssetInfo = async (auth: Auth, id: string): Promise<AssetResponseDto> => {
  const found = await getAssetWithFaces(id);
  if (!found || found.asset.ownerId !== auth.user.id) throw new BadRequestException('Not found or no asset.read access');
  const { asset, faces } = found;
  const [owner, people] = await Promise.all([
    getUser(asset.ownerId),
    faces.length > 0 ? getPeople(asset.ownerId, faces.map((face) => face.personId)) : Promise.resolve([]),
  ]);
  return mapAsset(asset, {
    callerId: auth.user.id,
    withExif: true,
    withTags: true,
    ...(owner ? { owner } : {}),
    faces,
    people: new Map(people.map((person) => [person.id, person])),
  });
};

